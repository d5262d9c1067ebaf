package io.hotpath.jmh.results;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Result section of one patch message, written from a committed JMH result file: a header naming the file, the
 * JMH and JDK versions, the run's settings and the command that made it, the patch's notes, then one line per quoted
 * figure pair:
 * <pre>
 * - PropertiesEncodeBenchmark corpus=small5: upstream533 125.6 (+-9 %) -&gt; hotpath520 77.9 (+-7 %) ns/op; 264 -&gt; 144 B/op
 * </pre>
 * ns/op with one decimal (none from 1000 on), JMH's error in whole percent of the score, B/op
 * ({@code gc.alloc.rate.norm}) in whole bytes; each rounded half up. broker-dist's PatchFreshnessTest recomputes every
 * figure from the file at the precision it is printed with.
 *
 * <p>Only {@link Quotable} pairs are quoted. A comparison the file has no quotable pair of is named on one line,
 * "Not quoted, ...", with the reason; when none of the patch's pairs is quotable, the Result says so and quotes
 * nothing: {@code Result (JMH): no quotable JMH run of this line yet (...)}.
 */
public final class ResultSection {

    /** The Result of a patch none of whose comparisons has a quotable pair in the file. */
    public static final String NONE = "Result (JMH): no quotable JMH run of this line yet";

    private ResultSection() {
    }

    /**
     * @param patch      patch number, {@code 0001}
     * @param resultFile the JSON's path from the repository root, {@code docs/results/jmh-4.9.0-2026-11-26.json}
     * @param command    the command that made it, for the header
     */
    public static String write(LineQuotes quotes, String patch, JmhResults results, String resultFile, String command) {
        List<LineQuotes.Comparison> comparisons = quotes.comparisons(patch);
        if (comparisons.isEmpty()) {
            throw new IllegalArgumentException("patch " + patch + " of line " + quotes.line + " quotes nothing: add its"
                + " comparisons to jmh/src/main/resources/io/hotpath/jmh/results/" + quotes.line + ".quotes");
        }
        List<String> figures = new ArrayList<>();
        List<String> unquoted = new ArrayList<>();
        Set<String> settings = new LinkedHashSet<>();
        for (LineQuotes.Comparison c : comparisons) {
            for (String value : c.values) {
                String what = c.benchmark + " " + c.param + "=" + value;
                Optional<JmhResults.Row> stock = results.find(c.benchmark, c.stock, c.param, value);
                Optional<JmhResults.Row> patched = results.find(c.benchmark, c.patched, c.param, value);
                if (stock.isEmpty() || patched.isEmpty()) {
                    unquoted.add(what + " (not in this run)");
                    continue;
                }
                List<String> why = new ArrayList<>();
                for (JmhResults.Row r : List.of(stock.get(), patched.get())) {
                    if (!"ns/op".equals(r.unit) || Double.isNaN(r.bytesPerOp)) {
                        throw new IllegalArgumentException(resultFile + ": " + r.benchmark + "." + r.method
                            + " was not measured in ns/op with -prof gc");
                    }
                    for (String problem : Quotable.problems(r)) {
                        why.add(r.method + ": " + problem);
                    }
                }
                if (!why.isEmpty()) {
                    unquoted.add(what + " (" + String.join(", ", why) + ")");
                    continue;
                }
                JmhResults.Row s = stock.get();
                JmhResults.Row p = patched.get();
                settings.add(settings(s));
                settings.add(settings(p));
                figures.add("- " + what + ": "
                    + c.stock + " " + nanos(s.score) + " (+-" + percent(s.error, s.score) + " %) -> "
                    + c.patched + " " + nanos(p.score) + " (+-" + percent(p.error, p.score) + " %) ns/op; "
                    + bytes(s.bytesPerOp) + " -> " + bytes(p.bytesPerOp) + " B/op");
            }
        }
        if (figures.isEmpty()) {
            return NONE + " (" + resultFile + ": " + String.join("; ", unquoted) + ").\n";
        }
        if (settings.size() != 1) {
            throw new IllegalArgumentException(resultFile + ": the quoted rows ran with different settings " + settings);
        }
        StringBuilder s = new StringBuilder();
        s.append("Result (").append(settings.iterator().next()).append(", -prof gc: ").append(resultFile)
            .append(" from `").append(command)
            .append("`; stock -> patched, ns/op (+- JMH's 99.9 % error) and B/op):\n");
        for (String note : quotes.notes(patch)) {
            s.append(note).append('\n');
        }
        for (String f : figures) {
            s.append(f).append('\n');
        }
        if (!unquoted.isEmpty()) {
            s.append("Not quoted, no quotable row in this run: ").append(String.join("; ", unquoted)).append(".\n");
        }
        return s.toString();
    }

    /**
     * The command that made a result file, as the summary beside it ({@code <name>.md}, "- Command: `...`") says:
     * the one the user typed; {@code bin/hotpath jmh --line <line>} when there is no summary.
     */
    public static String command(Path json, String line) throws IOException {
        String name = json.getFileName().toString();
        Path md = json.resolveSibling(name.substring(0, name.length() - ".json".length()) + ".md");
        if (name.endsWith(".json") && Files.isRegularFile(md)) {
            for (String l : Files.readAllLines(md, StandardCharsets.UTF_8)) {
                if (l.startsWith("- Command: `")) {
                    String typed = l.substring("- Command: `".length());
                    return typed.substring(0, typed.indexOf('`'));
                }
            }
        }
        return "bin/hotpath jmh --line " + line;
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
