package io.hotpath.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hotpath.e2e.check.CommitLogScan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * Other processes' CPU is reported as measured: a negative figure stays negative and says the accounting does not add up,
 * and "not measured" is kept apart from every measured value (issue 37: every 4.9.8 round read exactly 0.00).
 */
class OtherCpuTest {

    /** A 40 s window on 2 CPUs: 80 CPU-s. */
    private static final long CAPACITY = 80_000_000L;

    private static OtherCpu measured(long busyMicros, long ourMicros) {
        return new OtherCpu(null, 2, CAPACITY, busyMicros, busyMicros, 0, ourMicros, 6);
    }

    private static JsonObject json(OtherCpu other) {
        RunMetrics metrics = new RunMetrics(40, 1000, new ProcessCpuTimes(1, 0), new ProcessCpuTimes(1, 0), new ProcessCpuTimes(1, 0),
                other, 1000, 0, 0, 0, new CommitLogScan.TopicBytes(0, 0, 0, 0), null);
        StringJoiner fields = new StringJoiner(", ", "{", "}");
        metrics.addJsonFields(fields);
        return JsonParser.parseString(fields.toString()).getAsJsonObject();
    }

    @Test
    void aNegativeFigureStaysNegativeAndTheWindowIsNotKnownToBeQuiet() {
        // ours 53.3 CPU-s on a machine busy 50.0: as the tick-sampled /proc/stat fields read a 4.9.8 round
        OtherCpu other = measured(50_000_000L, 53_300_000L);

        assertThat(other.micros()).isEqualTo(-3_300_000L);
        assertThat(other.doesNotAddUp()).isTrue();
        assertThat(other.load()).isEqualTo(RunMetrics.MachineLoad.UNKNOWN);
        assertThat(other.describe()).startsWith("-3.30 s").contains("NEGATIVE").contains("the accounting does not add up");
        JsonObject json = json(other);
        assertThat(json.get("otherCpuSeconds").getAsDouble()).isEqualTo(-3.3);
        assertThat(json.get("otherCpuDoesNotAddUp").getAsBoolean()).isTrue();
        assertThat(json.get("machine").getAsString()).isEqualTo("unknown");
    }

    @Test
    void aNegativeFigureWithinTheCountersRoundingIsQuietAndStillShownAsMeasured() {
        OtherCpu other = measured(50_000_000L, 50_100_000L);

        assertThat(other.toleranceMicros()).isGreaterThan(100_000L);
        assertThat(other.doesNotAddUp()).isFalse();
        assertThat(other.load()).isEqualTo(RunMetrics.MachineLoad.QUIET);
        assertThat(json(other).get("otherCpuSeconds").getAsDouble()).isEqualTo(-0.1);
    }

    @Test
    void notMeasuredIsNeitherZeroNorAnyOtherFigure() {
        OtherCpu other = OtherCpu.notMeasured("broker-a-s killed or restarted in the window");

        assertThat(other.measured()).isFalse();
        assertThat(other.load()).isEqualTo(RunMetrics.MachineLoad.UNKNOWN);
        assertThatThrownBy(other::micros).hasMessageContaining("broker-a-s killed");
        assertThat(other.describe()).contains("not measured (broker-a-s killed or restarted in the window)");
        JsonObject json = json(other);
        assertThat(json.get("otherCpuSeconds").isJsonNull()).isTrue();
        assertThat(json.get("otherCpuNotMeasured").getAsString()).contains("broker-a-s");
        assertThat(json.get("machine").getAsString()).isEqualTo("unknown");
    }

    @Test
    void aMeasuredZeroIsQuietAndAFigureAboveFivePercentOfTheMachineIsBusy() {
        assertThat(measured(30_000_000L, 30_000_000L).load()).isEqualTo(RunMetrics.MachineLoad.QUIET);
        assertThat(json(measured(30_000_000L, 30_000_000L)).get("otherCpuSeconds").getAsDouble()).isZero();
        assertThat(measured(30_000_000L + 4_000_000L, 30_000_000L).load()).isEqualTo(RunMetrics.MachineLoad.QUIET);
        assertThat(measured(30_000_000L + 4_100_000L, 30_000_000L).load()).isEqualTo(RunMetrics.MachineLoad.BUSY);
    }

