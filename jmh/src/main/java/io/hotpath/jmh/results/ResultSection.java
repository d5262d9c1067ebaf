package io.hotpath.jmh.results;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Result section of one patch message, written from a committed JMH result file: a header naming the file, the
 * JMH and JDK versions and the run's settings, the patch's notes, then one line per quoted figure pair:
 * <pre>
 * - PropertiesEncodeBenchmark corpus=small5: upstream533 125.6 (+-11 %) -&gt; hotpath520 77.9 (+-7 %) ns/op; 264 -&gt; 144 B/op
 * </pre>
 * ns/op with one decimal (none from 1000 on), JMH's error in whole percent of the score, B/op
 * ({@code gc.alloc.rate.norm}) in whole bytes; each rounded half up. broker-dist's PatchFreshnessTest recomputes every
 * figure from the file at the precision it is printed with.
 */
public final class ResultSection {

    private ResultSection() {
    }

    /**
     * @param patch      patch number, {@code 0001}
     * @param resultFile the JSON's path from the repository root, {@code docs/results/jmh-4.9.0-2026-11-26.json}
     */
    public static String write(LineQuotes quotes, String patch, JmhResults results, String resultFile) {
        List<LineQuotes.Comparison> comparisons = quotes.comparisons(patch);
        if (comparisons.isEmpty()) {
            throw new IllegalArgumentException("patch " + patch + " of line " + quotes.line + " quotes nothing: add its"
                + " comparisons to jmh/src/main/resources/io/hotpath/jmh/results/" + quotes.line + ".quotes");
        }
        List<String> figures = new ArrayList<>();
        Set<String> settings = new LinkedHashSet<>();
        for (LineQuotes.Comparison c : comparisons) {
            for (String value : c.values) {
                JmhResults.Row stock = results.row(c.benchmark, c.stock, c.param, value);
                JmhResults.Row patched = results.row(c.benchmark, c.patched, c.param, value);
                for (JmhResults.Row r : new JmhResults.Row[] {stock, patched}) {
                    if (!"ns/op".equals(r.unit) || Double.isNaN(r.bytesPerOp)) {
                        throw new IllegalArgumentException(resultFile + ": " + r.benchmark + "." + r.method
                            + " was not measured in ns/op with -prof gc");
                    }
                    if (Double.isNaN(r.error)) {
                        throw new IllegalArgumentException(resultFile + ": " + r.benchmark + "." + r.method + " " + c.param
                            + "=" + value + " has no error estimate (a single measurement): not a quotable run");
                    }
                    settings.add(settings(r));
                }
                figures.add("- " + c.benchmark + " " + c.param + "=" + value + ": "
                    + c.stock + " " + nanos(stock.score) + " (+-" + percent(stock.error, stock.score) + " %) -> "
                    + c.patched + " " + nanos(patched.score) + " (+-" + percent(patched.error, patched.score) + " %) ns/op; "
                    + bytes(stock.bytesPerOp) + " -> " + bytes(patched.bytesPerOp) + " B/op");
            }
        }
        if (settings.size() != 1) {
            throw new IllegalArgumentException(resultFile + ": the quoted rows ran with different settings " + settings);
        }
        StringBuilder s = new StringBuilder();
        s.append("Result (").append(settings.iterator().next()).append(", -prof gc: ").append(resultFile)
            .append(" from `bin/hotpath jmh --line ").append(quotes.line)
            .append("`; stock -> patched, ns/op (+- JMH's 99.9 % error) and B/op):\n");
        for (String note : quotes.notes(patch)) {
            s.append(note).append('\n');
        }
        for (String f : figures) {
            s.append(f).append('\n');
        }
        return s.toString();
    }

    private static String settings(JmhResults.Row r) {
        return "JMH " + r.jmhVersion + ", JDK " + r.jdkVersion + ", " + r.forks + " forks x (" + r.warmupIterations
            + " + " + r.iterations + ") x " + r.time;
    }

    static String nanos(double score) {
        return BigDecimal.valueOf(score).setScale(score >= 1000 ? 0 : 1, RoundingMode.HALF_UP).toPlainString();
    }

    static String percent(double error, double score) {
        return BigDecimal.valueOf(100 * error / score).setScale(0, RoundingMode.HALF_UP).toPlainString();
    }

    static String bytes(double bytesPerOp) {
        return BigDecimal.valueOf(bytesPerOp).setScale(0, RoundingMode.HALF_UP).toPlainString();
    }
}
