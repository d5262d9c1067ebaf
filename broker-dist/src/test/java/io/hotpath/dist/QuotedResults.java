package io.hotpath.dist;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a patch message's Result against the JMH result file it names, figure by figure. The Result's format (written
 * by {@code bin/hotpath jmh --line <release> --write-results <file>}, jmh's ResultSection):
 * <pre>
 * Result (JMH 1.37, JDK 17.0.15, 4 forks x (8 + 4) x 1 s, -prof gc: docs/results/jmh-5.5.1-2026-11-27.json from ...):
 * a note without figures
 * - PropertiesEncodeBenchmark corpus=small5: upstream551 118.6 (+-5 %) -&gt; hotpath520 87.9 (+-4 %) ns/op; 264 -&gt; 144 B/op
 * </pre>
 * Every printed figure is recomputed from the file at the precision it is printed with (ns/op score, JMH's error as a
 * whole percent of the score, {@code gc.alloc.rate.norm} B/op), rounding half up; the header's settings must be those
 * of every quoted row. A quoted row must be quotable, read from the file's own run parameters: JMH's error at most
 * {@link #MAX_ERROR_PERCENT} % of the score, at least {@link #MIN_FORKS} forks, {@link #MIN_WARMUP_ITERATIONS} warm-up
 * iterations of at least 1 s (jmh/README.md: the 3 s warm-up let forks recompile after it) and
 * {@link #MIN_MEASUREMENT_ITERATIONS} measurement iterations of at least 1 s: the project's own settings
 * (jmh's AbstractBenchmark). A patch whose subject says "faster" must quote at least one pair, and every quoted pair
 * faster beyond both errors (the patched score plus its error under the stock score minus its error). Any other line
 * that reads like a figure ({@code ns/op}, {@code B/op}, {@code ->}) is a problem: a figure the check cannot recompute.
 * Written apart from jmh's writer on purpose, so that neither is the other's oracle.
 *
 * <p>A patch with no quotable run says so and quotes nothing: {@code Result (JMH): no quotable JMH run of this line
 * yet ...}.
 *
 * <p>A patch whose effect is end to end (a threading switch) quotes a campaign file instead:
 * <pre>
 * Result (campaign, 3 rounds per arm, 3000 msg/s offered: docs/results/screen-x-4.9.8-2026-11-27.json from ...):
 * - masterCpuMicrosPerMsg: patched 300.1 -&gt; patched+tuned 250.2 (A/A spread 12 %, resolved)
 * </pre>
 * Each figure is the file's median of that metric for the baseline arm and for the other arm, the other arm's A/A
 * spread as a whole percent, and the campaign's own verdict (resolved or not resolved); the header's rounds per arm
 * (at least {@link #MIN_ROUNDS}) and offered rate must be the file's.
 */
final class QuotedResults {

    static final int MIN_FORKS = 4;
    static final int MIN_WARMUP_ITERATIONS = 8;
    static final int MIN_MEASUREMENT_ITERATIONS = 4;
    static final double MIN_ITERATION_SECONDS = 1;
    /** A row whose error is over this share of its score is noisy: its forks disagree, so its mean decides nothing. */
    static final double MAX_ERROR_PERCENT = 10;
    static final String NONE = "Result (JMH): no quotable JMH run of this line yet";
    private static final Pattern FASTER = Pattern.compile("\\bfaster\\b", Pattern.CASE_INSENSITIVE);
    /** A campaign with fewer rounds per arm cannot separate two arms from the A/A spread at all. */
    static final int MIN_ROUNDS = 3;
    static final String FILES = "docs/results/";

    private static final Pattern HEADER = Pattern.compile("^Result \\(JMH (\\S+), JDK (\\S+), (\\d+) forks x \\((\\d+) \\+ (\\d+)\\)"
        + " x (\\d+ \\w+), -prof gc: (" + Pattern.quote(FILES) + "jmh-[\\w.-]+\\.json)\\b.*\\):$");
    private static final String NUMBER = "(\\d+(?:\\.\\d+)?)";
    private static final Pattern FIGURES = Pattern.compile("^- (\\w+Benchmark) (\\w+)=(\\w+): (\\w+) " + NUMBER
        + " \\(\\+-(\\d+) %\\) -> (\\w+) " + NUMBER + " \\(\\+-(\\d+) %\\) ns/op; (\\d+) -> (\\d+) B/op$");

    private static final Pattern CAMPAIGN_HEADER = Pattern.compile("^Result \\(campaign, (\\d+) rounds per arm, (\\d+) msg/s"
        + " offered: (" + Pattern.quote(FILES) + "[\\w.+-]+\\.json)\\b.*\\):$");
    private static final Pattern CAMPAIGN_FIGURES = Pattern.compile("^- (\\w+): (\\S+) " + NUMBER + " -> (\\S+) " + NUMBER
        + " \\(A/A spread (\\d+) %, (resolved|not resolved)\\)$");

    private QuotedResults() {
    }

    /**
     * The Result section: from the line that starts with "Result (" to the "---" line that ends the message, or to the
     * end of a message without it (PatchGenerator.messagePart); trailing empty lines are no part of it.
     */
    static List<String> section(String message) {
        List<String> lines = List.of(message.split("\n", -1));
        int start = -1;
        int end = lines.size();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Result (")) {
                start = i;
            } else if (lines.get(i).equals("---") && start >= 0) {
                end = i;
                break;
            }
        }
        if (start < 0) {
            return List.of();
        }
        while (end > start + 1 && lines.get(end - 1).isBlank()) {
            end--;
        }
        return lines.subList(start, end);
    }

    /** Every way the message's Result differs from the file it names; empty when each figure is the file's. */
    static List<String> problems(String message, Path projectRoot) {
        List<String> problems = new ArrayList<>();
        List<String> section = section(message);
        if (section.isEmpty()) {
            problems.add("no Result section ('Result (' ... '---')");
            return problems;
        }
        Matcher campaign = CAMPAIGN_HEADER.matcher(section.get(0));
        if (campaign.matches()) {
            campaignProblems(campaign, section.subList(1, section.size()), projectRoot, problems);
            return problems;
        }
        boolean faster = FASTER.matcher(subject(message)).find();
        if (section.get(0).startsWith(NONE)) {
            for (String line : section) {
                if (line.contains("ns/op") || line.contains("B/op") || line.contains("->")) {
                    problems.add("a Result that quotes no run has a figure: " + line);
                }
            }
            if (faster) {
                problems.add("the subject says faster, and the Result quotes no run: " + subject(message));
            }
            return problems;
        }
        Matcher header = HEADER.matcher(section.get(0));
        if (!header.matches()) {
            problems.add("the Result quotes no " + FILES + "jmh-*.json in the form 'Result (JMH <v>, JDK <v>, <n> forks x"
                + " (<w> + <i>) x <t>, -prof gc: " + FILES + "jmh-<line>-<date>.json ...):', nor a campaign file in the form"
                + " 'Result (campaign, <k> rounds per arm, <r> msg/s offered: " + FILES + "<name>.json ...):', got: "
                + section.get(0));
            return problems;
        }
        Path file = projectRoot.resolve(header.group(7));
        if (!Files.isRegularFile(file)) {
            problems.add("the Result quotes " + header.group(7) + ", which is not committed");
            return problems;
        }
        List<JsonObject> rows = rows(file);
        String settings = "JMH " + header.group(1) + ", JDK " + header.group(2) + ", " + header.group(3) + " forks x ("
            + header.group(4) + " + " + header.group(5) + ") x " + header.group(6);
        if (Integer.parseInt(header.group(3)) < MIN_FORKS || seconds(header.group(6)) < 1) {
            problems.add("not a quotable run (>= " + MIN_FORKS + " forks, >= 1 s iterations): " + settings);
        }
        int figures = 0;
        for (String line : section.subList(1, section.size())) {
            Matcher f = FIGURES.matcher(line);
            if (f.matches()) {
                figures++;
                check(f, rows, settings, header.group(7), problems);
                if (faster) {
                    fasterBeyondErrors(f, rows, problems);
                }
            } else if (line.contains("ns/op") || line.contains("B/op") || line.contains("->")) {
                problems.add("a figure not in the form '- <Benchmark> <param>=<value>: <stock> <ns> (+-<e> %) -> <patched>"
                    + " <ns> (+-<e> %) ns/op; <B> -> <B> B/op': " + line);
            }
        }
        if (figures == 0) {
            problems.add("the Result quotes no figure from " + header.group(7));
        }
        return problems;
    }

    /** The message's subject, its continuation lines joined (format-patch folds it). */
    static String subject(String message) {
        StringBuilder subject = new StringBuilder();
        boolean in = false;
        for (String line : message.split("\n", -1)) {
            if (line.startsWith("Subject: ")) {
                subject.append(line.substring("Subject: ".length()));
                in = true;
            } else if (in && line.startsWith(" ")) {
                subject.append(line);
            } else if (in) {
                break;
            }
        }
        return subject.toString();
    }

    /** A pair under a subject that says faster: the patched row's whole error interval under the stock row's. */
    private static void fasterBeyondErrors(Matcher f, List<JsonObject> rows, List<String> problems) {
        JsonObject stock = find(rows, f.group(1), f.group(4), f.group(2), f.group(3));
        JsonObject patched = find(rows, f.group(1), f.group(7), f.group(2), f.group(3));
        if (stock == null || patched == null || !hasError(stock) || !hasError(patched)) {
            return; // check() names what is missing
        }
        JsonObject s = stock.getAsJsonObject("primaryMetric");
        JsonObject p = patched.getAsJsonObject("primaryMetric");
        double slowestPatched = p.get("score").getAsDouble() + p.get("scoreError").getAsDouble();
        double fastestStock = s.get("score").getAsDouble() - s.get("scoreError").getAsDouble();
        if (slowestPatched >= fastestStock) {
            problems.add("the subject says faster, but " + f.group(1) + " " + f.group(2) + "=" + f.group(3) + " is not faster"
                + " beyond the errors: " + f.group(7) + " up to " + round(slowestPatched) + " ns/op, " + f.group(4)
                + " down to " + round(fastestStock));
        }
    }

    private static boolean hasError(JsonObject row) {
        return row.getAsJsonObject("primaryMetric").get("scoreError").getAsJsonPrimitive().isNumber();
    }

    private static String round(double v) {
        return BigDecimal.valueOf(v).setScale(1, RoundingMode.HALF_UP).toPlainString();
    }

    /** Every way the row's own run parameters fall short of a quotable run. */
    static List<String> unquotable(JsonObject row) {
        List<String> why = new ArrayList<>();
        JsonObject primary = row.getAsJsonObject("primaryMetric");
        if (hasError(row)) {
            double percent = 100 * primary.get("scoreError").getAsDouble() / primary.get("score").getAsDouble();
            if (percent > MAX_ERROR_PERCENT) {
                why.add("its error is " + round(percent) + " % of the score (noisy: over " + (int) MAX_ERROR_PERCENT + " %)");
            }
        }
        if (row.get("forks").getAsInt() < MIN_FORKS) {
            why.add(row.get("forks").getAsInt() + " forks (under " + MIN_FORKS + ")");
        }
        int wi = row.get("warmupIterations").getAsInt();
        String wt = row.get("warmupTime").getAsString();
        if (wi < MIN_WARMUP_ITERATIONS || seconds(wt) < MIN_ITERATION_SECONDS) {
            why.add("warm-up " + wi + " x " + wt + " (under " + MIN_WARMUP_ITERATIONS + " x 1 s)");
        }
        int mi = row.get("measurementIterations").getAsInt();
        String mt = row.get("measurementTime").getAsString();
        if (mi < MIN_MEASUREMENT_ITERATIONS || seconds(mt) < MIN_ITERATION_SECONDS) {
            why.add("measurement " + mi + " x " + mt + " (under " + MIN_MEASUREMENT_ITERATIONS + " x 1 s)");
        }
        return why;
    }

    private static void campaignProblems(Matcher header, List<String> lines, Path projectRoot, List<String> problems) {
        String name = header.group(3);
        Path file = projectRoot.resolve(name);
        if (!Files.isRegularFile(file)) {
            problems.add("the Result quotes " + name + ", which is not committed");
            return;
        }
        JsonObject campaign;
        try {
            campaign = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int rounds = Integer.parseInt(header.group(1));
        if (rounds != campaign.get("rounds_per_arm").getAsInt()) {
            problems.add("the Result says " + rounds + " rounds per arm, " + name + " ran " + campaign.get("rounds_per_arm"));
        }
        if (rounds < MIN_ROUNDS) {
            problems.add("not a quotable campaign (>= " + MIN_ROUNDS + " rounds per arm): " + rounds);
        }
        if (Integer.parseInt(header.group(2)) != campaign.get("rate").getAsInt()) {
            problems.add("the Result says " + header.group(2) + " msg/s offered, " + name + " offered " + campaign.get("rate"));
        }
        String baseline = campaign.get("baseline").getAsString();
        int figures = 0;
        for (String line : lines) {
            Matcher f = CAMPAIGN_FIGURES.matcher(line);
            if (!f.matches()) {
                if (line.contains("->") || line.startsWith("- ")) {
                    problems.add("a figure not in the form '- <metric>: <baseline arm> <median> -> <arm> <median> (A/A spread"
                        + " <s> %, resolved|not resolved)': " + line);
                }
                continue;
            }
            figures++;
            String metric = f.group(1);
            if (!f.group(2).equals(baseline)) {
                problems.add(metric + ": compared with " + f.group(2) + ", but " + name + "'s baseline is " + baseline);
            }
            JsonObject base = comparison(campaign, metric, f.group(2));
            JsonObject arm = comparison(campaign, metric, f.group(4));
            if (base == null || arm == null) {
                problems.add(name + " has no " + metric + " of " + (base == null ? f.group(2) : f.group(4)));
                continue;
            }
            expect(problems, metric + " of " + f.group(2), f.group(3), base.get("median").getAsDouble());
            expect(problems, metric + " of " + f.group(4), f.group(5), arm.get("median").getAsDouble());
            expect(problems, metric + " A/A spread %", f.group(6), 100 * arm.get("aaSpread").getAsDouble());
            boolean resolved = arm.has("resolved") && arm.get("resolved").getAsBoolean();
            if (resolved != f.group(7).equals("resolved")) {
                problems.add(metric + ": the Result says " + f.group(7) + ", " + name + " says "
                    + (arm.has("verdict") ? arm.get("verdict").getAsString() : "no verdict"));
            }
        }
        if (figures == 0) {
            problems.add("the Result quotes no figure from " + name);
        }
    }

    /** The campaign's comparison row of one metric and arm (a one-scenario campaign: the first scenario's). */
    private static JsonObject comparison(JsonObject campaign, String metric, String arm) {
        for (JsonElement e : campaign.getAsJsonArray("comparisons")) {
            JsonObject c = e.getAsJsonObject();
            if (c.get("metric").getAsString().equals(metric) && c.get("arm").getAsString().equals(arm)) {
                return c;
            }
        }
        return null;
    }

    private static void check(Matcher f, List<JsonObject> rows, String settings, String file, List<String> problems) {
        String benchmark = f.group(1);
        String param = f.group(2);
        String value = f.group(3);
        String[][] sides = {
            {f.group(4), f.group(5), f.group(6), f.group(10)},
            {f.group(7), f.group(8), f.group(9), f.group(11)}};
        for (String[] side : sides) {
            String what = benchmark + "." + side[0] + " " + param + "=" + value;
            JsonObject row = find(rows, benchmark, side[0], param, value);
            if (row == null) {
                problems.add(file + " has no " + what);
                continue;
            }
            String rowSettings = "JMH " + row.get("jmhVersion").getAsString() + ", JDK " + row.get("jdkVersion").getAsString()
                + ", " + row.get("forks").getAsInt() + " forks x (" + row.get("warmupIterations").getAsInt() + " + "
                + row.get("measurementIterations").getAsInt() + ") x " + row.get("measurementTime").getAsString();
            if (!rowSettings.equals(settings)) {
                problems.add(what + " ran with " + rowSettings + ", the Result says " + settings);
            }
            for (String why : unquotable(row)) {
                problems.add(what + " is not quotable: " + why);
            }
            JsonObject primary = row.getAsJsonObject("primaryMetric");
            if (!"ns/op".equals(primary.get("scoreUnit").getAsString())) {
                problems.add(what + " is in " + primary.get("scoreUnit").getAsString() + ", not ns/op");
            }
            double score = primary.get("score").getAsDouble();
            expect(problems, what + " ns/op", side[1], score);
            if (!primary.get("scoreError").getAsJsonPrimitive().isNumber()) {
                problems.add(what + " has no error estimate in the file (" + primary.get("scoreError") + ")");
            } else {
                expect(problems, what + " error %", side[2], 100 * primary.get("scoreError").getAsDouble() / score);
            }
            JsonObject secondary = row.getAsJsonObject("secondaryMetrics");
            if (secondary == null || !secondary.has("gc.alloc.rate.norm")) {
                problems.add(what + " has no gc.alloc.rate.norm (-prof gc)");
            } else {
                expect(problems, what + " B/op", side[3],
                    secondary.getAsJsonObject("gc.alloc.rate.norm").get("score").getAsDouble());
            }
        }
    }

    /** The printed figure must be the file's value rounded half up to as many decimals as it is printed with. */
    private static void expect(List<String> problems, String what, String printed, double actual) {
        int decimals = printed.contains(".") ? printed.length() - printed.indexOf('.') - 1 : 0;
        String recomputed = BigDecimal.valueOf(actual).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
        if (!recomputed.equals(printed)) {
            problems.add(what + ": the Result says " + printed + ", the file " + recomputed + " (" + actual + ")");
        }
    }

    private static JsonObject find(List<JsonObject> rows, String benchmark, String method, String param, String value) {
        for (JsonObject r : rows) {
            String name = r.get("benchmark").getAsString();
            JsonObject params = r.getAsJsonObject("params");
            if (name.endsWith("." + benchmark + "." + method) && params != null && params.has(param)
                && params.get(param).getAsString().equals(value)) {
                return r;
            }
        }
        return null;
    }

    private static List<JsonObject> rows(Path file) {
        try {
            List<JsonObject> rows = new ArrayList<>();
            for (JsonElement e : JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonArray()) {
                rows.add(e.getAsJsonObject());
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** JMH's time value ("1 s", "500 ms") in seconds. */
    private static double seconds(String time) {
        String[] parts = time.split(" ");
        double n = Double.parseDouble(parts[0]);
        return switch (parts[1]) {
            case "ns" -> n / 1e9;
            case "us" -> n / 1e6;
            case "s" -> n;
            case "ms" -> n / 1000;
            case "min" -> n * 60;
            default -> 0;
        };
    }
}
