package io.hotpath.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.gson.Gson;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCpuTimesTest {

    private static final long TICK = 10_000;

    /** A task stat line as the kernel writes it: utime and stime are fields 14 and 15. */
    private static String stat(long tid, String name, long utimeTicks, long stimeTicks) {
        return tid + " (" + name + ") S 1 4242 4242 0 -1 4194560 1000 0 0 0 " + utimeTicks + " " + stimeTicks + " 0 0 20 0 40 0 100 0 0";
    }

    private static ThreadCpuTimes snapshot(long processUserTicks, long processSystemTicks, Object... tasks) {
        Map<Long, ThreadCpuTimes.Task> byTid = new TreeMap<>();
        for (int i = 0; i < tasks.length; i += 4) {
            long tid = ((Number) tasks[i]).longValue();
            byTid.put(tid, ThreadCpuTimes.parse(stat(tid, (String) tasks[i + 1], ((Number) tasks[i + 2]).longValue(),
                    ((Number) tasks[i + 3]).longValue())));
        }
        return new ThreadCpuTimes(new ProcessCpuTimes(processUserTicks * TICK, processSystemTicks * TICK), byTid);
    }

    @Test
    void readsTheThreadNameBetweenTheFirstOpeningAndTheLastClosingParenthesis() {
        assertThat(ThreadCpuTimes.parse(stat(4243, "G1 Conc#0", 12, 3)))
                .isEqualTo(new ThreadCpuTimes.Task("G1 Conc#0", new ProcessCpuTimes(12 * TICK, 3 * TICK)));
        assertThat(ThreadCpuTimes.parse(stat(4244, "a (b) c) d", 7, 1)))
                .isEqualTo(new ThreadCpuTimes.Task("a (b) c) d", new ProcessCpuTimes(7 * TICK, TICK)));
        assertThat(ThreadCpuTimes.parse(stat(4245, "", 0, 0)).name()).isEmpty();
    }

    private static String status(long voluntary, long involuntary) {
        return "Name:\tx\nvoluntary_ctxt_switches:\t" + voluntary + "\nnonvoluntary_ctxt_switches:\t" + involuntary + "\n";
    }

    @Test
    void aGroupsContextSwitchesAreItsThreadsDifferencesAndARecycledTidCountsFromZero() {
        Map<Long, ThreadCpuTimes.Task> before = new TreeMap<>();
        before.put(2L, ThreadCpuTimes.parse(stat(2, "SendMessageThread_1", 300, 30), status(1000, 10)));
        before.put(3L, ThreadCpuTimes.parse(stat(3, "SendMessageThread_2", 300, 30), status(2000, 20)));
        before.put(4L, ThreadCpuTimes.parse(stat(4, "NettyServerCodecThread_1", 100, 10), status(5000, 50)));
        Map<Long, ThreadCpuTimes.Task> after = new TreeMap<>();
        after.put(2L, ThreadCpuTimes.parse(stat(2, "SendMessageThread_1", 310, 31), status(1400, 12)));
        after.put(3L, ThreadCpuTimes.parse(stat(3, "SendMessageThread_2", 320, 32), status(2600, 25)));
        // the kernel gave TID 4 to a new thread: its switch counters are below the old one's, so it counts from 0
        after.put(4L, ThreadCpuTimes.parse(stat(4, "NettyServerCodecThread_1", 120, 12), status(30, 1)));

        ThreadGroupCpu used = new ThreadCpuTimes(new ProcessCpuTimes(0, 0), after)
                .since(new ThreadCpuTimes(new ProcessCpuTimes(0, 0), before));

        assertThat(used.groups()).extracting(ThreadGroupCpu.Group::name, ThreadGroupCpu.Group::switches).containsExactlyInAnyOrder(
                tuple("SendMessageThread", new ContextSwitches(1000, 7)),
                tuple("NettyServerCodecThread", new ContextSwitches(30, 1)));
        assertThat(used.switches()).isEqualTo(new ContextSwitches(1030, 8));
        assertThat(used.switchesPerMessage(10)).containsExactly(Map.entry("SendMessageThread", 100.7),
                Map.entry("NettyServerCodecThread", 3.1));
    }

    @Test
    void aLiveSnapshotReadsAThreadsContextSwitches() throws Exception {
        CountDownLatch slept = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            try {
                for (int i = 0; i < 20; i++) {
                    Thread.sleep(1);
                }
                slept.countDown();
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hotpath-sleeper");
        sleeper.start();
        slept.await();
        try {
            ThreadCpuTimes now = ThreadCpuTimes.of(ProcessHandle.current().pid());

            // each sleep blocked the thread once: at least 20 voluntary switches, read from its status file
            assertThat(now.tasks().values()).filteredOn(t -> t.name().equals("hotpath-sleeper")).singleElement()
                    .satisfies(t -> assertThat(t.switches().voluntary()).isGreaterThanOrEqualTo(20));
        } finally {
            done.countDown();
            sleeper.join();
        }
    }

    @Test
    void groupsThreadsByTheirNameWithoutTheTrailingCounter() {
        assertThat(ThreadCpuTimes.group("SendMessageThre")).isEqualTo("SendMessageThre");
        assertThat(ThreadCpuTimes.group("G1 Conc#0")).isEqualTo("G1 Conc");
        assertThat(ThreadCpuTimes.group("GC Thread#12")).isEqualTo("GC Thread");
        assertThat(ThreadCpuTimes.group("NettyServerCodecThread_7")).isEqualTo("NettyServerCodecThread");
        assertThat(ThreadCpuTimes.group("pool-1-thread-3")).isEqualTo("pool-1-thread");
        assertThat(ThreadCpuTimes.group("Thread-5")).isEqualTo("Thread");
        assertThat(ThreadCpuTimes.group("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
        assertThat(ThreadCpuTimes.group("VM Thread")).isEqualTo("VM Thread");
        assertThat(ThreadCpuTimes.group("4711")).isEqualTo("4711");
    }

    @Test
    void aThreadBornInTheWindowCountsFromZeroAndOneThatEndedOnlyInTheProcessFigure() {
        ThreadCpuTimes start = snapshot(1000, 100,
                1, "java", 600, 60,
                2, "SendMessageThre", 300, 30,
                3, "HAClient", 100, 10);
        ThreadCpuTimes end = snapshot(1500, 150,
                1, "java", 700, 70,
                2, "SendMessageThre", 420, 40,
                4, "SendMessageThre", 50, 5);

        ThreadGroupCpu window = end.since(start);

        assertThat(window.groups()).containsExactly(
                new ThreadGroupCpu.Group("SendMessageThre", 2, new ProcessCpuTimes((120 + 50) * TICK, (10 + 5) * TICK)),
                new ThreadGroupCpu.Group("java", 1, new ProcessCpuTimes(100 * TICK, 10 * TICK)));
        assertThat(window.threads()).isEqualTo(3);
        assertThat(window.exitedThreads()).isEqualTo(1);
        assertThat(window.process()).isEqualTo(new ProcessCpuTimes(500 * TICK, 50 * TICK));
        // HAClient's last CPU before it ended, and whatever it used in the window, is in the process figure only
        assertThat(window.exitedMicros()).isEqualTo((550 - 185 - 110) * TICK);
        assertThat(window.accountedToTheTick()).isFalse();
    }

    @Test
    void aTidGivenToANewThreadCountsTheNewThreadFromZero() {
        ThreadCpuTimes start = snapshot(900, 0, 7, "old-pool-1", 800, 0);
        ThreadCpuTimes end = snapshot(1000, 0, 7, "new-pool-1", 90, 0);

        assertThat(end.since(start).groups()).containsExactly(new ThreadGroupCpu.Group("new-pool", 1, new ProcessCpuTimes(90 * TICK, 0)));
    }

    @Test
    void groupsAddUpToTheProcessWithinATickPerThread() {
        ThreadCpuTimes start = snapshot(100, 10, 1, "a", 50, 5, 2, "b", 50, 5);
        // the process's own counter moved 3 ticks more than its two threads': within 3 ticks (2 threads + the process)
        ThreadCpuTimes within = snapshot(163, 10, 1, "a", 80, 5, 2, "b", 80, 5);
        ThreadCpuTimes beyond = snapshot(164, 10, 1, "a", 80, 5, 2, "b", 80, 5);
        ThreadCpuTimes above = snapshot(156, 10, 1, "a", 80, 5, 2, "b", 80, 5);

        assertThat(within.since(start).accountedToTheTick()).isTrue();
        assertThat(beyond.since(start).accountedToTheTick()).isFalse();
        assertThat(beyond.since(start).exitedMicros()).isEqualTo(4 * TICK);
        assertThat(above.since(start).exitedMicros()).isEqualTo(-4 * TICK);
        assertThat(above.since(start).accountedToTheTick()).isFalse();
    }

    @Test
    void bothMastersAddUpGroupByGroupAndSmallGroupsFoldIntoOther() {
        ThreadGroupCpu a = new ThreadGroupCpu(new ProcessCpuTimes(1000, 0), List.of(
                new ThreadGroupCpu.Group("SendMessageThre", 16, new ProcessCpuTimes(700, 0)),
                new ThreadGroupCpu.Group("VM Thread", 1, new ProcessCpuTimes(10, 0))), 17, 0);
        ThreadGroupCpu b = new ThreadGroupCpu(new ProcessCpuTimes(1000, 0), List.of(
                new ThreadGroupCpu.Group("SendMessageThre", 16, new ProcessCpuTimes(600, 100)),
                new ThreadGroupCpu.Group("NettyServerCode", 8, new ProcessCpuTimes(200, 0)),
                new ThreadGroupCpu.Group("VM Thread", 1, new ProcessCpuTimes(20, 0))), 25, 1);

        ThreadGroupCpu both = a.plus(b);

        assertThat(both.groups()).extracting(ThreadGroupCpu.Group::name).containsExactly("SendMessageThre", "NettyServerCode", "VM Thread");
        assertThat(both.groups().get(0)).isEqualTo(new ThreadGroupCpu.Group("SendMessageThre", 32, new ProcessCpuTimes(1300, 100)));
        assertThat(both.threads()).isEqualTo(42);
        assertThat(both.exitedThreads()).isEqualTo(1);
        assertThat(both.largest(0.02)).containsExactly(Map.entry("SendMessageThre", 1400L), Map.entry("NettyServerCode", 200L),
                Map.entry(ThreadGroupCpu.OTHER, 30L), Map.entry(ThreadGroupCpu.EXITED, 370L));
        assertThat(both.perMessage(10)).containsEntry("VM Thread", 3.0).containsEntry(ThreadGroupCpu.EXITED, 37.0);
    }

    @Test
    void smokeResultJsonReadsBackAsTheSameRecord() {
        ThreadGroupCpu figures = new ThreadGroupCpu(new ProcessCpuTimes(1000, 50), List.of(
                new ThreadGroupCpu.Group("G1 Conc", 2, new ProcessCpuTimes(300, 20))), 2, 0);

        assertThat(new Gson().fromJson(new Gson().toJson(figures), ThreadGroupCpu.class)).isEqualTo(figures);
    }

    @Test
    void findsThisJvmsBusyThreadInItsGroup() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        long[] sink = new long[1];
        Thread probe = new Thread(() -> {
            while (mx.getCurrentThreadCpuTime() < 300_000_000L) {
                sink[0] += System.nanoTime() % 7;
            }
            spun.countDown();
            try {
                measured.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hotpath-probe-1");
        long pid = ProcessHandle.current().pid();
        ThreadCpuTimes start = ThreadCpuTimes.of(pid);
        probe.start();
        spun.await();
        ThreadCpuTimes end = ThreadCpuTimes.of(pid);
        measured.countDown();
        probe.join();

        ThreadGroupCpu window = end.since(start);
        long probeMicros = window.groups().stream().filter(g -> g.name().equals("hotpath-probe"))
                .mapToLong(g -> g.cpu().totalMicros()).sum();
        assertThat(probeMicros).isBetween(280_000L, 1_000_000L);
        // the groups never hold more than the process, beyond tick rounding
        assertThat(window.exitedMicros()).isGreaterThanOrEqualTo(-window.toleranceMicros());
        assertThat(sink[0]).isNotNegative();
    }
}
