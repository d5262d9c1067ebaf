package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.hotpath.e2e.measure.ClusterCpuSnapshot;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The idle window's arithmetic on a /proc-like tree written under target/: two readings 60 s apart of a name server, two
 * masters, two slaves and the controller, each thread's utime/stime in ticks of 10 ms and its context switches.
 */
class IdleFiguresTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Map<String, Long> PIDS = new LinkedHashMap<>();
    private static final Map<String, String> ROLES = new LinkedHashMap<>();

    static {
        PIDS.put("namesrv", 10L);
        PIDS.put("broker-a-master", 11L);
        PIDS.put("broker-b-master", 12L);
        PIDS.put("broker-a-slave", 13L);
        PIDS.put("broker-b-slave", 14L);
        PIDS.put("controller", 15L);
        ROLES.put("namesrv", IdleFigures.NAMESRV);
        ROLES.put("broker-a-master", IdleFigures.MASTER);
        ROLES.put("broker-b-master", IdleFigures.MASTER);
        ROLES.put("broker-a-slave", IdleFigures.SLAVE);
        ROLES.put("broker-b-slave", IdleFigures.SLAVE);
        ROLES.put("controller", IdleFigures.CONTROLLER);
    }

    private Path proc;

    @BeforeEach
    void freshTree() throws IOException {
        Files.createDirectories(Path.of("target"));
        proc = Files.createTempDirectory(Path.of("target"), "proc-fixture-");
    }

    /** /proc/stat of a 2-core machine: user nice system idle iowait irq softirq steal, in ticks. */
    private void machine(long idleTicks) throws IOException {
        Files.writeString(proc.resolve("stat"), "cpu  1000 0 500 " + idleTicks + " 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\n"
                + "cpu1 1 0 1 1 0 0 0 0 0 0\nintr 0\n");
    }

    /** A process's stat and its threads': {@code threads} as name, utime, stime, voluntary, involuntary (ticks, counts). */
    private void process(long pid, Object... threads) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        long user = 0;
        long system = 0;
        for (int i = 0; i < threads.length; i += 5) {
            long tid = pid * 100 + i / 5;
            long utime = ((Number) threads[i + 1]).longValue();
            long stime = ((Number) threads[i + 2]).longValue();
            user += utime;
            system += stime;
            Path task = Files.createDirectories(dir.resolve("task").resolve(Long.toString(tid)));
            Files.writeString(task.resolve("stat"), stat(tid, (String) threads[i], utime, stime));
            Files.writeString(task.resolve("status"), "Name:\tx\nvoluntary_ctxt_switches:\t" + threads[i + 3]
                    + "\nnonvoluntary_ctxt_switches:\t" + threads[i + 4] + "\n");
        }
        Files.writeString(dir.resolve("stat"), stat(pid, "java", user, system));
    }

    private static String stat(long id, String name, long utime, long stime) {
        return id + " (" + name + ") S 1 1 1 0 -1 4194560 1000 0 0 0 " + utime + " " + stime + " 0 0 20 0 40 0 100 0 0";
    }

    /** Every process at the start: each broker thread has run a while, so only the differences may count. */
    private void start() throws IOException {
        machine(100_000);
        process(10, "NSScheduledThread1", 50, 50, 1000, 10);
        for (long master : new long[] {11, 12}) {
            process(master, "ReputMessageSer", 900, 300, 90_000, 100, "TimerFlushServi", 700, 100, 6_000, 50,
                    "C2 CompilerThre", 5_000, 100, 2_000, 200, "SendMessageThre", 10, 0, 20, 0, "SendMessageThre", 10, 0, 20, 0);
        }
        for (long slave : new long[] {13, 14}) {
            process(slave, "ReputMessageSer", 800, 200, 80_000, 80, "HAClient", 100, 100, 3_000, 5);
        }
        process(15, "main", 300, 20, 50, 5);
    }

    /**
     * 60 s later: masters 66.7 ms/s each of which Reput 35 (1 000 wake-ups/s), slaves 20 ms/s, the name server and the
     * controller 1 ms/s; {@code otherTicks} of another process's CPU besides our 1 052 ticks.
     */
    private void end(long otherTicks) throws IOException {
        // 2 CPUs x 60 s = 12 000 ticks of capacity; what no one used was idle
        machine(100_000 + 12_000 - 1_052 - otherTicks);
        process(10, "NSScheduledThread1", 53, 53, 1060, 10);
        process(11, "ReputMessageSer", 900 + 150, 300 + 30, 150_000, 100, "TimerFlushServi", 700 + 120, 100 + 60, 6_060, 50,
                "C2 CompilerThre", 5_000 + 6, 100, 2_006, 200, "SendMessageThre", 10 + 10, 0 + 2, 40, 0, "SendMessageThre",
                10 + 2, 0, 20 + 4, 0);
        process(12, "ReputMessageSer", 900 + 210, 300 + 30, 150_000, 100, "TimerFlushServi", 700 + 120, 100 + 60, 6_060, 50,
                "C2 CompilerThre", 5_000, 100, 2_000, 200, "SendMessageThre", 10 + 0, 0, 20, 0, "SendMessageThre", 10 + 0, 0,
                20, 0);
        for (long slave : new long[] {13, 14}) {
            process(slave, "ReputMessageSer", 800 + 100, 200 + 20, 80_000 + 6_000, 80, "HAClient", 100, 100, 3_000 + 600, 5);
        }
        process(15, "main", 300 + 6, 20, 50 + 60, 5);
    }

    private IdleFigures figures() throws IOException {
        return figures(30);
    }

    private IdleFigures figures(long otherTicks) throws IOException {
        start();
        ClusterCpuSnapshot first = ClusterCpuSnapshot.take(proc, PIDS, 0);
        end(otherTicks);
        ClusterCpuSnapshot last = ClusterCpuSnapshot.take(proc, PIDS, 60 * SECOND);
        return IdleFigures.between(first, last, ROLES);
    }

    @Test
    void eachRoleGetsItsProcessesMeanCpuAndWakeupsPerSecond() throws IOException {
        IdleFigures figures = figures();

        assertThat(figures.seconds()).isEqualTo(60.0);
        assertThat(figures.roles()).containsOnlyKeys(IdleFigures.ROLES);
        // masters: a: 180 + 180 + 6 + 12 + 2 ticks = 3.8 s, b: 240 + 180 = 4.2 s; 8.0 s / 2 / 60 s = 66.67 ms/s
        assertThat(figures.cpu(IdleFigures.MASTER)).isCloseTo(8000.0 / 2 / 60, offset(1e-9));
        // slaves: 120 + 0 ticks each: 20 ms/s
        assertThat(figures.cpu(IdleFigures.SLAVE)).isCloseTo(20.0, offset(1e-9));
        assertThat(figures.cpu(IdleFigures.NAMESRV)).isCloseTo(60.0 / 60, offset(1e-9));
        assertThat(figures.cpu(IdleFigures.CONTROLLER)).isCloseTo(60.0 / 60, offset(1e-9));
        // master wake-ups: a 60 000 + 60 + 6 + 20 + 4, b 60 000 + 60 per 60 s, mean of two
        assertThat(figures.wakeups(IdleFigures.MASTER)).isCloseTo((60_090 + 60_060) / 2.0 / 60, offset(1e-9));
        assertThat(figures.wakeups(IdleFigures.SLAVE)).isCloseTo(6_600 / 60.0, offset(1e-9));
        IdleFigures.Role masters = figures.roles().get(IdleFigures.MASTER);
        assertThat(masters.userMsPerSecond() + masters.systemMsPerSecond()).isCloseTo(masters.cpuMsPerSecond(), offset(1e-9));
        assertThat(masters.voluntaryPerSecond() + masters.involuntaryPerSecond()).isCloseTo(masters.wakeupsPerSecond(), offset(1e-9));
    }

    @Test
    void threadsOfOnePoolAddUpAsOneGroupLargestFirst() throws IOException {
        IdleFigures.Role masters = figures().roles().get(IdleFigures.MASTER);

        // names as the kernel keeps them, cut to 15 bytes: the two send threads lost their counter, the C2 thread its digit
        assertThat(masters.groups().keySet()).containsExactly("ReputMessageSer", "TimerFlushServi", "SendMessageThre",
                "C2 CompilerThre", ThreadGroupCpu.EXITED);
        // Reput: (180 + 240) ticks = 4.2 s over two masters and 60 s
        assertThat(masters.groups().get("ReputMessageSer").cpuMsPerSecond()).isCloseTo(35.0, offset(1e-9));
        assertThat(masters.groups().get("ReputMessageSer").wakeupsPerSecond()).isCloseTo(1_000.0, offset(1e-9));
        // two send threads: one group of two threads per master
        assertThat(masters.groups().get("SendMessageThre").threads()).isEqualTo(2.0);
        assertThat(masters.groups().get("SendMessageThre").cpuMsPerSecond()).isCloseTo(140.0 / 2 / 60, offset(1e-9));
        assertThat(masters.groups().get(ThreadGroupCpu.EXITED).cpuMsPerSecond()).isCloseTo(0.0, offset(1e-9));
        assertThat(masters.groupWakeups()).doesNotContainKey(ThreadGroupCpu.EXITED);
    }

    @Test
    void theMastersJitShareAndTheOtherProcessesCpuComeFromTheSameReadings() throws IOException {
        IdleFigures figures = figures();

        // 6 ticks of C2 in 800 ticks of the masters' CPU
        assertThat(figures.masterJitShare()).isCloseTo(6.0 / 800, offset(1e-9));
        assertThat(figures.masterJitShare()).isLessThan(RunMetrics.WARM_JIT_SHARE);
        // 0.3 s of another process in 120 CPU-s: quiet
        assertThat(figures.otherCpu().micros()).isEqualTo(300_000L);
        assertThat(figures.otherCpu().load()).isEqualTo(RunMetrics.MachineLoad.QUIET);
        // 10 s of another process (8.3 % of the machine): busy, and the round would not count
        IdleFigures busy = figures(1_000);
        assertThat(busy.otherCpu().micros()).isEqualTo(10_000_000L);
        assertThat(busy.otherCpu().load()).isEqualTo(RunMetrics.MachineLoad.BUSY);
        assertThat(new IdleRound(1, "stock", "5.5.1", "stock", "r1-stock", busy.otherCpu().load().label(), 90, busy)
                .verdictFigures(IdleReport.METRICS).exclusions()).containsExactly("busy machine");
    }
}
