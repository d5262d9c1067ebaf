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
import java.util.function.LongSupplier;

/**
 * Marks the load window of a run: writes {@code <runDir>/load.started} and {@code <runDir>/load.finished}
 * (each holding the wall-clock instant, for tools that sample the brokers meanwhile, e.g. profiling), and
 * takes a {@link ProcessCpuTimes} snapshot of every broker and of this JVM (the load generator) at both
 * edges, so CPU per message covers exactly the sends; of the masters also every thread's
 * ({@link ThreadCpuTimes}), for their CPU per thread group; and the whole machine's ({@link MachineCpuTimes}), for the
 * CPU of every other process ({@link OtherCpu}). It watches any processes by PID ({@link Watched}): a cluster's nodes,
 * or in a test a process it started.
 */
public final class LoadWindowRecorder implements LoadProducer.LoadWindow {

    /** Key of this JVM (the load generator) in the CPU maps. */
    public static final String LOAD_GENERATOR = "load-generator";

    /**
     * A process the window measures: its node name, whether it is a master (its threads are read too), and its PID now;
     * the supplier throws when the process is not running (killed by a fault), and the node then has no figure.
     */
    public record Watched(String name, boolean master, LongSupplier pid) {
    }

    private final List<Watched> processes;
    private final Path runDir;
    private final Map<String, ProcessCpuTimes> atStart = new LinkedHashMap<>();
    private final Map<String, ProcessCpuTimes> atEnd = new LinkedHashMap<>();
    private final Map<String, Long> pidAtStart = new LinkedHashMap<>();
    private final Map<String, Long> pidAtEnd = new LinkedHashMap<>();
    private final Map<String, ThreadCpuTimes> threadsAtStart = new LinkedHashMap<>();
    private final Map<String, ThreadCpuTimes> threadsAtEnd = new LinkedHashMap<>();
    private Instant start;
    private Instant end;
    private MachineCpuTimes machineAtStart;
    private MachineCpuTimes machineAtEnd;
    private String machineUnreadable;

    /** Every broker and the name server of {@code cluster}, and this JVM. */
    public LoadWindowRecorder(LocalCluster cluster, Path runDir) {
        this(watched(cluster), runDir);
    }

    /** {@code processes} and this JVM ({@link #LOAD_GENERATOR}). */
    public LoadWindowRecorder(List<Watched> processes, Path runDir) {
        this.processes = List.copyOf(processes);
        this.runDir = runDir;
    }

    private static List<Watched> watched(LocalCluster cluster) {
        List<ClusterLayout.Node> nodes = new ArrayList<>(cluster.layout().brokers());
        nodes.add(cluster.layout().namesrv());
        return nodes.stream().map(node -> new Watched(node.name(), node.isMaster(), () -> cluster.process(node.name()).pid())).toList();
    }

    @Override
    public synchronized void started() {
        start = Instant.now();
        machineAtStart = machine();
        sample(atStart, pidAtStart, threadsAtStart);
        mark("load.started", start);
    }

    @Override
    public synchronized void finished() {
        end = Instant.now();
        sample(atEnd, pidAtEnd, threadsAtEnd);
        machineAtEnd = machine();
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

    /**
     * CPU that processes other than the watched ones and this JVM used in the window; not measured when a watched
     * process has no figure at either edge or changed its PID (killed or restarted), or /proc/stat could not be read.
     */
    public synchronized OtherCpu otherCpuInWindow() {
        if (machineUnreadable != null) {
            return OtherCpu.notMeasured(machineUnreadable);
        }
        if (machineAtStart == null || machineAtEnd == null) {
            return OtherCpu.notMeasured("the load window was not closed");
        }
        Map<String, ProcessCpuTimes> cpu = cpuInWindow();
        List<String> missing = new ArrayList<>();
        for (Watched process : processes) {
            if (!cpu.containsKey(process.name())) {
                missing.add(process.name());
            }
        }
        if (!missing.isEmpty()) {
            return OtherCpu.notMeasured(String.join(", ", missing) + " killed or restarted in the window");
        }
        long ours = cpu.values().stream().mapToLong(ProcessCpuTimes::totalMicros).sum();
        return OtherCpu.between(machineAtStart, machineAtEnd, ours, cpu.size());
    }

    private MachineCpuTimes machine() {
        try {
            return MachineCpuTimes.now();
        } catch (RuntimeException e) {
            machineUnreadable = e.getMessage();
            return null;
        }
    }

    private void sample(Map<String, ProcessCpuTimes> into, Map<String, Long> pids, Map<String, ThreadCpuTimes> threads) {
        for (Watched broker : processes) {
            try {
                long pid = broker.pid().getAsLong();
                if (broker.master()) {
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
