package io.hotpath.jmh.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * How busy the machine is, from Linux {@code /proc/stat} (all CPUs) and {@code /proc/self/stat}
 * (this JVM plus its reaped children, i.e. the JMH forks). Both count in USER_HZ ticks. Absent
 * {@code /proc} (not Linux), every reading is {@code null} and the summary says "unknown".
 */
final class CpuSampler {

    /** A reading: machine-wide busy and total ticks, and this process tree's ticks. */
    static final class Snapshot {
        final long busy;
        final long total;
        final long own;

        Snapshot(long busy, long total, long own) {
            this.busy = busy;
            this.total = total;
            this.own = own;
        }
    }

    private static final Path STAT = Paths.get("/proc/stat");
    private static final Path SELF = Paths.get("/proc/self/stat");

    private CpuSampler() {
    }

    static Snapshot snapshot() {
        try {
            List<String> lines = Files.readAllLines(STAT, StandardCharsets.US_ASCII);
            // cpu user nice system idle iowait irq softirq steal [guest guest_nice, already in user/nice]
            String[] f = lines.get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i <= 8 && i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            String self = new String(Files.readAllBytes(SELF), StandardCharsets.US_ASCII);
            // after "pid (comm) ": state is field 3; utime, stime, cutime, cstime are fields 14-17
            String[] s = self.substring(self.lastIndexOf(')') + 2).trim().split("\\s+");
            long own = Long.parseLong(s[11]) + Long.parseLong(s[12]) + Long.parseLong(s[13]) + Long.parseLong(s[14]);
            return new Snapshot(total - idle, total, own);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Idle share of all CPUs over {@code millis}, in percent, or null when unknown. */
    static Double idlePercent(long millis) throws InterruptedException {
        Snapshot a = snapshot();
        Thread.sleep(millis);
        Snapshot b = snapshot();
        if (a == null || b == null || b.total == a.total) {
            return null;
        }
        return 100.0 * (1.0 - (b.busy - a.busy) / (double) (b.total - a.total));
    }

    /** Share of all CPUs used by processes other than this one and its children, in percent, or null. */
    static Double othersPercent(Snapshot a, Snapshot b) {
        if (a == null || b == null || b.total == a.total) {
            return null;
        }
        long others = (b.busy - a.busy) - (b.own - a.own);
        return Math.max(0.0, 100.0 * others / (double) (b.total - a.total));
    }
}
