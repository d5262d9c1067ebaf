package io.hotpath.e2e.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole machine's CPU counters at one instant ({@code /proc/stat}'s "cpu" line, in USER_HZ ticks of 10 ms), with the
 * monotonic clock read beside them and the number of CPUs the line adds up.
 *
 * <p>Why the machine's busy time is taken as wall time x CPUs minus idle and iowait, and not as the sum of the busy
 * fields (user, nice, system, irq, softirq, steal): on a tickless kernel (NO_HZ_IDLE, with tick-based CPU accounting as
 * on this project's machines: {@code CONFIG_TICK_CPU_ACCOUNTING}) the busy fields are sampled at the scheduler tick,
 * which can stop while a CPU idles, so time run between ticks may be charged to no field (all fields together then add
 * up to less than wall time x CPUs); idle and iowait, by contrast, are the kernel's exact idle clocks. A process's own
 * utime + stime ({@link ProcessCpuTimes}) is scaled to its exact runtime. Rounds whose processes used up to ~85 % of
 * the machine had the sum of the busy fields below what the cluster's processes used: "other processes" negative.
 *
 * @param nanos        {@link System#nanoTime()} when the line was read (the middle of the read)
 * @param cpus         CPUs the "cpu" line covers (its "cpuN" lines)
 * @param idleMicros   idle, all CPUs
 * @param iowaitMicros iowait, all CPUs
 * @param stealMicros  time the hypervisor ran something else while a CPU of this machine wanted to run
 * @param tickBusyMicros user + nice + system + irq + softirq + steal: the tick-sampled busy fields
 */
public record MachineCpuTimes(long nanos, int cpus, long idleMicros, long iowaitMicros, long stealMicros, long tickBusyMicros) {

    public static MachineCpuTimes now() {
        try {
            long before = System.nanoTime();
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            long after = System.nanoTime();
            return parse(lines, before + (after - before) / 2);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/stat: " + e.getMessage(), e);
        }
    }

    /** A /proc/stat-like file read as if at {@code nanos} (tests read fixtures written under target/). */
    public static MachineCpuTimes read(Path stat, long nanos) {
        try {
            return parse(Files.readAllLines(stat), nanos);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + stat + ": " + e.getMessage(), e);
        }
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

    /** What the machine did not spend idle (or waiting for I/O) between the two readings, on every CPU. */
    public long busyMicrosSince(MachineCpuTimes start) {
        return capacityMicrosSince(start) - (idleMicros - start.idleMicros) - (iowaitMicros - start.iowaitMicros);
    }
}
