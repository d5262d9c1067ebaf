package io.hotpath.e2e.measure;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.LoadProducer;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.spec.ClusterLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks the load window of a run: writes {@code <runDir>/load.started} and {@code <runDir>/load.finished}
 * (each holding the wall-clock instant, for tools that sample the brokers meanwhile, e.g. profiling), and
 * takes a {@link ProcessCpuTimes} snapshot of every broker and of this JVM (the load generator) at both
 * edges, so CPU per message covers exactly the sends; of the masters also every thread's
 * ({@link ThreadCpuTimes}), for their CPU per thread group.
 */
public final class LoadWindowRecorder implements LoadProducer.LoadWindow {

    /** Key of this JVM (the load generator) in the CPU maps. */
    public static final String LOAD_GENERATOR = "load-generator";

    private final LocalCluster cluster;
    private final Path runDir;
    private final Map<String, ProcessCpuTimes> atStart = new LinkedHashMap<>();
    private final Map<String, ProcessCpuTimes> atEnd = new LinkedHashMap<>();
    private final Map<String, Long> pidAtStart = new LinkedHashMap<>();
    private final Map<String, Long> pidAtEnd = new LinkedHashMap<>();
    private final Map<String, ThreadCpuTimes> threadsAtStart = new LinkedHashMap<>();
    private final Map<String, ThreadCpuTimes> threadsAtEnd = new LinkedHashMap<>();
    private Instant start;
    private Instant end;
    private long machineBusyAtStart;
    private long machineBusyAtEnd;

    public LoadWindowRecorder(LocalCluster cluster, Path runDir) {
        this.cluster = cluster;
        this.runDir = runDir;
    }

    @Override
    public synchronized void started() {
        start = Instant.now();
        machineBusyAtStart = machineBusyMicros();
        sample(atStart, pidAtStart, threadsAtStart);
        mark("load.started", start);
    }

    @Override
    public synchronized void finished() {
        end = Instant.now();
        sample(atEnd, pidAtEnd, threadsAtEnd);
        machineBusyAtEnd = machineBusyMicros();
        mark("load.finished", end);
    }

    public synchronized Instant start() {
        return start;
    }

    public synchronized Instant end() {
        return end;
    }

    /**
     * CPU used during the window by each broker and the load generator; a broker that died or was
     * restarted in the window (fault scenarios) is left out, since its counters went with it.
     */
    public synchronized Map<String, ProcessCpuTimes> cpuInWindow() {
        Map<String, ProcessCpuTimes> used = new LinkedHashMap<>();
        atStart.forEach((node, before) -> {
            ProcessCpuTimes after = atEnd.get(node);
            if (after != null && pidAtStart.get(node).equals(pidAtEnd.get(node))) {
                used.put(node, after.minus(before));
            }
        });
        return used;
    }

    /** The masters' CPU per thread group during the window, those left out of {@link #cpuInWindow()} left out here too. */
    public synchronized Map<String, ThreadGroupCpu> masterThreadCpuInWindow() {
        Map<String, ThreadGroupCpu> used = new LinkedHashMap<>();
        threadsAtStart.forEach((node, before) -> {
            ThreadCpuTimes after = threadsAtEnd.get(node);
            if (after != null && pidAtStart.get(node).equals(pidAtEnd.get(node))) {
                used.put(node, after.since(before));
            }
        });
        return used;
    }

    /** CPU the whole machine spent outside idle and iowait in the window (all cores), from /proc/stat. */
    public synchronized long machineBusyMicrosInWindow() {
        return machineBusyAtStart < 0 || machineBusyAtEnd < 0 ? -1 : machineBusyAtEnd - machineBusyAtStart;
    }

    /** user+nice+system+irq+softirq+steal of the "cpu" line, in ticks of 10 ms; -1 when unreadable. */
    private static long machineBusyMicros() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy * 10_000;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private void sample(Map<String, ProcessCpuTimes> into, Map<String, Long> pids, Map<String, ThreadCpuTimes> threads) {
        List<ClusterLayout.Node> nodes = new ArrayList<>(cluster.layout().brokers());
        nodes.add(cluster.layout().namesrv());
        for (ClusterLayout.Node broker : nodes) {
            try {
                long pid = cluster.process(broker.name()).pid();
                if (broker.isMaster()) {
                    // one reading for a master's process figure and its threads': the groups are checked against it
                    ThreadCpuTimes snapshot = ThreadCpuTimes.of(pid);
                    threads.put(broker.name(), snapshot);
                    into.put(broker.name(), snapshot.process());
                } else {
                    into.put(broker.name(), ProcessCpuTimes.of(pid));
                }
                pids.put(broker.name(), pid);
            } catch (RuntimeException e) {
                // killed by a fault scenario: no figure rather than a wrong one
                into.remove(broker.name());
                threads.remove(broker.name());
            }
        }
        into.put(LOAD_GENERATOR, ProcessCpuTimes.self());
        pids.put(LOAD_GENERATOR, ProcessHandle.current().pid());
    }

    private void mark(String name, Instant at) {
        try {
            Files.writeString(runDir.resolve(name), at + "\n");
        } catch (IOException e) {
            Console.warn("cannot write " + runDir.resolve(name) + ": " + e.getMessage());
        }
    }
}
