package io.hotpath.e2e.campaign;

import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The campaign report's table of the masters' CPU per thread group ({@link ThreadGroupCpu}), one column per
 * arm: per group the median over the arm's rounds of its CPU per acknowledged message. Groups are named when
 * they hold at least {@link RunMetrics#THREAD_GROUP_SHARE} of the masters' CPU in some arm (the same rows for
 * every arm), largest first; the rest add up to "other".
 */
public final class ThreadGroupTable {

    private ThreadGroupTable() {
    }

    /** {@code runs}: per arm (in {@code arms} order) the rounds that have thread figures. */
    static String markdown(List<String> arms, List<List<RunMetrics>> runs) {
        String intro = "Masters' CPU per thread group, us per acked message (median over rounds; both"
                + " masters' threads from /proc/<pid>/task/*/stat at both edges of the measured window, grouped by name"
                + " without its counter). Named: groups above " + Math.round(100 * RunMetrics.THREAD_GROUP_SHARE)
                + " % of the masters' CPU in some arm; \"" + ThreadGroupCpu.EXITED + "\": CPU of threads that ended in the"
                + " window (their counters end with them), and tick rounding. Medians of the parts need not add up to the"
                + " median of the whole.\n\n";
        return table(intro, arms, runs, RunMetrics::masterThreadMicrosPerMessage, RunMetrics::masterMicrosPerMessage,
                "masters, whole processes", true);
    }

    /** The masters' context switches per thread group, as {@link #markdown} has their CPU. */
    static String switchesMarkdown(List<String> arms, List<List<RunMetrics>> runs) {
        String intro = "Masters' context switches per thread group, per acked message (voluntary + involuntary, median over"
                + " rounds; from /proc/<pid>/task/*/status at both edges of the measured window). A voluntary switch is a"
                + " thread blocking (a hand-off's wake-up on the waiting side), an involuntary one the scheduler taking its"
                + " CPU. Named: groups above " + Math.round(100 * RunMetrics.THREAD_GROUP_SHARE) + " % of the masters'"
                + " switches in some arm; threads that ended in the window are not counted.\n\n";
        return table(intro, arms, runs, RunMetrics::masterThreadSwitchesPerMessage, RunMetrics::masterContextSwitchesPerMessage,
                "masters, all threads (voluntary + involuntary)", false);
    }

    /**
     * One column per arm ({@code runs} in {@code arms} order), one row per group holding {@link RunMetrics#THREAD_GROUP_SHARE}
     * of the {@code whole} in some arm, largest first, then "other", optionally {@link ThreadGroupCpu#EXITED}, the whole
     * and the rounds; each cell the median over the arm's rounds. {@code T} is whatever a round's figures are (a campaign
     * round's {@link RunMetrics}, an idle round's figures of one role).
     */
    public static <T> String table(String intro, List<String> arms, List<List<T>> runs, Function<T, Map<String, Double>> perGroup,
                                   ToDoubleFunction<T> whole, String wholeLabel, boolean exitedRow) {
        StringBuilder out = new StringBuilder(intro);
        if (runs.stream().allMatch(List::isEmpty)) {
            return out.append("No round has the masters' thread figures (a master was restarted, or every round ran on a busy"
                    + " machine).\n").toString();
        }
        Set<String> groups = new TreeSet<>();
        runs.forEach(arm -> arm.forEach(run -> groups.addAll(perGroup.apply(run).keySet())));
        groups.remove(ThreadGroupCpu.EXITED);
        List<Double> process = runs.stream().map(arm -> median(arm, whole)).toList();
        List<String> named = new ArrayList<>();
        for (String group : groups) {
            for (int a = 0; a < runs.size(); a++) {
                double median = median(runs.get(a), run -> share(perGroup, run, group));
                if (!Double.isNaN(median) && median > 0 && median >= RunMetrics.THREAD_GROUP_SHARE * process.get(a)) {
                    named.add(group);
                    break;
                }
            }
        }
        named.sort(Comparator.comparingDouble((String group) -> largestMedian(perGroup, runs, group)).reversed());

        StringJoiner head = new StringJoiner(" | ", "| thread group | ", " |\n");
        StringJoiner rule = new StringJoiner("|", "|---|", "|\n");
        arms.forEach(arm -> {
            head.add(arm);
            rule.add("---:");
        });
        out.append(head).append(rule);
        for (String group : named) {
            row(out, group, runs, run -> share(perGroup, run, group));
        }
        row(out, ThreadGroupCpu.OTHER, runs, run -> perGroup.apply(run).entrySet().stream()
                .filter(e -> !named.contains(e.getKey()) && !e.getKey().equals(ThreadGroupCpu.EXITED))
                .mapToDouble(Map.Entry::getValue).sum());
        if (exitedRow) {
            row(out, ThreadGroupCpu.EXITED, runs, run -> share(perGroup, run, ThreadGroupCpu.EXITED));
        }
        row(out, wholeLabel, runs, whole);
        StringJoiner count = new StringJoiner(" | ", "| rounds | ", " |\n");
        runs.forEach(arm -> count.add(Integer.toString(arm.size())));
        return out.append(count).toString();
    }

    /** A group absent from a round (no such thread alive at its end) used nothing in it. */
    private static <T> double share(Function<T, Map<String, Double>> perGroup, T run, String group) {
        return perGroup.apply(run).getOrDefault(group, 0.0);
    }

    private static <T> double largestMedian(Function<T, Map<String, Double>> perGroup, List<List<T>> runs, String group) {
        return runs.stream().mapToDouble(arm -> median(arm, run -> share(perGroup, run, group))).filter(v -> !Double.isNaN(v))
                .max().orElse(0);
    }

    private static <T> void row(StringBuilder out, String label, List<List<T>> runs, ToDoubleFunction<T> value) {
        StringJoiner row = new StringJoiner(" | ", "| " + label + " | ", " |\n");
        for (List<T> arm : runs) {
            double median = median(arm, value);
            row.add(Double.isNaN(median) ? "n/a" : String.format(Locale.ROOT, "%.2f", median));
        }
        out.append(row);
    }

    /** NaN for an arm without rounds. */
    private static <T> double median(List<T> runs, ToDoubleFunction<T> value) {
        if (runs.isEmpty()) {
            return Double.NaN;
        }
        return ArmStatistics.median(runs.stream().map(value::applyAsDouble).sorted().toList());
    }
}
