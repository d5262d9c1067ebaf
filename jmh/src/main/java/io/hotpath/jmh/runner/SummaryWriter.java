package io.hotpath.jmh.runner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Turns JMH's {@code -rf json} output into a Markdown summary: a header describing the run, then per release line
 * ({@link LineMethods}) one table of its rows (its stock and its drop-ins, per benchmark and parameters) with score
 * (± error), B/op ({@code gc.alloc.rate.norm} from {@code -prof gc}) and the speed-up and B/op ratio against THAT
 * line's stock with the same benchmark and parameters from the same run (a drop-in two lines share is in both
 * tables); then the rows of no line (floors) without ratios. Every row whose error exceeds {@link #NOISY} of its score is marked, and the header counts
 * them.
 *
 * <p>Generic on purpose: it knows nothing of particular benchmarks, so any later {@code *Benchmark} class gets the
 * same treatment. Every figure comes from the JSON.
 */
public final class SummaryWriter {

    static final String ALLOC_NORM = "gc.alloc.rate.norm";
    /** Relative error above which a score is flagged as noisy. */
    static final double NOISY = 0.10;

    /** What the JSON does not say about the run; all optional except the date. */
    public static final class RunContext {
        String date = "";
        String command;
        String jmhArgs;
        String duration;
        String estimate;
        Integer cpus;
        Double idleBeforePercent;
        Double othersDuringPercent;
        String resultFile;
        String pinning;
        /** How the run was split into JMH invocations ({@link PartedRun}); null for one invocation. */
        String parts;
    }

    private final List<LineMethods> lines;
    private final String controlBenchmark;

    /**
     * @param controlBenchmark simple name of the benchmark class whose rows measure the machine itself (fixed code, no
     *        line's): the header states their errors as the run's noise floor, and they are not counted as noisy rows
     */
    public SummaryWriter(List<LineMethods> lines, String controlBenchmark) {
        this.lines = List.copyOf(lines);
        this.controlBenchmark = controlBenchmark;
    }

    public String write(String json, RunContext ctx) {
        JsonArray results = JsonParser.parseString(json).getAsJsonArray();
        Map<LineMethods, List<JsonObject>> byLine = new LinkedHashMap<>();
        List<JsonObject> others = new ArrayList<>();
        List<JsonObject> controls = new ArrayList<>();
        int noisy = 0;
        int unknown = 0;
        for (JsonElement e : results) {
            JsonObject r = e.getAsJsonObject();
            if (isControl(r)) {
                controls.add(r);
                continue;
            }
            // a drop-in shared by two lines (5.3.3's methods on 5.5.1) is in each line's table, against each stock
            List<LineMethods> ofRow = LineMethods.of(method(r), lines);
            for (LineMethods line : ofRow) {
                byLine.computeIfAbsent(line, k -> new ArrayList<>()).add(r);
            }
            if (ofRow.isEmpty()) {
                others.add(r);
            }
            noisy += noisy(r) ? 1 : 0;
            unknown += Double.isNaN(num(r.getAsJsonObject("primaryMetric"), "scoreError")) ? 1 : 0;
        }
        StringBuilder md = new StringBuilder(4096);
        header(md, results, ctx, noisy, results.size() - controls.size(), unknown, controlError(controls));
        line(md, "Machine floor", floor(controls));
        md.append('\n');
        md.append("Each line's drop-ins are compared with that line's own stock release, with the same benchmark and")
            .append(" parameters, in this run: speed-up = stock time / method time (> 1 is faster); B/op ratio =")
            .append(" method B/op / stock B/op (< 1 allocates less). Errors are JMH's 99.9 % confidence half-widths.\n");
        for (LineMethods line : lines) {
            if (byLine.containsKey(line)) {
                lineTable(md, line, byLine.get(line));
            }
        }
        if (!others.isEmpty()) {
            md.append("\n## Rows of no line (no ratios)\n\n");
            table(md, null, groups(others));
        }
        if (!controls.isEmpty()) {
            md.append("\n## Machine control (fixed code, no line's: the run's noise floor)\n\n");
            table(md, null, groups(controls));
        }
        return md.toString();
    }

    private boolean isControl(JsonObject r) {
        return simpleName(className(r)).equals(controlBenchmark);
    }

    /**
     * The control rows' relative errors: a line's row cannot be expected to be quieter than the control of its kind
     * measured in the same run, so a noisy row beside a noisy control is the machine's, not the benchmark's.
     */
    static String floor(List<JsonObject> controls) {
        if (controls.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (JsonObject r : controls) {
            double rel = relativeError(r);
            parts.add(method(r) + (Double.isNaN(rel) ? " without an error estimate"
                : String.format(Locale.ROOT, " %.0f %%", rel * 100) + (rel > NOISY ? " **noisy**" : "")));
        }
        return "errors of the control rows (fixed code, no RocketMQ: see the last table): " + String.join(", ", parts);
    }

    // ---------------------------------------------------------------- header

    private void header(StringBuilder md, JsonArray results, RunContext ctx, int noisy, int lineRows, int unknown,
                        double controlError) {
        md.append("# JMH summary\n\n");
        line(md, "Date", ctx.date);
        if (results.size() > 0) {
            JsonObject first = results.get(0).getAsJsonObject();
            line(md, "JVM", str(first, "vmName") + " " + str(first, "vmVersion") + " (JDK " + str(first, "jdkVersion")
                + "), " + str(first, "jvm") + "; JMH " + str(first, "jmhVersion"));
            line(md, "Settings", distinct(results, SummaryWriter::settings));
            line(md, "Fork JVM args", distinct(results, r -> "`" + join(r.getAsJsonArray("jvmArgs")) + "`"));
        }
        line(md, "Command", ctx.command == null ? null : "`" + ctx.command + "`");
        line(md, "JMH arguments", ctx.jmhArgs == null ? null : "`" + ctx.jmhArgs + "`");
        line(md, "JMH invocations", ctx.parts);
        line(md, "Duration", ctx.duration == null ? null
            : ctx.duration + (ctx.estimate == null ? "" : " (estimated " + ctx.estimate + ")"));
        line(md, "Machine", machine(ctx));
        line(md, "Fork CPU", ctx.pinning);
        line(md, "Raw results", ctx.resultFile);
        line(md, "Noisy rows", noisy + " of " + lineRows + " (error above " + Math.round(NOISY * 100)
            + " % of the score, marked **noisy**: do not quote them)"
            + (unknown == 0 ? "" : "; " + unknown + " without an error estimate (too few iterations), not quotable either")
            + (controlError > NOISY ? String.format(Locale.ROOT, "; the machine control's own error reached %.0f %%:"
                + " errors under %d %% lie below this run's floor", controlError * 100, Math.round(NOISY * 100)) : ""));
    }

    /** The largest relative error of the control rows; 0 without any. */
    static double controlError(List<JsonObject> controls) {
        double max = 0;
        for (JsonObject r : controls) {
            double rel = relativeError(r);
            if (!Double.isNaN(rel)) {
                max = Math.max(max, rel);
            }
        }
        return max;
    }

    private static String settings(JsonObject r) {
        return str(r, "forks") + " forks x (" + str(r, "warmupIterations") + " warmup x " + str(r, "warmupTime") + " + "
            + str(r, "measurementIterations") + " measurement x " + str(r, "measurementTime") + "), mode "
            + str(r, "mode") + ", " + str(r, "threads") + " thread(s)";
    }

    static String machine(RunContext ctx) {
        if (ctx.idleBeforePercent == null && ctx.othersDuringPercent == null) {
            return ctx.cpus == null ? null : ctx.cpus + " CPUs; load unknown (no /proc/stat)";
        }
        StringBuilder s = new StringBuilder();
        if (ctx.cpus != null) {
            s.append(ctx.cpus).append(" CPUs; ");
        }
        boolean quiet = true;
        if (ctx.idleBeforePercent != null) {
            s.append(String.format(Locale.ROOT, "%.1f %% idle right before the run", ctx.idleBeforePercent));
            quiet = ctx.idleBeforePercent >= 90.0;
        }
        if (ctx.othersDuringPercent != null) {
            s.append(ctx.idleBeforePercent != null ? ", " : "")
                .append(String.format(Locale.ROOT, "other processes used %.1f %% of all CPUs during it",
                    ctx.othersDuringPercent));
            quiet &= ctx.othersDuringPercent <= 10.0;
        }
        s.append(quiet ? " -> **quiet**" : " -> **NOT quiet: absolute numbers are inflated, ratios noisy**");
        return s.toString();
    }

    // ---------------------------------------------------------------- tables

    /** The rows of one benchmark class, mode and parameter combination. */
    static final class Group {
        final String className;
        final String mode;
        final String params;
        final List<JsonObject> rows = new ArrayList<>();

        Group(String className, String mode, String params) {
            this.className = className;
            this.mode = mode;
            this.params = params;
        }
    }

    /** Groups in JMH's order (first appearance). */
    static List<Group> groups(List<JsonObject> results) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (JsonObject r : results) {
            String className = className(r);
            String params = params(r);
            String mode = str(r, "mode");
            groups.computeIfAbsent(className + '\0' + mode + '\0' + params, k -> new Group(className, mode, params))
                .rows.add(r);
        }
        return new ArrayList<>(groups.values());
    }

    private void lineTable(StringBuilder md, LineMethods line, List<JsonObject> rows) {
        md.append("\n## ").append(line.release()).append(" line: ").append(String.join(", ", line.dropIns()))
            .append(" vs ").append(line.stock()).append("\n\n");
        table(md, line, groups(rows));
    }

    /** One table of the groups' rows; with a line, its stock first in each group and ratios against it. */
    private void table(StringBuilder md, LineMethods line, List<Group> groups) {
        String unit = str(groups.get(0).rows.get(0).getAsJsonObject("primaryMetric"), "scoreUnit");
        md.append("| benchmark | parameters | method | ").append(unit).append(" | ± error | B/op |");
        if (line != null) {
            md.append(" speed-up vs ").append(line.stock()).append(" | B/op vs ").append(line.stock()).append(" |");
        }
        md.append('\n').append("|---|---|---|---:|---:|---:|").append(line != null ? "---:|---:|" : "").append('\n');
        for (Group g : groups) {
            JsonObject base = null;
            List<JsonObject> rows = g.rows;
            if (line != null) {
                rows = ordered(line, g.rows);
                base = method(rows.get(0)).equals(line.stock()) ? rows.get(0) : null;
            }
            String params = g.params.isEmpty() ? "" : g.params;
            if (!"avgt".equals(g.mode)) {
                params += (params.isEmpty() ? "" : ", ") + "mode " + g.mode;
            }
            for (JsonObject r : rows) {
                JsonObject pm = r.getAsJsonObject("primaryMetric");
                double score = num(pm, "score");
                double error = num(pm, "scoreError");
                Double bytes = allocNorm(r);
                String rowUnit = str(pm, "scoreUnit");
                md.append("| ").append(simpleName(g.className)).append(" | ").append(params).append(" | ")
                    .append(method(r)).append(" | ").append(fmt(score)).append(rowUnit.equals(unit) ? "" : " " + rowUnit)
                    .append(" | ").append(error(score, error))
                    .append(" | ").append(bytes == null ? "n/a" : fmtBytes(bytes) + forkSpread(r)).append(" |");
                if (line != null) {
                    if (base == null) {
                        md.append(" n/a (no ").append(line.stock()).append(" in this run) | n/a |");
                    } else {
                        double baseScore = num(base.getAsJsonObject("primaryMetric"), "score");
                        Double baseBytes = allocNorm(base);
                        md.append(' ').append(ratio(speedUp(g.mode, baseScore, score))).append(" | ")
                            .append(bytes == null || baseBytes == null || baseBytes < 0.5 ? "n/a" : ratio(bytes / baseBytes))
                            .append(" |");
                    }
                }
                md.append('\n');
            }
        }
    }

    /** The line's stock first, then its drop-ins in the line's order. */
    private static List<JsonObject> ordered(LineMethods line, List<JsonObject> rows) {
        List<String> order = new ArrayList<>();
        order.add(line.stock());
        order.addAll(line.dropIns());
        List<JsonObject> out = new ArrayList<>(rows);
        out.sort(Comparator.comparingInt(r -> order.indexOf(method(r))));
        return out;
    }

    /** Whether the row's error exceeds {@link #NOISY} of its score (a row without an error estimate is not). */
    static boolean noisy(JsonObject r) {
        double rel = relativeError(r);
        return !Double.isNaN(rel) && rel > NOISY;
    }

    /** The row's error as a share of its score; NaN without an error estimate. */
    static double relativeError(JsonObject r) {
        JsonObject pm = r.getAsJsonObject("primaryMetric");
        return num(pm, "scoreError") / Math.abs(num(pm, "score"));
    }

    /** > 1 means faster than the base, whatever the mode. */
    static double speedUp(String mode, double baseScore, double score) {
        return "thrpt".equals(mode) ? score / baseScore : baseScore / score;
    }

    static Double allocNorm(JsonObject r) {
        JsonObject sm = r.getAsJsonObject("secondaryMetrics");
        if (sm == null || !sm.has(ALLOC_NORM)) {
            return null;
        }
        return num(sm.getAsJsonObject(ALLOC_NORM), "score");
    }

    /**
     * B/op of each fork, when forks disagree by more than 8 B and 1 %: a fork where the JIT did not
     * remove an allocation (reflective instantiation may or may not be optimised away per fork).
     */
    static String forkSpread(JsonObject r) {
        JsonObject norm = r.getAsJsonObject("secondaryMetrics").getAsJsonObject(ALLOC_NORM);
        JsonArray raw = norm.getAsJsonArray("rawData");
        if (raw == null || raw.size() < 2) {
            return "";
        }
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (JsonElement fork : raw) {
            double sum = 0;
            int n = 0;
            for (JsonElement v : fork.getAsJsonArray()) {
                sum += v.getAsDouble();
                n++;
            }
            if (n > 0) {
                min = Math.min(min, sum / n);
                max = Math.max(max, sum / n);
            }
        }
        return max - min > 8 && max - min > 0.01 * max ? " (forks " + fmtBytes(min) + "..." + fmtBytes(max) + ")" : "";
    }

    // ---------------------------------------------------------------- formatting

    static String method(JsonObject r) {
        String b = str(r, "benchmark");
        return b.substring(b.lastIndexOf('.') + 1);
    }

    /** The benchmark class of a row: its {@code benchmark} without the method. */
    private static String className(JsonObject r) {
        String benchmark = str(r, "benchmark");
        return benchmark.substring(0, Math.max(0, benchmark.lastIndexOf('.')));
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String params(JsonObject r) {
        JsonObject p = r.getAsJsonObject("params");
        if (p == null) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, JsonElement> e : p.entrySet()) {
            s.append(s.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(e.getValue().getAsString());
        }
        return s.toString();
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 1000 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
    }

    static String fmtBytes(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String error(double score, double error) {
        if (Double.isNaN(error)) {
            return "n/a";
        }
        double rel = error / Math.abs(score);
        return fmt(error) + String.format(Locale.ROOT, " (%.0f %%)", rel * 100) + (rel > NOISY ? " **noisy**" : "");
    }

    static String ratio(double r) {
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2fx", r);
    }

    private static void line(StringBuilder md, String key, String value) {
        if (value != null && !value.isEmpty()) {
            md.append("- ").append(key).append(": ").append(value).append('\n');
        }
    }

    private interface Describer {
        String describe(JsonObject r);
    }

    /** The value when all results agree, else each distinct value once. */
    private static String distinct(JsonArray results, Describer d) {
        List<String> seen = new ArrayList<>();
        for (JsonElement e : results) {
            String v = d.describe(e.getAsJsonObject());
            if (!seen.contains(v)) {
                seen.add(v);
            }
        }
        return seen.size() == 1 ? seen.get(0) : "varies: " + String.join("; ", seen);
    }

    private static String join(JsonArray a) {
        if (a == null) {
            return "";
        }
        List<String> s = new ArrayList<>();
        for (JsonElement e : a) {
            s.add(e.getAsString());
        }
        return String.join(" ", s);
    }

    private static String str(JsonObject o, String key) {
        JsonElement e = o == null ? null : o.get(key);
        return e == null || e.isJsonNull() ? "?" : e.getAsString();
    }

    /** JMH writes NaN as the string "NaN", which Gson parses too. */
    private static double num(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e == null || e.isJsonNull() ? Double.NaN : e.getAsDouble();
    }
}
