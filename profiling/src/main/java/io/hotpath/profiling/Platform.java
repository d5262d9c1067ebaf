package io.hotpath.profiling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Facts about this machine and run that several sessions print or need. */
final class Platform {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private Platform() {
    }

    /** {@code kernel.perf_event_paranoid}, or "unknown". */
    static String perfEventParanoid() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid"), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Effective uid of a process ({@code "self"} for this one), from {@code /proc/<pid>/status}; -1 if unknown. */
    static int effectiveUid(String pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    // real, effective, saved, filesystem
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // process gone or unreadable
        }
        return -1;
    }

    /** Timestamp for output directory names, e.g. {@code 20260721-101500}. */
    static String stamp() {
        return LocalDateTime.now().format(STAMP);
    }
}
