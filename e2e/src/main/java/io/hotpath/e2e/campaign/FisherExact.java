package io.hotpath.e2e.campaign;

/**
 * Fisher's exact test of a 2x2 table: whether an event (a round with a slot-late message) is more common in one arm than
 * the other when it is rare, where a difference of means says little (2 of 30 rounds against 0 of 29).
 */
final class FisherExact {

    private FisherExact() {
    }

    /**
     * Two-sided p of the table {@code [[a, b], [c, d]]} (rows: arms; columns: with and without the event): with the margins
     * fixed, the summed probability of every table no more likely than the one observed.
     */
    static double p(int a, int b, int c, int d) {
        if (a < 0 || b < 0 || c < 0 || d < 0) {
            throw new IllegalArgumentException("negative count in [[" + a + ", " + b + "], [" + c + ", " + d + "]]");
        }
        int row1 = a + b;
        int col1 = a + c;
        int n = a + b + c + d;
        if (n == 0) {
            return 1;
        }
        double observed = logProbability(a, row1, col1, n);
        double p = 0;
        for (int x = Math.max(0, row1 + col1 - n); x <= Math.min(row1, col1); x++) {
            double log = logProbability(x, row1, col1, n);
            // tables as likely as the observed one up to rounding count as "no more likely"
            if (log <= observed + 1e-7) {
                p += Math.exp(log);
            }
        }
        return Math.min(1, p);
    }

    /** log P(X = x) of the hypergeometric: x events in the first row of {@code row1}, {@code col1} events of {@code n}. */
    private static double logProbability(int x, int row1, int col1, int n) {
        return logChoose(row1, x) + logChoose(n - row1, col1 - x) - logChoose(n, col1);
    }

    private static double logChoose(int n, int k) {
        return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
    }

    private static double logFactorial(int n) {
        double sum = 0;
        for (int i = 2; i <= n; i++) {
            sum += Math.log(i);
        }
        return sum;
    }
}
