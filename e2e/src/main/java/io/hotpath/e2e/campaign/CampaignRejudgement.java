package io.hotpath.e2e.campaign;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Committed campaign files judged again by today's {@link CampaignVerdicts}: every round of a campaign.json becomes the
 * {@link RoundFigures} a campaign run today would give, and each comparison's old verdict (as the file states it) stands
 * beside the new one. Reads only what the file records, so a figure is never re-measured or re-typed.
 */
public final class CampaignRejudgement {

    /** One comparison of one file: what the file said and what the rules say now. */
    public record Row(String scenario, String metric, String arm, int countedRounds, int baselineCountedRounds, Double baselineMedian,
                      Double median, Double ratio, Double p, Double pHolm, boolean oldResolved, String oldVerdict, boolean resolved,
                      String verdict) {
    }

    /** One file judged again. */
    public record FileJudgement(String file, List<String> arms, int rate, int roundsInFile, List<CampaignVerdicts.Exclusion> excluded,
                                Map<String, Integer> countedPerArm, int oldResolved, int stillResolved, int nowIndicative, List<Row> rows) {
    }

    /** The whole re-judgement, as verdicts-campaigns-DATE.json lists it. */
    public record Judgement(String rules, List<FileJudgement> files) {
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls().create();

    private CampaignRejudgement() {
    }

    public static Judgement judge(Path root, List<Path> files) {
        List<FileJudgement> judged = new ArrayList<>();
        for (Path file : files) {
            judged.add(judge(root, file));
        }
        return new Judgement(String.format(Locale.ROOT, "counted: passed, lossless, quiet, JIT below %.0f %% of the baseline's median"
                + " master CPU per message (the same us/msg in every arm); resolved: >= %d counted"
                + " rounds per arm, ranges apart, Holm-adjusted exact permutation p <= %.2f", 100 * io.hotpath.e2e.measure.RunMetrics.WARM_JIT_SHARE,
                CampaignVerdicts.MIN_ROUNDS, CampaignVerdicts.ALPHA), judged);
    }

    /** A campaign.json's rounds as its verdicts judge them today (the same JIT allowance in every arm). */
    public static List<RoundFigures> judgedRounds(JsonObject json) {
        return new CampaignVerdicts(rounds(json), arms(json), CampaignReport.METRICS, CampaignReport.JIT_BASIS).judged();
    }

    private static List<String> arms(JsonObject json) {
        List<String> arms = new ArrayList<>();
        json.getAsJsonArray("arms").forEach(a -> arms.add(a.getAsString()));
        return arms;
    }

    private static List<RoundFigures> rounds(JsonObject json) {
        List<RoundFigures> rounds = new ArrayList<>();
        json.getAsJsonArray("rounds").forEach(element -> rounds.add(figures(element.getAsJsonObject())));
        return rounds;
    }

    static FileJudgement judge(Path root, Path file) {
        JsonObject json = read(file);
        if (!json.has("rounds") || !json.has("arms") || !json.has("comparisons")) {
            throw new UsageException(file + " is not a campaign.json (no rounds, arms or comparisons)");
        }
        List<String> arms = arms(json);
        List<RoundFigures> rounds = rounds(json);
        CampaignVerdicts verdicts = new CampaignVerdicts(rounds, arms, CampaignReport.METRICS, CampaignReport.JIT_BASIS);
        Map<String, CampaignVerdicts.Comparison> now = new LinkedHashMap<>();
        for (String scenario : verdicts.scenarios()) {
            verdicts.comparisons(scenario).forEach(c -> now.put(c.scenario() + "|" + c.metric() + "|" + c.arm(), c));
        }
        List<Row> rows = new ArrayList<>();
        int oldResolved = 0;
        int stillResolved = 0;
        int nowIndicative = 0;
        for (JsonElement element : json.getAsJsonArray("comparisons")) {
            JsonObject old = element.getAsJsonObject();
            if (!old.has("verdict") || old.get("verdict").isJsonNull()) {
                continue;
            }
            String key = old.get("scenario").getAsString() + "|" + old.get("metric").getAsString() + "|" + old.get("arm").getAsString();
            CampaignVerdicts.Comparison c = now.get(key);
            if (c == null) {
                continue;
            }
            boolean wasResolved = old.has("resolved") && !old.get("resolved").isJsonNull() && old.get("resolved").getAsBoolean();
            boolean resolved = Boolean.TRUE.equals(c.resolved());
            oldResolved += wasResolved ? 1 : 0;
            stillResolved += wasResolved && resolved ? 1 : 0;
            nowIndicative += wasResolved && c.verdict().startsWith("indicative") ? 1 : 0;
            CampaignVerdicts.Comparison base = now.get(c.scenario() + "|" + c.metric() + "|" + arms.get(0));
            rows.add(new Row(c.scenario(), c.metric(), c.arm(), c.rounds(), base.rounds(), base.median(), c.median(), c.ratioToBaseline(),
                    c.p(), c.pHolm(), wasResolved, old.get("verdict").getAsString(), resolved, c.verdict()));
        }
        Map<String, Integer> counted = new LinkedHashMap<>();
        for (String arm : arms) {
            counted.put(arm, (int) verdicts.judged().stream().filter(r -> r.arm().equals(arm) && r.counts()).count());
        }
        return new FileJudgement(root.relativize(file.toAbsolutePath()).toString(), arms, json.has("rate") ? json.get("rate").getAsInt() : -1,
                rounds.size(), verdicts.exclusions(), counted, oldResolved, stillResolved, nowIndicative, rows);
    }

