package io.hotpath.e2e.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole machine's CPU counters at one instant ({@code /proc/stat}'s "cpu" line, in USER_HZ ticks of 10 ms), with the
 * monotonic clock read beside them and the number of CPUs the line adds up.
 *
 * <p>The machine's busy time is, where the kernel offers it, the root cgroup's {@code cpuacct.usage}: every task's exact
 * run time (the same clock a process's utime + stime are scaled to, {@link ProcessCpuTimes}), which with
 * {@code CONFIG_PARAVIRT_TIME_ACCOUNTING} (this project's machines) leaves out steal, the time the hypervisor ran another
 * guest while a CPU of this one wanted to run. Steal is no process's CPU, neither ours nor another's: counted as
 * "other processes" it made idle rounds "busy" when this machine ran nothing but the cluster (5.5.1, 2026-11-29: up to
 * 19 s of steal in a 120 CPU-s window). Where cpuacct is absent (a cgroup v2-only host), wall time x CPUs minus idle and
 * iowait, steal included; not the sum of the busy fields (user, nice, system, irq, softirq, steal): on a tickless kernel
 * with tick-based CPU accounting ({@code CONFIG_TICK_CPU_ACCOUNTING}) those are sampled at the scheduler tick, which can
 * stop while a CPU idles, so time run between ticks may be charged to no field; rounds whose processes used up to ~85 % of
 * the machine had the sum of the busy fields below what the cluster's processes used. Idle and iowait are the kernel's
 * exact idle clocks, but steal can overlap them (a vCPU woken from idle and not yet run), so the two cannot be subtracted.
 *
 * @param nanos        {@link System#nanoTime()} when the line was read (the middle of the read)
 * @param cpus         CPUs the "cpu" line covers (its "cpuN" lines)
 * @param idleMicros   idle, all CPUs
 * @param iowaitMicros iowait, all CPUs
 * @param stealMicros  time the hypervisor ran something else while a CPU of this machine wanted to run
 * @param tickBusyMicros user + nice + system + irq + softirq + steal: the tick-sampled busy fields
 * @param taskMicros   every task's run time so far (the root cgroup's cpuacct.usage), -1 where it cannot be read
 */
public record MachineCpuTimes(long nanos, int cpus, long idleMicros, long iowaitMicros, long stealMicros, long tickBusyMicros,
                              long taskMicros) {

    /** The root cgroup's CPU accounting (cgroup v1 cpuacct): the sum of every task's run time, in nanoseconds. */
    public static final Path CPUACCT_USAGE = Path.of("/sys/fs/cgroup/cpuacct/cpuacct.usage");

    /** Stat fields only (fixtures, and hosts without cpuacct): busy time is then the idle clocks' complement. */
    public MachineCpuTimes(long nanos, int cpus, long idleMicros, long iowaitMicros, long stealMicros, long tickBusyMicros) {
        this(nanos, cpus, idleMicros, iowaitMicros, stealMicros, tickBusyMicros, -1);
    }


    public static MachineCpuTimes now() {
        try {
            long before = System.nanoTime();
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            long tasks = taskMicros(CPUACCT_USAGE);
            long after = System.nanoTime();
            return parse(lines, before + (after - before) / 2).withTaskMicros(tasks);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/stat: " + e.getMessage(), e);
        }
    }

    /**
     * A /proc/stat-like file read as if at {@code nanos}, with the task time of {@code cpuacctUsage} where that file exists
     * (tests read fixtures written under target/).
     */
    public static MachineCpuTimes read(Path stat, Path cpuacctUsage, long nanos) {
        try {
            return parse(Files.readAllLines(stat), nanos).withTaskMicros(taskMicros(cpuacctUsage));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + stat + ": " + e.getMessage(), e);
        }
    }

    /** cpuacct.usage (ns) in microseconds, -1 when the file is absent or unreadable. */
    static long taskMicros(Path cpuacctUsage) {
        try {
            return Long.parseLong(Files.readString(cpuacctUsage).trim()) / 1_000;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    private MachineCpuTimes withTaskMicros(long micros) {
        return new MachineCpuTimes(nanos, cpus, idleMicros, iowaitMicros, stealMicros, tickBusyMicros, micros);
    }

    /** {@code lines} of /proc/stat read at {@code nanos}. */
    static MachineCpuTimes parse(List<String> lines, long nanos) {
        String[] f = lines.get(0).trim().split("\\s+");
        if (!f[0].equals("cpu") || f.length < 9) {
            throw new IllegalStateException("/proc/stat does not start with the cpu line: " + lines.get(0));
        }
        int cpus = (int) lines.stream().filter(line -> line.matches("cpu\\d+\\s.*")).count();
        long busy = 0;
        for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
            busy += ticks(f[i]);
        }
        return new MachineCpuTimes(nanos, cpus, ticks(f[4]), ticks(f[5]), ticks(f[8]), busy);
    }

    private static long ticks(String field) {
        return Long.parseLong(field) * ProcessCpuTimes.MICROS_PER_TICK;
    }

    /** Wall time between the two readings times the CPUs: what the machine had to give. */
    public long capacityMicrosSince(MachineCpuTimes start) {
        return (nanos - start.nanos) / 1_000 * cpus;
    }

    /** True when both readings have every task's run time: {@link #busyMicrosSince} is then that, steal left out. */
    public boolean tasksTimedSince(MachineCpuTimes start) {
        return taskMicros >= 0 && start.taskMicros >= 0;
    }

    /**
     * The machine's busy time between the two readings, on every CPU: every task's run time where both readings have it
     * ({@link #tasksTimedSince}), else what the machine did not spend idle (or waiting for I/O), steal included.
     */
    public long busyMicrosSince(MachineCpuTimes start) {
        if (tasksTimedSince(start)) {
            return taskMicros - start.taskMicros;
        }
        return capacityMicrosSince(start) - (idleMicros - start.idleMicros) - (iowaitMicros - start.iowaitMicros);
    }
}
