package io.hotpath.jmh.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.hotpath.jmh.AbstractBenchmark;

/**
 * Whether a row of a JMH result file may be quoted in a patch's Result: measured with at least the project's own
 * settings ({@link AbstractBenchmark}: 4 forks x (8 warm-up + 4 measurement iterations) x 1 s; jmh/README.md says why
 * the warm-up is 8 s), and with JMH's error at most 10 % of the score (the summary marks a row over it noisy).
 * broker-dist's QuotedResults applies the same rules to every committed Result, written apart on purpose.
 */
public final class Quotable {

    public static final double MAX_ERROR_FRACTION = 0.10;

    private Quotable() {
    }

    /** Every reason the row is not quotable; empty when it is. */
    public static List<String> problems(JmhResults.Row r) {
        List<String> problems = new ArrayList<>();
        if (Double.isNaN(r.error)) {
            problems.add("no error estimate");
        } else if (r.error > MAX_ERROR_FRACTION * r.score) {
            problems.add(String.format(Locale.ROOT, "error %.0f %% of the score", 100 * r.error / r.score));
        }
        if (r.forks < AbstractBenchmark.FORKS) {
            problems.add(r.forks + " forks");
        }
        if (r.warmupIterations < AbstractBenchmark.WARMUP_ITERATIONS || millis(r.warmupTime) < AbstractBenchmark.ITERATION_MILLIS) {
            problems.add("warm-up " + r.warmupIterations + " x " + r.warmupTime);
        }
        if (r.iterations < AbstractBenchmark.MEASUREMENT_ITERATIONS || millis(r.time) < AbstractBenchmark.ITERATION_MILLIS) {
            problems.add("measurement " + r.iterations + " x " + r.time);
        }
        return problems;
    }

    /** JMH's time value as its JSON writes it ("1 s", "500 ms", "10 us", "1 min") in milliseconds. */
    static double millis(String time) {
        String[] parts = time.trim().split(" ");
        double n = Double.parseDouble(parts[0]);
        switch (parts.length == 2 ? parts[1] : "") {
            case "ns":
                return n / 1e6;
            case "us":
                return n / 1e3;
            case "ms":
                return n;
            case "s":
                return n * 1e3;
            case "min":
                return n * 60e3;
            default:
                throw new IllegalArgumentException("not a JMH time value: '" + time + "'");
        }
    }
}
