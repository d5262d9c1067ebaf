package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The control's forks from several parts of the default run become one row: JMH's own statistics over all of them,
 * and a JSON whose "forks" matches its raw data. A benchmark measured in one part stays as it was.
 */
class PartedRunTest {

    private static final String CONTROL = "io.hotpath.jmh.control.MachineControlBenchmark.allocating";
    private static final String LINE_ROW = "io.hotpath.jmh.codec.PropertiesParseBenchmark.hotpath";

    @Test
    void oneRowPerBenchmarkWithTheForksOfEveryPart() {
        RunResult before = run(CONTROL, "", new double[] {100, 100});
        RunResult line = run(LINE_ROW, "large12", new double[] {50, 52}, new double[] {51, 49});
        RunResult after = run(CONTROL, "", new double[] {150, 150});

        List<RunResult> merged = PartedRun.merge(Arrays.asList(before, line, after));

        assertThat(merged).hasSize(2);
        assertThat(merged.get(0).getParams().getBenchmark()).isEqualTo(CONTROL);
        assertThat(merged.get(0).getParams().getForks()).isEqualTo(2);
        assertThat(merged.get(0).getBenchmarkResults()).hasSize(2);
        // JMH's mean over both parts' iterations: a slow spell in one part moves the control's score and error
        assertThat(merged.get(0).getPrimaryResult().getScore()).isEqualTo(125.0);
        assertThat(merged.get(0).getPrimaryResult().getScoreError()).isGreaterThan(25.0);
        assertThat(merged.get(1)).isSameAs(line);
    }

    @Test
    void theJsonSaysHowManyForksItsRawDataHolds() {
        List<RunResult> merged = PartedRun.merge(Arrays.asList(run(CONTROL, "", new double[] {100, 101}),
            run(CONTROL, "", new double[] {102, 99}), run(CONTROL, "", new double[] {98, 100})));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultFormatFactory.getInstance(ResultFormatType.JSON, new PrintStream(out, true)).writeOut(merged);
        JsonArray json = JsonParser.parseString(out.toString(StandardCharsets.UTF_8)).getAsJsonArray();

        assertThat(json).hasSize(1);
        JsonObject row = json.get(0).getAsJsonObject();
        assertThat(row.get("forks").getAsInt()).isEqualTo(3);
        assertThat(row.getAsJsonObject("primaryMetric").getAsJsonArray("rawData")).hasSize(3);
    }

    @Test
    void keepsTheParametersOfARowMeasuredInSeveralParts() {
        List<RunResult> merged = PartedRun.merge(Arrays.asList(run(LINE_ROW, "large12", new double[] {1, 2}),
            run(LINE_ROW, "large12", new double[] {2, 1}), run(LINE_ROW, "small5", new double[] {3, 3})));

        assertThat(merged).hasSize(2);
        assertThat(merged.get(0).getParams().getParam("corpus")).isEqualTo("large12");
        assertThat(merged.get(0).getParams().getForks()).isEqualTo(2);
        assertThat(merged.get(1).getParams().getParam("corpus")).isEqualTo("small5");
    }

    /** A finished JMH run of one benchmark: one fork per array, one iteration per value (ns/op). */
    private static RunResult run(String benchmark, String corpus, double[]... forks) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, TimeValue.seconds(1), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, forks[0].length,
            TimeValue.seconds(1), 1);
        WorkloadParams workload = new WorkloadParams();
        if (!corpus.isEmpty()) {
            workload.put("corpus", corpus, 0);
        }
        BenchmarkParams params = new BenchmarkParams(benchmark, benchmark + "_generated", false, 1, new int[] {1},
            Collections.<String>emptyList(), 1, 0, warmup, measurement, Mode.AverageTime, workload, TimeUnit.NANOSECONDS,
            1, "java", Collections.<String>emptyList(), "17", "OpenJDK", "17", "1.37", TimeValue.minutes(10));
        List<BenchmarkResult> results = new ArrayList<>();
        for (double[] fork : forks) {
            List<IterationResult> iterations = new ArrayList<>();
            for (double nsPerOp : fork) {
                IterationResult it = new IterationResult(params, measurement, new IterationResultMetaData(1000, 1000));
                // 1,000,000 operations in nsPerOp ms: nsPerOp ns each
                it.addResult(new AverageTimeResult(ResultRole.PRIMARY, "", 1_000_000,
                    (long) (nsPerOp * 1_000_000), TimeUnit.NANOSECONDS));
                iterations.add(it);
            }
            results.add(new BenchmarkResult(params, iterations));
        }
        return new RunResult(params, results);
    }
}
