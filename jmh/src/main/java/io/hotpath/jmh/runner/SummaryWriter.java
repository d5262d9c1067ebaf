package io.hotpath.jmh.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Turns JMH's {@code -rf json} output into a Markdown summary: a header describing the run, then
 * one table per benchmark class, mode and parameter combination, with score (± error), B/op
 * ({@code gc.alloc.rate.norm} from {@code -prof gc}) and, when the group has a method named
 * {@link #baseline}, the speed-up and the B/op ratio against it from the same run.
 *
 * <p>Generic on purpose: it knows nothing of particular benchmarks, so any later
 * {@code *Benchmark} class gets the same treatment. Every figure comes from the JSON.
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
        String planNote;
        String duration;
        String estimate;
        Integer cpus;
        Double idleBeforePercent;
        Double othersDuringPercent;
        String resultFile;
    }

    private final String baseline;

    public SummaryWriter(String baseline) {
        this.baseline = baseline;
    }

    public String write(String json, RunContext ctx) {
        JsonArray results = JsonParser.parseString(json).getAsJsonArray();
        StringBuilder md = new StringBuilder(4096);
        header(md, results, ctx);
        for (Group g : groups(results)) {
            table(md, g);
        }
        return md.toString();
    }

    // ---------------------------------------------------------------- header

    private void header(StringBuilder md, JsonArray results, RunContext ctx) {
        md.append("# JMH summary\n\n");
        line(md, "Date", ctx.date);
        if (results.size() > 0) {
            JsonObject first = results.get(0).getAsJsonObject();
            line(md, "JVM", str(first, "vmName") + " " + str(first, "vmVersion") + " (JDK " + str(first, "jdkVersion")
                + "), " + str(first, "jvm") + "; JMH " + str(first, "jmhVersion"));
            line(md, "Settings", distinct(results, SummaryWriter::settings));
            line(md, "Fork JVM args", distinct(results, r -> "`" + join(r.getAsJsonArray("jvmArgs")) + "`"));
        }
        if (ctx.planNote != null && !ctx.planNote.isEmpty()) {
            line(md, "Note", ctx.planNote);
        }
        line(md, "Command", ctx.command == null ? null : "`" + ctx.command + "`");
        line(md, "JMH arguments", ctx.jmhArgs == null ? null : "`" + ctx.jmhArgs + "`");
        line(md, "Duration", ctx.duration == null ? null
            : ctx.duration + (ctx.estimate == null ? "" : " (estimated " + ctx.estimate + ")"));
        line(md, "Machine", machine(ctx));
        line(md, "Raw results", ctx.resultFile);
        md.append('\n');
        md.append("Speed-up = ").append(baseline).append(" time / method time (> 1 is faster); B/op ratio = method B/op / ")
            .append(baseline).append(" B/op (< 1 allocates less). Ratios compare results of this run only. ")
            .append("Errors are JMH's 99.9 % confidence half-widths; \"noisy\" marks an error above ")
            .append(Math.round(NOISY * 100)).append(" % of the score.\n");
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

    /** One table: a benchmark class, mode and parameter combination. */
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

    static List<Group> groups(JsonArray results) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (JsonElement e : results) {
            JsonObject r = e.getAsJsonObject();
            String benchmark = str(r, "benchmark");
            String className = benchmark.substring(0, Math.max(0, benchmark.lastIndexOf('.')));
            String params = params(r);
            String mode = str(r, "mode");
            groups.computeIfAbsent(className + '\0' + mode + '\0' + params, k -> new Group(className, mode, params))
                .rows.add(r);
        }
        return new ArrayList<>(groups.values());
    }

    private void table(StringBuilder md, Group g) {
        List<JsonObject> rows = ordered(g.rows);
        JsonObject base = null;
        for (JsonObject r : rows) {
            if (method(r).equals(baseline)) {
                base = r;
            }
        }
        md.append("\n## ").append(simpleName(g.className));
        if (!g.params.isEmpty()) {
            md.append(" · ").append(g.params);
        }
        if (!"avgt".equals(g.mode)) {
            md.append(" · mode ").append(g.mode);
        }
        md.append("\n\n");
        String unit = str(rows.get(0).getAsJsonObject("primaryMetric"), "scoreUnit");
        md.append("| method | ").append(unit).append(" | ± error | B/op |");
        if (base != null) {
            md.append(" speed-up vs ").append(baseline).append(" | B/op vs ").append(baseline).append(" |");
        }
        md.append('\n').append("|---|---:|---:|---:|").append(base != null ? "---:|---:|" : "").append('\n');
        for (JsonObject r : rows) {
            JsonObject pm = r.getAsJsonObject("primaryMetric");
            double score = num(pm, "score");
            double error = num(pm, "scoreError");
            Double bytes = allocNorm(r);
            md.append("| ").append(method(r)).append(" | ").append(fmt(score)).append(" | ").append(error(score, error))
                .append(" | ").append(bytes == null ? "n/a" : fmtBytes(bytes) + forkSpread(r)).append(" |");
            if (base != null) {
                double baseScore = num(base.getAsJsonObject("primaryMetric"), "score");
                Double baseBytes = allocNorm(base);
                md.append(' ').append(ratio(speedUp(g.mode, baseScore, score))).append(" | ")
                    .append(bytes == null || baseBytes == null || baseBytes < 0.5 ? "n/a" : ratio(bytes / baseBytes))
                    .append(" |");
            }
            md.append('\n');
        }
        if (base == null) {
            md.append("\n(no ").append(baseline).append(" method in this group: no ratios)\n");
        }
    }

    /** Baseline first, then the other upstream* methods, then the rest, each in JMH's order. */
    private List<JsonObject> ordered(List<JsonObject> rows) {
        List<JsonObject> out = new ArrayList<>(rows.size());
        for (int pass = 0; pass < 3; pass++) {
            for (JsonObject r : rows) {
                String m = method(r);
                int rank = m.equals(baseline) ? 0 : m.startsWith("upstream") ? 1 : 2;
                if (rank == pass) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** > 1 means faster than the baseline, whatever the mode. */
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
        return fmt(error) + String.format(Locale.ROOT, " (%.0f %%)", rel * 100) + (rel > NOISY ? " noisy" : "");
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
