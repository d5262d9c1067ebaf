package io.hotpath.e2e.campaign;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Whether two arms' rounds could be one arm's: the exact two-sided permutation test on the difference of their means,
 * and Holm's correction when one report tests many metrics. Rounds of equal arms are exchangeable, so every way of
 * splitting the pooled rounds into groups of the arms' sizes is as likely as the one measured; p is the share of splits
 * whose difference of means is at least as large as the measured one. It assumes nothing about the distribution of a
 * round's figure, which matters with 5 or 6 rounds whose noise is skewed by GC and JIT.
 */
final class PermutationTest {

    /** Up to this many splits are enumerated; beyond it (e.g. 12 vs 12 rounds) a fixed-seed sample gives p. */
    static final long EXACT_LIMIT = 1_000_000;
    private static final int SAMPLES = 200_000;
    private static final long SEED = 20261129L;

    private PermutationTest() {
    }

    /** The two-sided p of the difference of means of {@code a} and {@code b}; 1 when either is empty. */
    static double p(List<Double> a, List<Double> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 1;
        }
        double[] pooled = new double[a.size() + b.size()];
        for (int i = 0; i < a.size(); i++) {
            pooled[i] = a.get(i);
        }
        for (int i = 0; i < b.size(); i++) {
            pooled[a.size() + i] = b.get(i);
        }
        double total = Arrays.stream(pooled).sum();
        int n = a.size();
        int m = b.size();
        double observed = Math.abs(difference(sum(a), total, n, m));
        // splits that equal the measured one up to rounding count as "at least as large"
        double threshold = observed - 1e-9 * Math.max(1, Math.abs(observed));
        if (combinations(n + m, n) <= EXACT_LIMIT) {
            long[] counts = new long[2];
            enumerate(pooled, 0, n, 0, total, n, m, threshold, counts);
            return (double) counts[0] / counts[1];
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] shuffled = pooled.clone();
        long atLeast = 0;
        for (int s = 0; s < SAMPLES; s++) {
            double first = drawFirstGroup(shuffled, n, random);
            if (Math.abs(difference(first, total, n, m)) >= threshold) {
                atLeast++;
            }
        }
        // the measured split is one of the possible ones: (k + 1) / (N + 1) keeps a sampled p from being 0
        return (atLeast + 1.0) / (SAMPLES + 1.0);
    }

    /**
     * A random first group of {@code n}: the first {@code n} places of {@code values} after a partial Fisher-Yates shuffle
     * (every such group equally likely); returns their sum.
     */
    private static double drawFirstGroup(double[] values, int n, SplittableRandom random) {
        double first = 0;
        for (int i = 0; i < n; i++) {
            int j = i + random.nextInt(values.length - i);
            double swap = values[i];
            values[i] = values[j];
            values[j] = swap;
            first += values[i];
        }
        return first;
    }

    /** Mean of the second group minus mean of the first, from the first group's sum. */
    private static double difference(double firstSum, double total, int n, int m) {
        return (total - firstSum) / m - firstSum / n;
    }

    private static double sum(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Counts (in counts[1]) every choice of {@code left} more members of the first group from index {@code from} on. */
    private static void enumerate(double[] pooled, int from, int left, double chosenSum, double total, int n, int m, double threshold,
                                  long[] counts) {
        if (left == 0) {
            counts[1]++;
            if (Math.abs(difference(chosenSum, total, n, m)) >= threshold) {
                counts[0]++;
            }
            return;
        }
        for (int i = from; i <= pooled.length - left; i++) {
            enumerate(pooled, i + 1, left - 1, chosenSum + pooled[i], total, n, m, threshold, counts);
        }
    }

    /** C(total, chosen), saturating at Long.MAX_VALUE. */
    static long combinations(int total, int chosen) {
        double c = 1;
        for (int i = 1; i <= chosen; i++) {
            c = c * (total - chosen + i) / i;
        }
        return c >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(c);
    }

    /** One stratum of a stratified test: the baseline's and the arm's values of one file. */
    record Stratum(List<Double> baseline, List<Double> arm) {
    }

    /** Samples of a stratified test: its splits are the product of every stratum's, beyond enumeration. */
    static final int STRATIFIED_SAMPLES = 100_000;

    /**
     * The strata's differences of means (arm minus baseline), each weighted by n·m/(n+m): a stratum of many rounds on both
     * sides says more than one of 1 vs 5, and a difference between strata (another rate, host or day) never enters.
     */
    static double stratifiedDifference(List<Stratum> strata) {
        double weighted = 0;
        double weights = 0;
        for (Stratum s : strata) {
            double w = weight(s);
            weighted += w * (sum(s.arm()) / s.arm().size() - sum(s.baseline()) / s.baseline().size());
            weights += w;
        }
        return weighted / weights;
    }

    /**
     * Two-sided p of {@link #stratifiedDifference}: labels are permuted within each stratum only (rounds of one file are
     * exchangeable under "no difference", rounds of two files need not be), by a fixed-seed sample; (k + 1) / (N + 1).
     */
    static double stratifiedP(List<Stratum> strata) {
        double observed = Math.abs(stratifiedDifference(strata));
        double threshold = observed - 1e-9 * Math.max(1, observed);
        double[][] pooled = new double[strata.size()][];
        double[] weights = new double[strata.size()];
        double[] totals = new double[strata.size()];
        double weightSum = 0;
        for (int k = 0; k < strata.size(); k++) {
            Stratum s = strata.get(k);
            pooled[k] = new double[s.baseline().size() + s.arm().size()];
            for (int i = 0; i < s.baseline().size(); i++) {
                pooled[k][i] = s.baseline().get(i);
            }
            for (int i = 0; i < s.arm().size(); i++) {
                pooled[k][s.baseline().size() + i] = s.arm().get(i);
            }
            weights[k] = weight(s);
            weightSum += weights[k];
            totals[k] = sum(s.baseline()) + sum(s.arm());
        }
        SplittableRandom random = new SplittableRandom(SEED);
        long atLeast = 0;
        for (int sample = 0; sample < STRATIFIED_SAMPLES; sample++) {
            double statistic = 0;
            for (int k = 0; k < pooled.length; k++) {
                int n = strata.get(k).baseline().size();
                double first = drawFirstGroup(pooled[k], n, random);
                statistic += weights[k] * difference(first, totals[k], n, pooled[k].length - n);
            }
            if (Math.abs(statistic / weightSum) >= threshold) {
                atLeast++;
            }
        }
        return (atLeast + 1.0) / (STRATIFIED_SAMPLES + 1.0);
    }

    private static double weight(Stratum s) {
        double n = s.baseline().size();
        double m = s.arm().size();
        return n * m / (n + m);
    }

    /** The smallest p two arms of {@code n} and {@code m} rounds can reach: every round of one beyond every round of the other. */
    static double smallestP(int n, int m) {
        return 2.0 / combinations(n + m, n);
    }

    /**
     * Holm's step-down adjustment of a family of p values (same order as given): the k-th smallest is multiplied by the
     * number of tests not yet passed, and adjusted values never fall below an earlier one. A difference counts when its
     * adjusted p is at most the level; the chance that any of the family's equal pairs counts stays at most the level.
     */
    static double[] holm(double[] p) {
        Integer[] order = new Integer[p.length];
        for (int i = 0; i < p.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(p[x], p[y]));
        double[] adjusted = new double[p.length];
        double running = 0;
        for (int k = 0; k < order.length; k++) {
            running = Math.max(running, Math.min(1, (p.length - k) * p[order[k]]));
            adjusted[order[k]] = running;
        }
        return adjusted;
    }
}
