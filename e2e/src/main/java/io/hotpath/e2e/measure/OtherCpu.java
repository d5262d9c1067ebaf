package io.hotpath.e2e.measure;

import java.util.Locale;

/**
 * CPU that processes other than the cluster's and the load generator's used in a load window: the machine's busy time
 * ({@link MachineCpuTimes#busyMicrosSince}) minus the CPU of every process of ours ({@link ProcessCpuTimes}). Reported
 * as measured, negative included: a negative figure means our processes used more than the machine was busy, i.e. the
 * accounting does not add up (a process counted twice, or counters that do not measure the same thing), and such a
 * window is not known to be quiet. Not measured (a node killed or restarted in the window, /proc/stat unreadable) is
 * kept apart from every measured value.
 *
 * @param notMeasured      why there is no figure; null when measured
 * @param cpus             CPUs of the machine
 * @param capacityMicros   wall time of the window x CPUs
 * @param busyMicros       the machine's busy time ({@link MachineCpuTimes#busyMicrosSince}, {@code busySource} says which)
 * @param tickBusyMicros   the tick-sampled busy fields of /proc/stat, for comparison (see {@link MachineCpuTimes})
 * @param stealMicros      what the hypervisor gave to other guests while this one wanted to run: part of the busy time
 *                         only where {@code busySource} is {@link #IDLE_CLOCKS}
 * @param ourMicros        CPU of the cluster's processes and the load generator
 * @param processes        how many processes {@code ourMicros} adds up
 * @param busySource       {@link #TASK_TIME} or {@link #IDLE_CLOCKS}; null when not measured
 */
public record OtherCpu(String notMeasured, int cpus, long capacityMicros, long busyMicros, long tickBusyMicros, long stealMicros,
                       long ourMicros, int processes, String busySource) {

    /** Busy time is every task's run time (the root cgroup's cpuacct.usage): steal is not in it. */
    public static final String TASK_TIME = "task time (cpuacct)";
    /** Busy time is wall time x CPUs minus the idle clocks: steal is in it. */
    public static final String IDLE_CLOCKS = "wall time less idle and iowait (steal included)";

    /** A figure whose busy time is the idle clocks' complement (fixtures; hosts without cpuacct). */
    public OtherCpu(String notMeasured, int cpus, long capacityMicros, long busyMicros, long tickBusyMicros, long stealMicros,
                    long ourMicros, int processes) {
        this(notMeasured, cpus, capacityMicros, busyMicros, tickBusyMicros, stealMicros, ourMicros, processes,
                notMeasured == null ? IDLE_CLOCKS : null);
    }

    /** Share of the window's machine CPU used by processes other than ours above which a window is flagged. */
    public static final double FLAG_SHARE = 0.05;

    public static OtherCpu notMeasured(String why) {
        return new OtherCpu(why, 0, 0, 0, 0, 0, 0, 0);
    }

    /** The figure between two readings of the machine, given our processes' CPU between them. */
    public static OtherCpu between(MachineCpuTimes start, MachineCpuTimes end, long ourMicros, int processes) {
        return new OtherCpu(null, end.cpus(), end.capacityMicrosSince(start), end.busyMicrosSince(start),
                end.tickBusyMicros() - start.tickBusyMicros(), end.stealMicros() - start.stealMicros(), ourMicros, processes,
                end.tasksTimedSince(start) ? TASK_TIME : IDLE_CLOCKS);
    }

    /** Whether steal is part of {@link #busyMicros} (the idle clocks' complement) and so of the other processes' figure. */
    public boolean stealCounted() {
        return !TASK_TIME.equals(busySource);
    }

    public boolean measured() {
        return notMeasured == null;
    }

    /** The machine's busy time minus ours, as measured: negative when ours exceeds it. Only when {@link #measured()}. */
    public long micros() {
        if (!measured()) {
            throw new IllegalStateException("other processes' CPU not measured: " + notMeasured);
        }
        return busyMicros - ourMicros;
    }

    /**
     * What the counters' rounding alone can make of nothing: each process's utime and stime and the machine's idle and
     * iowait are whole ticks at both edges of the window.
     */
    public long toleranceMicros() {
        return (2L * processes + 2) * 2 * ProcessCpuTimes.MICROS_PER_TICK;
    }

    /** Measured, and below zero by more than {@link #toleranceMicros()}: the accounting does not add up. */
    public boolean doesNotAddUp() {
        return measured() && micros() < -toleranceMicros();
    }

    /** {@link #micros()} as a share of the machine's capacity in the window. */
    public double share() {
        return capacityMicros <= 0 ? 0 : (double) micros() / capacityMicros;
    }

    public RunMetrics.MachineLoad load() {
        if (!measured() || doesNotAddUp()) {
            return RunMetrics.MachineLoad.UNKNOWN;
        }
        return micros() > FLAG_SHARE * capacityMicros ? RunMetrics.MachineLoad.BUSY : RunMetrics.MachineLoad.QUIET;
    }

    /** The summary's phrase: "1.23 s (1.5 % of the machine's 80.0 CPU-s; steal 0.01 s): quiet", or why it is unknown. */
    public String describe() {
        if (!measured()) {
            return "not measured (" + notMeasured + "): unknown, the window may not have been quiet";
        }
        String figure = String.format(Locale.ROOT, "%.2f s (%.1f %% of the machine's %.1f CPU-s; steal %.2f s, %s)", micros() / 1e6,
                100 * share(), capacityMicros / 1e6, stealMicros / 1e6, stealCounted() ? "counted" : "not counted");
        return switch (load()) {
            case QUIET -> figure + ": quiet";
            case BUSY -> figure + ": BUSY, CPU figures suspect";
            case UNKNOWN -> figure + String.format(Locale.ROOT, ": NEGATIVE beyond the counters' rounding (%.2f s): our processes"
                    + " used more CPU than the machine was busy, the accounting does not add up (e.g. a process counted twice);"
                    + " unknown, the window may not have been quiet", toleranceMicros() / 1e6);
        };
    }
}