    /** One round of a campaign.json as the statistics see it. */
    public static RoundFigures figures(JsonObject round) {
        Map<String, Double> figures = new LinkedHashMap<>();
        for (CampaignReport.Metric metric : CampaignReport.METRICS) {
            JsonElement value = round.get(metric.key());
            figures.put(metric.key(), value == null || value.isJsonNull() ? null : value.getAsDouble());
        }
        JsonElement jit = round.get("masterJitShare");
        String machine = round.has("machine") ? round.get("machine").getAsString()
                : round.has("busyMachine") && round.get("busyMachine").getAsBoolean() ? "busy" : "unknown";
        return new RoundFigures(round.get("scenario").getAsString(), round.get("round").getAsInt(), round.get("arm").getAsString(),
                "PASS".equals(round.get("result").getAsString()), List.of(), round.has("lost") ? round.get("lost").getAsLong() : 0, machine,
                jit == null || jit.isJsonNull() ? null : jit.getAsDouble(), figures);
    }

    /** A result file as a JSON object; a one-line usage error when it cannot be read or is not JSON. */
    public static JsonObject read(Path file) {
        try {
            return JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        } catch (JsonParseException | IllegalStateException e) {
            throw new UsageException(file + " is not JSON: " + e.getMessage());
        }
    }

    /** A result file's name as a report shows it: relative to the repository when inside it, else absolute. */
    public static String relative(Path root, Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        Path base = root.toAbsolutePath().normalize();
        return absolute.startsWith(base) ? base.relativize(absolute).toString() : absolute.toString();
    }

    public static String json(Judgement judgement) {
        return GSON.toJson(judgement) + "\n";
    }

    public static String markdown(Judgement judgement, String command, String date, Path root, Path outDir) {
        StringBuilder out = new StringBuilder("# Committed campaigns judged by the verdict rules of " + date + "\n\n");
        out.append("Written by `").append(command).append("` from each file's own round records (nothing re-measured). Rules: ")
                .append(judgement.rules()).append(" (Holm over the metrics compared for each arm). \"old\" is the verdict the file"
                        + " states (ranges apart and medians beyond the A/A spread, every passing round, CPU of busy rounds dropped).\n\n");
        out.append("| file | arms | counted rounds per arm | not counted | old \"resolved\" | still resolved | now indicative |\n"
                + "|---|---|---|---:|---:|---:|---:|\n");
        int old = 0;
        int still = 0;
        for (FileJudgement f : judgement.files()) {
            old += f.oldResolved();
            still += f.stillResolved();
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %d of %d | %d | %d | %d |%n", link(f.file(), root, outDir), String.join(", ", f.arms()),
                    counted(f), f.excluded().size(), f.roundsInFile(), f.oldResolved(), f.stillResolved(), f.nowIndicative()));
        }
        out.append(String.format(Locale.ROOT, "%nIn all: %d comparisons the files call resolved, %d of them resolved by these rules.%n", old, still));
        for (FileJudgement f : judgement.files()) {
            out.append("\n## ").append(f.file()).append("\n\n");
            if (!f.excluded().isEmpty()) {
                out.append("Rounds not counted:\n\n| scenario | round | arm | why |\n|---|---:|---|---|\n");
                for (CampaignVerdicts.Exclusion e : f.excluded()) {
                    out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s |%n", e.scenario(), e.round(), e.arm(), String.join("; ", e.why())));
                }
                out.append('\n');
            }
            List<Row> shown = f.rows().stream().filter(r -> r.oldResolved() || !r.verdict().startsWith("not resolvable") && !r.verdict().equals("no data")).toList();
            if (shown.isEmpty()) {
                out.append("No comparison was or is resolved or indicative.\n");
                continue;
            }
            out.append("Comparisons the file called resolved, or that are resolved or indicative now:\n\n"
                    + "| scenario | metric | arm | ratio | p | p (Holm) | old | now |\n|---|---|---|---:|---:|---:|---|---|\n");
            for (Row r : shown) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", r.scenario(), r.metric(), r.arm(),
                        r.ratio() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", r.ratio()),
                        r.p() == null ? "n/a" : CampaignVerdicts.pValue(r.p()), r.pHolm() == null ? "n/a" : CampaignVerdicts.pValue(r.pHolm()),
                        r.oldVerdict(), r.verdict()));
            }
        }
        return out.toString();
    }

    private static String counted(FileJudgement f) {
        List<String> parts = new ArrayList<>();
        f.countedPerArm().forEach((arm, n) -> parts.add(arm + " " + n));
        return String.join(", ", parts);
    }

    /** A link to a judged file from the folder the report is written to. */
    private static String link(String file, Path root, Path outDir) {
        Path target = root.resolve(file).toAbsolutePath().normalize();
        return "[" + target.getFileName() + "](" + outDir.toAbsolutePath().normalize().relativize(target) + ")";
    }
}
