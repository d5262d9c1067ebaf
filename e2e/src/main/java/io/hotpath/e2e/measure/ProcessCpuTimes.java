package io.hotpath.e2e.measure;

import io.hotpath.e2e.ClusterException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * User and system CPU a process has used so far, from {@code /proc/<pid>/stat} (utime and stime, in
 * clock ticks of 10 ms: USER_HZ is 100 on every Linux ABI we run on). The smoke controller is PID 1 of
 * the run's PID namespace with its own /proc mounted, so the PIDs of {@code ManagedProcess} are the ones
 * this /proc shows; no NSpid mapping is needed from inside.
 */
public record ProcessCpuTimes(long userMicros, long systemMicros) {

    static final long MICROS_PER_TICK = 10_000;

    public static ProcessCpuTimes of(long pid) {
        return read(Path.of("/proc", Long.toString(pid), "stat"));
    }

    public static ProcessCpuTimes self() {
        return read(Path.of("/proc/self/stat"));
    }

    static ProcessCpuTimes read(Path stat) {
        String text;
        try {
            text = Files.readString(stat);
        } catch (IOException e) {
            throw new ClusterException("cannot read " + stat + " (process gone?): " + e.getMessage(), e);
        }
        return parse(text);
    }

    /** The command name (field 2) may contain spaces and parentheses: fields are counted after its last ')'. */
    static ProcessCpuTimes parse(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is field 3 (state), so utime (field 14) is fields[11] and stime (field 15) fields[12]
        return new ProcessCpuTimes(Long.parseLong(fields[11]) * MICROS_PER_TICK, Long.parseLong(fields[12]) * MICROS_PER_TICK);
    }

    public ProcessCpuTimes minus(ProcessCpuTimes earlier) {
        return new ProcessCpuTimes(userMicros - earlier.userMicros, systemMicros - earlier.systemMicros);
    }

    public ProcessCpuTimes plus(ProcessCpuTimes other) {
        return new ProcessCpuTimes(userMicros + other.userMicros, systemMicros + other.systemMicros);
    }

    public long totalMicros() {
        return userMicros + systemMicros;
    }
}