    @Test
    void theMachinesBusyTimeIsWallTimeOnEveryCpuLessIdleAndIowaitNotTheTickSampledFields() {
        // two readings 40 s apart on 2 CPUs: idle 28 s, iowait 0.5 s, so busy 51.5 s; the tick-sampled busy fields say 47 s
        MachineCpuTimes start = MachineCpuTimes.parse(List.of(
                "cpu  1000 0 500 8000 100 0 10 20 0 0", "cpu0 500 0 250 4000 50 0 5 10 0 0", "cpu1 500 0 250 4000 50 0 5 10 0 0"),
                1_000_000_000L);
        MachineCpuTimes end = MachineCpuTimes.parse(List.of(
                "cpu  3500 0 2600 10800 150 0 60 70 0 0", "cpu0 1750 0 1300 5400 75 0 30 35 0 0", "cpu1 1750 0 1300 5400 75 0 30 35 0 0"),
                41_000_000_000L);

        OtherCpu other = OtherCpu.between(start, end, 50_000_000L, 6);

        assertThat(other.cpus()).isEqualTo(2);
        assertThat(other.capacityMicros()).isEqualTo(80_000_000L);
        assertThat(other.busyMicros()).isEqualTo(51_500_000L);
        assertThat(other.tickBusyMicros()).isEqualTo(47_000_000L);
        assertThat(other.stealMicros()).isEqualTo(500_000L);
        assertThat(other.micros()).isEqualTo(1_500_000L);
        assertThat(other.load()).isEqualTo(RunMetrics.MachineLoad.QUIET);
    }

    @Test
    void withEveryTasksRunTimeStealIsNoProcesssCpuAndAnIdleClusterUnderHeavyStealIsQuiet() throws IOException {
        // an idle 5.5.1 round's counters (60 s on 2 CPUs): our six processes 24.07 CPU-s, the idle clocks' complement
        // 34.89 CPU-s of which 16.96 s steal; every task's run time 24.50 CPU-s
        Path dir = Files.createTempDirectory(
                Files.createDirectories(Path.of("target")), "cpuacct-");
        Path stat = dir.resolve("stat");
        Path usage = dir.resolve("cpuacct.usage");
        Files.writeString(stat, "cpu  1000 0 500 8000 0 0 0 1000 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n");
        Files.writeString(usage, "100000000000\n");
        MachineCpuTimes start = MachineCpuTimes.read(stat, usage, 0);
        Files.writeString(stat, "cpu  2900 0 800 16511 0 0 0 2696 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n");
        Files.writeString(usage, "124500000000\n");
        MachineCpuTimes end = MachineCpuTimes.read(stat, usage, 60_000_000_000L);

        OtherCpu other = OtherCpu.between(start, end, 24_070_000L, 6);
        assertThat(other.busySource()).isEqualTo(OtherCpu.TASK_TIME);
        assertThat(other.busyMicros()).isEqualTo(24_500_000L);
        assertThat(other.stealMicros()).isEqualTo(16_960_000L);
        assertThat(other.micros()).isEqualTo(430_000L);
        assertThat(other.load()).isEqualTo(RunMetrics.MachineLoad.QUIET);
        assertThat(other.describe()).contains("steal 16.96 s, not counted").endsWith(": quiet");

        // control: the same window read without the task time counts the steal as another process's CPU
        Files.delete(usage);
        OtherCpu withoutTasks = OtherCpu.between(start, MachineCpuTimes.read(stat, usage, 60_000_000_000L), 24_070_000L, 6);
        assertThat(withoutTasks.busySource()).isEqualTo(OtherCpu.IDLE_CLOCKS);
        assertThat(withoutTasks.busyMicros()).isEqualTo(120_000_000L - 85_110_000L);
        assertThat(withoutTasks.load()).isEqualTo(RunMetrics.MachineLoad.BUSY);

        // and a real other process still shows in the task time
        assertThat(OtherCpu.between(start, end, 24_070_000L - 6_100_000L, 6).load()).isEqualTo(RunMetrics.MachineLoad.BUSY);
    }
}
