package io.hotpath.e2e.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * What a broker's JIT compiled and deoptimized inside a window, from the {@code jdk.Compilation} and
 * {@code jdk.Deoptimization} events of its recording ({@link BrokerFlightRecording}): why a master's compiler threads
 * still ran in a measured window after a warm-up whose last slices were quiet. A diagnosis, not a figure: the verdicts
 * take the compiler threads' CPU from /proc ({@link ThreadGroupCpu#jitShare()}).
 *
 * @param compilations   compilations begun in the window
 * @param compileMs      their wall time added up (a compilation's duration, not its thread's CPU)
 * @param byLevel        compilations per tier (1-3 C1, 4 C2)
 * @param slowest        the methods that took the most compile time, ms, most first ({@link #NAMED} at most)
 * @param deoptimizations deoptimizations in the window
 * @param deoptReasons   deoptimizations per reason, most first
 * @param deoptMethods   the methods deoptimized most often, most first ({@link #NAMED} at most)
 */
public record WindowCompilations(int compilations, double compileMs, Map<Integer, Integer> byLevel, Map<String, Double> slowest,
                                 int deoptimizations, Map<String, Integer> deoptReasons, Map<String, Integer> deoptMethods) {

    /** Methods and reasons a summary names. */
    static final int NAMED = 8;

    public static final WindowCompilations NONE = new WindowCompilations(0, 0, Map.of(), Map.of(), 0, Map.of(), Map.of());

    /** The window's compilations in {@code nodeDir}'s recording; empty when it has none (a broker killed with SIGKILL). */
    public static WindowCompilations read(Path nodeDir, Instant start, Instant end) throws IOException {
        Path file = nodeDir.resolve(BrokerFlightRecording.FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return NONE;
        }
        int compilations = 0;
        double compileMs = 0;
        Map<Integer, Integer> byLevel = new TreeMap<>();
        Map<String, Double> methodMs = new LinkedHashMap<>();
        int deopts = 0;
        Map<String, Integer> reasons = new LinkedHashMap<>();
        Map<String, Integer> deoptMethods = new LinkedHashMap<>();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                Instant at = event.getStartTime();
                if (at.isBefore(start) || at.isAfter(end)) {
                    continue;
                }
                String type = event.getEventType().getName();
                if (type.equals("jdk.Compilation")) {
                    double ms = event.getDuration().toNanos() / 1e6;
                    int level = event.getShort("compileLevel");
                    compilations++;
                    compileMs += ms;
                    byLevel.merge(level, 1, Integer::sum);
                    methodMs.merge(name(event.getValue("method")) + " (tier " + level + (event.getBoolean("isOsr") ? ", OSR" : "") + ")",
                            ms, Double::sum);
                } else if (type.equals("jdk.Deoptimization")) {
                    deopts++;
                    reasons.merge(event.getString("reason") + "/" + event.getString("action"), 1, Integer::sum);
                    deoptMethods.merge(name(event.getValue("method")), 1, Integer::sum);
                }
            }
        }
        return new WindowCompilations(compilations, compileMs, byLevel, top(methodMs), deopts, top(reasons), top(deoptMethods));
    }

    /** Both masters' windows as one. */
    public WindowCompilations plus(WindowCompilations other) {
        Map<Integer, Integer> levels = new TreeMap<>(byLevel);
        other.byLevel.forEach((k, v) -> levels.merge(k, v, Integer::sum));
        Map<String, Double> methods = new LinkedHashMap<>(slowest);
        other.slowest.forEach((k, v) -> methods.merge(k, v, Double::sum));
        Map<String, Integer> reasons = new LinkedHashMap<>(deoptReasons);
        other.deoptReasons.forEach((k, v) -> reasons.merge(k, v, Integer::sum));
        Map<String, Integer> deoptimized = new LinkedHashMap<>(deoptMethods);
        other.deoptMethods.forEach((k, v) -> deoptimized.merge(k, v, Integer::sum));
        return new WindowCompilations(compilations + other.compilations, compileMs + other.compileMs, levels, top(methods),
                deoptimizations + other.deoptimizations, top(reasons), top(deoptimized));
    }

    /** One line for a round's log. */
    public String line() {
        StringJoiner slow = new StringJoiner(", ");
        slowest.forEach((method, ms) -> slow.add(String.format(Locale.ROOT, "%s %.0f ms", method, ms)));
        return String.format(Locale.ROOT, "%d compilations (per tier %s), %.0f ms of compile time; slowest: %s; %d deoptimizations %s,"
                + " most often of %s", compilations, byLevel, compileMs, slow.length() == 0 ? "none" : slow, deoptimizations, deoptReasons,
                deoptMethods);
    }

    private static String name(RecordedMethod method) {
        if (method == null) {
            return "?";
        }
        String type = method.getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + method.getName();
    }

    private static <V extends Comparable<V>> Map<String, V> top(Map<String, V> values) {
        Map<String, V> top = new LinkedHashMap<>();
        List<Map.Entry<String, V>> sorted = values.entrySet().stream()
                .sorted(Map.Entry.<String, V>comparingByValue(Comparator.reverseOrder())).limit(NAMED).toList();
        sorted.forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
