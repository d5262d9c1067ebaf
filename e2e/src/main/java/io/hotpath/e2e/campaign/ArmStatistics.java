package io.hotpath.e2e.campaign;

import java.util.List;
import java.util.Locale;

/**
 * The statistics a campaign judges two arms by, apart from how the report shows them: medians, the A/A spread (the
 * round-to-round noise of one arm) and the rule that a difference is resolved only when the arms' min-max ranges are
 * apart and their medians differ by more than that spread. Every list is one arm's rounds, sorted.
 */
final class ArmStatistics {

    private ArmStatistics() {
    }

    /** The median of sorted values. */
    static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The verdict line of one metric; {@code a} is the baseline, {@code b} the arm compared with it. */
    static String verdict(List<Double> a, List<Double> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return "no data";
        }
        if (a.size() < 2 || b.size() < 2) {
            return "not resolvable (fewer than 2 rounds per arm: no A/A spread to compare with)";
        }
        double medianA = median(a);
        double change = medianA == 0 ? 0 : (median(b) - medianA) / medianA;
        double spread = aaSpread(a, b);
        if (resolved(a, b)) {
            // with few rounds, separated ranges are weak evidence: say how often equal arms would separate
            String chance = spread == 0 ? "" : String.format(Locale.ROOT, "; equal arms would separate by chance with p = %.2f",
                    chanceOfSeparation(a.size(), b.size()));
            return String.format(Locale.ROOT, "resolved: %+.1f %% vs A/A spread %.1f %% (ranges do not overlap%s)",
                    100 * change, 100 * spread, chance);
        }
        return String.format(Locale.ROOT, "not resolvable: %+.1f %% within A/A spread %.1f %%%s",
                100 * change, 100 * spread, overlap(a, b) ? " (ranges overlap)" : "");
    }

    /**
     * The smallest difference of medians that can count as resolved: one the verdict shows as at least 0.1 %. Paced
     * arms that both keep up (TPS 2499.6 vs 2500.0) have ranges apart and a spread near 0, and "resolved: +0.0 %" said
     * nothing (2026-11-27).
     */
    static final double SMALLEST_CHANGE = 0.0005;

    /**
     * Whether arm {@code b} differs from baseline {@code a} beyond the noise: at least 2 rounds each, min-max
     * ranges apart, and medians further apart than {@link #aaSpread} and than {@link #SMALLEST_CHANGE}.
     */
    static boolean resolved(List<Double> a, List<Double> b) {
        if (a.size() < 2 || b.size() < 2) {
            return false;
        }
        double medianA = median(a);
        double difference = medianA == 0 ? 0 : Math.abs(median(b) - medianA) / medianA;
        return !overlap(a, b) && difference > aaSpread(a, b) && difference >= SMALLEST_CHANGE;
    }

    /** The A/A spread of a comparison: the larger relative min-max spread between the rounds of either arm. */
    static double aaSpread(List<Double> a, List<Double> b) {
        return Math.max(relativeSpread(a), relativeSpread(b));
    }

    static boolean overlap(List<Double> a, List<Double> b) {
        return a.get(0) <= b.get(b.size() - 1) && b.get(0) <= a.get(a.size() - 1);
    }

    /**
     * The probability that every round of one arm lies beyond every round of the other when both arms
     * measure the same thing (rounds exchangeable): 2 / C(n + m, n). 2 vs 2 rounds: 0.33; 3 vs 3: 0.10;
     * 5 vs 5: 0.008.
     */
    static double chanceOfSeparation(int n, int m) {
        double combinations = 1;
        for (int i = 1; i <= n; i++) {
            combinations = combinations * (m + i) / i;
        }
        return Math.min(1, 2 / combinations);
    }

    /** The min-max spread of sorted rounds relative to their median. */
    static double relativeSpread(List<Double> sorted) {
        double median = median(sorted);
        return median == 0 ? 0 : (sorted.get(sorted.size() - 1) - sorted.get(0)) / median;
    }
}
