package io.hotpath.e2e.spec;

import java.util.Locale;

/**
 * The unmeasured load a round runs before its measured window, on a topic of its own (read back and judged apart): {@code maxSeconds} of it, or, with
 * {@code untilJitBelow} above 0, slices of {@link #SLICE_SECONDS} until the masters' JIT compiler threads used less than
 * that share of the masters' CPU in {@link #WARM_SLICES} slices in a row (at most {@code maxSeconds}). A fresh 5.3.3 master still compiles
 * after a minute of load (7.5 % of its CPU after 60 s, docs/results/campaign-5.3.3-2026-11-26.md), and its CPU per
 * message then includes the compiling.
 * <p>
 * {@code rate}: msg/s of the warm-up load, 0 unpaced, {@link #MEASURED_RATE} the measured load's. A low measured rate
 * compiles the send path slowly (an idle 5.5.1 master was still compiling 3 minutes after boot), and a broker that has run
 * at that rate for hours has long compiled it: a warm-up at a higher rate reaches that state in the time a round has.
 */
public record Warmup(int maxSeconds, double untilJitBelow, int rate) {

    /** {@link #rate()} meaning "as fast as the measured load". */
    public static final int MEASURED_RATE = -1;
    public static final Warmup NONE = new Warmup(0, 0);
    /** Long enough to measure the JIT's share with 10 ms ticks over a few threads, short enough not to overshoot much. */
    public static final int SLICE_SECONDS = 15;
    /** Slices in a row under the share that end the warm-up: the JIT's share jumps back now and then. */
    public static final int WARM_SLICES = 2;

    public Warmup {
        if (maxSeconds < 0 || untilJitBelow < 0 || untilJitBelow >= 1 || rate < MEASURED_RATE) {
            throw new IllegalArgumentException("warm-up of " + maxSeconds + " s at " + rate + " msg/s until the JIT is below "
                    + untilJitBelow);
        }
    }

    /** A warm-up at the measured load's rate. */
    public Warmup(int maxSeconds, double untilJitBelow) {
        this(maxSeconds, untilJitBelow, MEASURED_RATE);
    }

    /** The warm-up load's msg/s (0 unpaced) when the measured load runs at {@code measuredRate}. */
    public int rateFor(int measuredRate) {
        return rate == MEASURED_RATE ? measuredRate : rate;
    }

    /** Slices in a row under the share after one more slice whose JIT share was {@code share} (-1: not measured). */
    public int warmSlicesAfter(int warmSlices, double share) {
        return share >= 0 && share < untilJitBelow ? warmSlices + 1 : 0;
    }

    public boolean untilWarm() {
        return untilJitBelow > 0;
    }

    /**
     * "20 s" or "until the masters' JIT is below 5 % of their CPU, at most 180 s", and " at 2500 msg/s" (or " unpaced") when
     * the warm-up's rate is not the measured load's.
     */
    public String describe() {
        String length = untilWarm() ? String.format(Locale.ROOT, "until the masters' JIT is below %.0f %% of their CPU, at most %d s",
                100 * untilJitBelow, maxSeconds) : maxSeconds + " s";
        return rate == MEASURED_RATE ? length : length + (rate == 0 ? " unpaced" : " at " + rate + " msg/s");
    }
}
