package io.hotpath.e2e.measure;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every watched process's threads ({@link ThreadCpuTimes}: utime, stime and context switches per thread) and the whole
 * machine's counters ({@link MachineCpuTimes}) at one instant. Two of them around a window give each process's CPU and
 * context switches per thread group ({@link #since}) and what other processes used meanwhile ({@link #otherCpuSince}):
 * the idle measurement takes one after its settle time and one after its sample time, with no load in between. The
 * {@code /proc} it reads is a parameter so that tests can read fixtures.
 *
 * @param nanos     {@link System#nanoTime()} of the reading (the machine's counters carry it too)
 * @param processes each process by name (a cluster node's, "controller" for this JVM), in the order given
 */
public record ClusterCpuSnapshot(long nanos, MachineCpuTimes machine, Map<String, ThreadCpuTimes> processes) {

    public static final Path PROC = Path.of("/proc");

    public ClusterCpuSnapshot {
        processes = Collections.unmodifiableMap(new LinkedHashMap<>(processes));
    }

    /** Now, from the real /proc. */
    public static ClusterCpuSnapshot take(Map<String, Long> pids) {
        return take(PROC, pids, System.nanoTime());
    }

    /**
     * {@code pids} (name to PID) read from {@code procRoot} as if at {@code nanos}; the machine line first, then every
     * process. A process that is gone fails the reading ({@code ClusterException}): its counters went with it.
     */
    public static ClusterCpuSnapshot take(Path procRoot, Map<String, Long> pids, long nanos) {
        // the real /proc's machine has the root cgroup's task time; a fixture tree may carry its own cpuacct.usage
        MachineCpuTimes machine = MachineCpuTimes.read(procRoot.resolve("stat"),
                procRoot.equals(PROC) ? MachineCpuTimes.CPUACCT_USAGE : procRoot.resolve("cpuacct.usage"), nanos);
        Map<String, ThreadCpuTimes> processes = new LinkedHashMap<>();
        pids.forEach((name, pid) -> processes.put(name, ThreadCpuTimes.of(procRoot, pid)));
        return new ClusterCpuSnapshot(nanos, machine, processes);
    }

    /** Wall seconds between {@code start} and this reading. */
    public double secondsSince(ClusterCpuSnapshot start) {
        return (nanos - start.nanos) / 1e9;
    }

    /** Each process's CPU and context switches per thread group between {@code start} and this reading. */
    public Map<String, ThreadGroupCpu> since(ClusterCpuSnapshot start) {
        Map<String, ThreadGroupCpu> used = new LinkedHashMap<>();
        processes.forEach((name, now) -> {
            ThreadCpuTimes before = start.processes.get(name);
            if (before != null) {
                used.put(name, now.since(before));
            }
        });
        return used;
    }

    /** What processes other than the watched ones used between {@code start} and this reading ({@link OtherCpu}). */
    public OtherCpu otherCpuSince(ClusterCpuSnapshot start) {
        Map<String, ThreadGroupCpu> used = since(start);
        if (used.size() != processes.size() || used.size() != start.processes.size()) {
            return OtherCpu.notMeasured("the two readings watched different processes");
        }
        long ours = used.values().stream().mapToLong(g -> g.process().totalMicros()).sum();
        return OtherCpu.between(start.machine, machine, ours, used.size());
    }
}
