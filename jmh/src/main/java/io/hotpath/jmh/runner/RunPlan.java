package io.hotpath.jmh.runner;

import java.util.concurrent.TimeUnit;

import io.hotpath.jmh.AbstractBenchmark;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Forks, iterations and iteration times for one run: {@link AbstractBenchmark}'s defaults,
 * overridden by {@code -Djmh.forks} etc., overridden by the same JMH options after {@code bin/hotpath jmh --}.
 * The plan never changes a setting to save time: a run that must fit a time box says so with {@code -Djmh.budget},
 * and a plan estimated over it is refused in one line (narrow the selection or lower the settings instead).
 */
public final class RunPlan {

    /** Per fork outside iterations (JVM start, 2 GB pre-touch, @Setup and guards): ~2 s quiet, ~5 s on a busy 2-core box. */
    static final double FORK_OVERHEAD_SECONDS = 3.0;

    public final int forks;
    public final int warmupIterations;
    public final long warmupMillis;
    public final int iterations;
    public final long measurementMillis;
    public final int combinations;

    private RunPlan(int forks, int warmupIterations, long warmupMillis, int iterations, long measurementMillis,
            int combinations) {
        this.forks = forks;
        this.warmupIterations = warmupIterations;
        this.warmupMillis = warmupMillis;
        this.iterations = iterations;
        this.measurementMillis = measurementMillis;
        this.combinations = combinations;
    }

    /**
     * @param combinations benchmark methods x parameter combinations that the run will measure
     * @param forks, warmupIterations, warmupTime, iterations, time raw -D values, empty = default
     * @param budget seconds the run may take, empty = no limit
     */
    public static RunPlan plan(int combinations, String forks, String warmupIterations, String warmupTime,
            String iterations, String time, String budget) {
        return plan(combinations, new OptionsBuilder().build(), forks, warmupIterations, warmupTime, iterations, time,
            budget);
    }

    /**
     * @param given the JMH options after {@code --} ({@link JmhArguments#given()}): its -f, -wi, -w, -i and -r win
     *        over the -D values (JMH has checked them)
     * @throws IllegalArgumentException on a malformed setting, or when the estimate exceeds the budget
     */
    public static RunPlan plan(int combinations, Options given, String forks, String warmupIterations,
            String warmupTime, String iterations, String time, String budget) {
        int f = given.getForkCount().orElse(positiveInt("jmh.forks", forks, AbstractBenchmark.FORKS, true));
        int wi = given.getWarmupIterations().orElse(
            positiveInt("jmh.warmupIterations", warmupIterations, AbstractBenchmark.WARMUP_ITERATIONS, true));
        int i = given.getMeasurementIterations().orElse(
            positiveInt("jmh.iterations", iterations, AbstractBenchmark.MEASUREMENT_ITERATIONS, false));
        long wt = given.getWarmupTime().hasValue() ? given.getWarmupTime().get().convertTo(TimeUnit.MILLISECONDS)
            : millis("jmh.warmupTime", warmupTime, AbstractBenchmark.ITERATION_MILLIS);
        long t = given.getMeasurementTime().hasValue() ? given.getMeasurementTime().get().convertTo(TimeUnit.MILLISECONDS)
            : millis("jmh.time", time, AbstractBenchmark.ITERATION_MILLIS);
        RunPlan plan = new RunPlan(f, wi, wt, i, t, combinations);
        if (!blank(budget)) {
            int b = positiveInt("jmh.budget", budget, 0, false);
            if (plan.estimateSeconds() > b) {
                throw new IllegalArgumentException(String.format("%d benchmark/param combinations x %s would take ~%s,"
                        + " over -Djmh.budget=%d s: narrow -Djmh.include or lower -Djmh.forks / -Djmh.iterations"
                        + " (nothing is shortened for you)", combinations, plan.describe(),
                    duration(plan.estimateSeconds()), b));
            }
        }
        return plan;
    }

    /** Wall-clock estimate of the JMH run, in seconds. */
    public double estimateSeconds() {
        double perFork = FORK_OVERHEAD_SECONDS + (warmupIterations * warmupMillis + iterations * measurementMillis) / 1000.0;
        return combinations * Math.max(1, forks) * perFork;
    }

    public String describe() {
        return String.format("%d fork%s x (%d warmup x %s + %d measurement x %s)", forks, forks == 1 ? "" : "s",
            warmupIterations, time(warmupMillis), iterations, time(measurementMillis));
    }

    static String time(long millis) {
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }

    public static String duration(double seconds) {
        long s = Math.round(seconds);
        return s >= 60 ? String.format("%d min %02d s", s / 60, s % 60) : s + " s";
    }

    private static boolean blank(String s) {
        return s == null || s.trim().isEmpty();
    }

    private static int positiveInt(String name, String raw, int dflt, boolean zeroAllowed) {
        if (blank(raw)) {
            return dflt;
        }
        try {
            int v = Integer.parseInt(raw.trim());
            if (v > 0 || (zeroAllowed && v == 0)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through to the one-line error
        }
        throw new IllegalArgumentException("-D" + name + " must be a " + (zeroAllowed ? "non-negative" : "positive")
            + " integer, got '" + raw + "'");
    }

    private static long millis(String name, String raw, long dflt) {
        if (blank(raw)) {
            return dflt;
        }
        try {
            long ms = TimeValue.fromString(raw.trim()).convertTo(TimeUnit.MILLISECONDS);
            if (ms > 0) {
                return ms;
            }
        } catch (IllegalArgumentException e) {
            // fall through to the one-line error
        }
        throw new IllegalArgumentException("-D" + name + " must be a JMH time like 1s or 500ms, got '" + raw + "'");
    }
}
