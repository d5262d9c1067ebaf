package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The summary's grouping by release line, its ratios and its noise marks, on a small synthetic JMH JSON
 * (canned-lines-result.json: one parse benchmark with every line's rows and a floor; one decode benchmark with
 * 5.5.1's stock and the drop-in 5.5.1 shares with 5.3.3, whose stock it lacks; two rows of a machine-control benchmark). Nothing here measures speed.
 */
class SummaryWriterTest {

    private static String summary;

    @BeforeAll
    static void writeCannedSummary() throws IOException {
        SummaryWriter.RunContext ctx = new SummaryWriter.RunContext();
        ctx.date = "2026-01-02T03:04:05Z";
        ctx.command = "mvn -B -pl jmh verify";
        ctx.jmhArgs = "\\.(A|B)\\.(upstream490|hotpath)$ -f 3";
        ctx.duration = "18 min 10 s";
        ctx.estimate = "19 min 12 s";
        ctx.cpus = 2;
        ctx.idleBeforePercent = 97.5;
        ctx.othersDuringPercent = 1.2;
        ctx.parts = "3, in order: control; 4.9.0 line; control";
        summary = new SummaryWriter(LineMethods.ALL, "SampleControlBenchmark").write(canned(), ctx);
    }

    @Test
    void headerDescribesRunFromJsonAndContext() {
        assertThat(summary)
            .contains("- Date: 2026-01-02T03:04:05Z\n")
            .contains("- JVM: OpenJDK 64-Bit Server VM 17.0.15+6 (JDK 17.0.15), /opt/jdk/bin/java; JMH 1.37\n")
            .contains("- Settings: 3 forks x (5 warmup x 1 s + 8 measurement x 1 s), mode avgt, 1 thread(s)\n")
            .contains("- Fork JVM args: `-Xms2g -Xmx2g -XX:+AlwaysPreTouch`\n")
            .contains("- Command: `mvn -B -pl jmh verify`\n")
            .contains("- Duration: 18 min 10 s (estimated 19 min 12 s)\n")
            .contains("- JMH invocations: 3, in order: control; 4.9.0 line; control\n")
            .contains("- Machine: 2 CPUs; 97.5 % idle right before the run, other processes used 1.2 % of all CPUs during it -> **quiet**\n");
    }

    @Test
    void headerCountsTheRowsWhoseErrorExceedsTenPercent() {
        // upstream490 (60 of 400 = 15 %) and hotpath491 (30 of 150 = 20 %); upstream551 has no error estimate
        assertThat(summary).contains("- Noisy rows: 2 of 10 (error above 10 % of the score, marked **noisy**: do not quote"
            + " them); 1 without an error estimate (too few iterations), not quotable either; the machine control's own"
            + " error reached 15 %: errors under 10 % lie below this run's floor\n");
        // the header's legend, the two rows, and the noisy control in the floor line and in its table
        assertThat(summary.split("\\*\\*noisy\\*\\*", -1)).hasSize(1 + 1 + 2 + 2);
    }

    @Test
    void statesTheControlRowsErrorsAsTheRunsFloorWithoutCountingThemAsNoisyRows() {
        assertThat(summary).contains("- Machine floor: errors of the control rows (fixed code, no RocketMQ: see the last"
            + " table): allocating 15 % **noisy**, cpuOnly 2 %\n");
        assertThat(summary).endsWith("## Machine control (fixed code, no line's: the run's noise floor)\n\n"
            + "| benchmark | parameters | method | ns/op | ± error | B/op |\n"
            + "|---|---|---|---:|---:|---:|\n"
            + "| SampleControlBenchmark |  | allocating | 200.0 | 30.0 (15 %) **noisy** | n/a |\n"
            + "| SampleControlBenchmark |  | cpuOnly | 100.0 | 2.00 (2 %) | n/a |\n");
    }

    @Test
    void saysTheTargetLiesBelowTheFloorOnlyWhenAControlIsAboveTenPercent() {
        com.google.gson.JsonObject quiet = com.google.gson.JsonParser.parseString(
            "{\"primaryMetric\": {\"score\": 100.0, \"scoreError\": 10.0}}").getAsJsonObject();
        com.google.gson.JsonObject noisy = com.google.gson.JsonParser.parseString(
            "{\"primaryMetric\": {\"score\": 100.0, \"scoreError\": 10.5}}").getAsJsonObject();

        assertThat(SummaryWriter.controlError(java.util.List.of(quiet))).isEqualTo(0.10);
        assertThat(SummaryWriter.controlError(java.util.List.of(quiet, noisy))).isEqualTo(0.105);
        assertThat(SummaryWriter.controlError(java.util.List.of())).isZero();
    }

    @Test
    void statesNoFloorWithoutControlRows() {
        assertThat(SummaryWriter.floor(java.util.List.of())).isNull();
    }

    @Test
    void comparesTheOldestLineWithItsOwnStock() {
        assertThat(summary).contains("## 4.9.0 line: hotpath vs upstream490\n\n"
            + "| benchmark | parameters | method | ns/op | ± error | B/op | speed-up vs upstream490 | B/op vs upstream490 |\n"
            + "|---|---|---|---:|---:|---:|---:|---:|\n"
            + "| SampleParseBenchmark | corpus=large12 | upstream490 | 400.0 | 60.0 (15 %) **noisy** | 480 | 1.00x | 1.00x |\n"
            + "| SampleParseBenchmark | corpus=large12 | hotpath | 100.0 | 5.00 (5 %) | 120 | 4.00x | 0.25x |\n");
    }

    @Test
    void comparesEachLaterLinesDropInsWithThatLinesStockNotWith490() {
        // against upstream490 hotpath491 would read 2.67x and 0.62x
        assertThat(summary).contains("## 4.9.8 line: hotpath491, hotpath498 vs upstream498\n\n"
            + "| benchmark | parameters | method | ns/op | ± error | B/op | speed-up vs upstream498 | B/op vs upstream498 |\n"
            + "|---|---|---|---:|---:|---:|---:|---:|\n"
            + "| SampleParseBenchmark | corpus=large12 | upstream498 | 300.0 | 3.00 (1 %) | 600 | 1.00x | 1.00x |\n"
            + "| SampleParseBenchmark | corpus=large12 | hotpath491 | 150.0 | 30.0 (20 %) **noisy** | 300 | 2.00x | 0.50x |\n");
    }

    @Test
    void givesNoRatioWithoutTheLinesStockInTheSameGroupNorAByteRatioWhenStockAllocatesNothing() {
        assertThat(summary).contains("## 5.3.3 line: hotpath520, hotpath533 vs upstream533\n\n"
            + "| benchmark | parameters | method | ns/op | ± error | B/op | speed-up vs upstream533 | B/op vs upstream533 |\n"
            + "|---|---|---|---:|---:|---:|---:|---:|\n"
            + "| SampleParseBenchmark | corpus=large12 | upstream533 | 200.0 | 2.00 (1 %) | 0 | 1.00x | n/a |\n"
            + "| SampleParseBenchmark | corpus=large12 | hotpath520 | 100.0 | 1.00 (1 %) | 0 | 2.00x | n/a |\n"
            + "| SampleDecodeBenchmark | header=V2 | hotpath533 | 42.0 | 1.00 (2 %) | n/a | n/a (no upstream533 in this run) | n/a |\n");
    }

    @Test
    void listsTheRowsOfNoLineLastWithoutRatios() {
        assertThat(summary).contains("## Rows of no line (no ratios)\n\n"
            + "| benchmark | parameters | method | ns/op | ± error | B/op |\n"
            + "|---|---|---|---:|---:|---:|\n"
            + "| SampleParseBenchmark | corpus=large12 | floorNoScan | 50.0 | 1.00 (2 %) | 96 |\n\n");
        assertThat(summary.indexOf("## 4.9.0")).isLessThan(summary.indexOf("## 4.9.8"));
        assertThat(summary.indexOf("## 4.9.8")).isLessThan(summary.indexOf("## 5.3.3"));
        assertThat(summary.indexOf("## 5.3.3")).isLessThan(summary.indexOf("## 5.5.1"));
        assertThat(summary.indexOf("## 5.5.1")).isLessThan(summary.indexOf("## Rows of no line"));
    }

    @Test
    void comparesADropInTwoLinesShareWithEachLinesOwnStock() {
        // hotpath520 and hotpath533 are the 5.3.3 line's and the 5.5.1 line's: one row each, in both tables (5.3.3's above)
        assertThat(summary).contains("## 5.5.1 line: hotpath520, hotpath533 vs upstream551\n\n"
            + "| benchmark | parameters | method | ns/op | ± error | B/op | speed-up vs upstream551 | B/op vs upstream551 |\n"
            + "|---|---|---|---:|---:|---:|---:|---:|\n"
            + "| SampleParseBenchmark | corpus=large12 | upstream551 | 250.0 | n/a | 644 (forks 600...688) | 1.00x | 1.00x |\n"
            + "| SampleParseBenchmark | corpus=large12 | hotpath520 | 100.0 | 1.00 (1 %) | 0 | 2.50x | 0.00x |\n"
            + "| SampleDecodeBenchmark | header=V2 | upstream551 | 84.0 | 2.00 (2 %) | n/a | 1.00x | n/a |\n"
            + "| SampleDecodeBenchmark | header=V2 | hotpath533 | 42.0 | 1.00 (2 %) | n/a | 2.00x | n/a |\n");
    }

    @Test
    void marksAnErrorAboveTenPercentOnlyNotOneOfExactlyTen() {
        assertThat(SummaryWriter.noisy(row(100.0, "10.0"))).isFalse();
        assertThat(SummaryWriter.noisy(row(100.0, "10.1"))).isTrue();
        assertThat(SummaryWriter.noisy(row(100.0, "\"NaN\""))).isFalse();
    }

    @Test
    void countsThroughputAsFasterWhenHigher() {
        assertThat(SummaryWriter.speedUp("thrpt", 10.0, 40.0)).isEqualTo(4.0);
        assertThat(SummaryWriter.speedUp("avgt", 40.0, 10.0)).isEqualTo(4.0);
        assertThat(SummaryWriter.speedUp("sample", 40.0, 10.0)).isEqualTo(4.0);
    }

    @Test
    void flagsABusyMachine() {
        SummaryWriter.RunContext busy = new SummaryWriter.RunContext();
        busy.cpus = 2;
        busy.idleBeforePercent = 40.0;
        busy.othersDuringPercent = 55.0;
        assertThat(SummaryWriter.machine(busy)).endsWith("**NOT quiet: absolute numbers are inflated, ratios noisy**");
    }

    private static JsonObject row(double score, String error) {
        return JsonParser.parseString("{\"primaryMetric\": {\"score\": " + score + ", \"scoreError\": " + error + "}}")
            .getAsJsonObject();
    }

    private static String canned() throws IOException {
        try (InputStream in = SummaryWriterTest.class.getResourceAsStream("canned-lines-result.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
