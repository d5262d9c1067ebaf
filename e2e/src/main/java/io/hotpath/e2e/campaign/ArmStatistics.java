package io.hotpath.e2e.campaign;

import java.util.List;

/**
 * Descriptive statistics of one arm's rounds (each list sorted): median, min-max overlap, and the A/A spread (the
 * round-to-round noise of one arm). Judging a difference is {@link CampaignVerdicts}' job.
 */
final class ArmStatistics {

    private ArmStatistics() {
    }

    /** The median of sorted values. */
    static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The A/A spread of a comparison: the larger relative min-max spread between the rounds of either arm. */
    static double aaSpread(List<Double> a, List<Double> b) {
        return Math.max(relativeSpread(a), relativeSpread(b));
    }

    static boolean overlap(List<Double> a, List<Double> b) {
        return a.get(0) <= b.get(b.size() - 1) && b.get(0) <= a.get(a.size() - 1);
    }

    /** The min-max spread of sorted rounds relative to their median. */
    static double relativeSpread(List<Double> sorted) {
        double median = median(sorted);
        return median == 0 ? 0 : (sorted.get(sorted.size() - 1) - sorted.get(0)) / median;
    }
}
