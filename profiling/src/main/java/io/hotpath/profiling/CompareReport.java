package io.hotpath.profiling;

import java.util.Locale;

/**
 * Markdown table of one event's samples by {@link FrameFamily}: stock %, patched %, difference
 * in percentage points, each share taken of all samples of that build (both masters merged).
 */
public final class CompareReport {

    /** Above this share of samples in the JIT compiler, a profile is still warming up. */
    static final double JIT_WARMUP_PERCENT = 10;

    private CompareReport() {
    }

    public static String table(FamilyShares stock, FamilyShares patched) {
        StringBuilder md = new StringBuilder();
        md.append("| frame family | stock % | patched % | difference (pp) |\n");
        md.append("|---|---:|---:|---:|\n");
        for (FrameFamily family : FrameFamily.values()) {
            row(md, family.label(), stock, stock.samples(family), patched, patched.samples(family));
        }
        row(md, "other", stock, stock.other(), patched, patched.other());
        row(md, "*send path: samples under `*SendMessageProcessor`, any family*", stock, stock.sendPath(),
            patched, patched.sendPath());
        row(md, "*of which reflection under `decodeCommandCustomHeader`*", stock, stock.sendPathHeaderDecodeReflection(),
            patched, patched.sendPathHeaderDecodeReflection());
        md.append(String.format(Locale.ROOT, "| samples | %d | %d | |%n", stock.total(), patched.total()));
        return md.toString();
    }

    /**
     * A warning line when either build still spends over {@value #JIT_WARMUP_PERCENT} % of its
     * samples compiling: shares taken while the JIT warms up are not those of a steady state
     * (a fresh 4.9.0 cluster needed ~120 s of load here before the JIT settled), otherwise empty.
     */
    public static String warmupNote(FamilyShares stock, FamilyShares patched) {
        double s = stock.percent(stock.samples(FrameFamily.JIT_COMPILER));
        double p = patched.percent(patched.samples(FrameFamily.JIT_COMPILER));
        if (s <= JIT_WARMUP_PERCENT && p <= JIT_WARMUP_PERCENT) {
            return "";
        }
        return String.format(Locale.ROOT, "%n**Not steady state:** the JIT compiler took %.0f %% (stock) and %.0f %% (patched) of "
            + "the samples; profile after a longer warmup (`--warmup 120`) before reading the differences.%n", s, p);
    }

    private static void row(StringBuilder md, String label, FamilyShares stock, long stockSamples,
            FamilyShares patched, long patchedSamples) {
        double s = stock.percent(stockSamples);
        double p = patched.percent(patchedSamples);
        md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %+.2f |%n", label, s, p, p - s));
    }
}
