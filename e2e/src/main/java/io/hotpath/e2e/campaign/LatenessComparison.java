package io.hotpath.e2e.campaign;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
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
 * Whether an arm delivers timer, delay-level and plain messages later than its campaign's baseline, from the timed phase
 * of committed campaign files (nothing re-measured). One campaign's rounds per arm are few (5 to 7) and a timer message's
 * lateness spreads over a whole slot, so a verdict pools every file that ran both arms: within each file the arms'
 * rounds are exchangeable under "no difference", so the test permutes arm labels inside each file only (a stratified
 * permutation test) and the files' rates, hosts and days never pass for an arm's effect.
 *
 * <p>A round's figure is its per-kind median or p90 lateness after the earliest the broker may deliver (a timer message's
 * slot, else the time asked; {@code sinceEarliest*} in campaign.json): for a timer message the lateness after the time
 * asked also holds where in its slot the time fell, up to a slot of noise no broker thread causes. Every round whose timed
 * phase ran on a quiet machine is used, failed ones included (a round that failed on a late or lost message must not drop
 * out of a lateness comparison); lost and early messages are summed beside.
 */
public final class LatenessComparison {

    /** The kinds compared, in the timed phase's order (probes only mark the consumer ready). */
    static final List<String> KINDS = List.of("plain", "timer", "delay level 1", "delay level 2");
    /** The per-round figures compared, as campaign.json names them, with their labels, in the report's order. */
    private enum Figure {
        P50("sinceEarliestMedianMs", "p50"), P90("sinceEarliestP90Ms", "p90");

        final String key;
        final String label;

        Figure(String key, String label) {
            this.key = key;
            this.label = label;
        }
    }

    /** One file's share: its baseline arm, the rounds used per arm, and the rounds left out (with why). */
    public record Source(String file, String baseline, int rate, Map<String, Integer> roundsUsed, List<String> leftOut) {
    }

    /**
     * One kind and figure, one arm against the baseline of every file that ran both.
     *
     * @param differenceMs the files' differences of means (arm minus baseline), weighted by n·m/(n+m) of each file
     * @param p            two-sided, from permuting arm labels within each file
     */
    public record Row(String kind, String figure, String arm, String baseline, int files, int armRounds, int baselineRounds,
                      double baselineMedianMs, double armMedianMs, double differenceMs, double p, double pHolm, String verdict) {
    }

    /**
     * Timer rounds with a message a slot or more late: its lateness after its slot at least twice the slot width (a timer
     * message is read back within about 1.1 slots after its slot on both arms), per arm, with Fisher's exact p.
     */
    public record SlotLate(String arm, String baseline, int armRounds, int armSlotLate, int baselineRounds, int baselineSlotLate,
                           long armWorstMs, long baselineWorstMs, double p) {
    }

    /** Lost and early messages of the timed phases used, per arm (any is a failure the campaign itself reported). */
    public record Faults(String arm, long lost, long early) {
    }

    /** lateness-DATE.json. */
    public record Json(String kind, String command, String date, String rules, List<Source> sources, List<Row> rows,
                       List<SlotLate> slotLate, List<Faults> faults) {
    }

    /** One round's figures: per kind and figure, ms. */
    private record RoundLateness(String arm, Map<String, Map<Figure, Double>> figures, Map<String, Long> maxMs, long precisionMs,
                                 long lost, long early) {
    }

    private record FileRounds(String file, String baseline, List<RoundLateness> rounds) {
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create();

    private LatenessComparison() {
    }

    public static Json compare(Path root, List<Path> files, String command, String date) {
        if (files.isEmpty()) {
            throw new UsageException("no campaign files to compare");
        }
        List<Source> sources = new ArrayList<>();
        List<FileRounds> read = new ArrayList<>();
        for (Path file : files) {
            JsonObject json = CampaignRejudgement.read(file);
            if (!json.has("rounds") || !json.has("arms")) {
                throw new UsageException(file + " is not a campaign.json (no rounds or arms)");
            }
            String baseline = json.getAsJsonArray("arms").get(0).getAsString();
            List<RoundLateness> rounds = new ArrayList<>();
            List<String> leftOut = new ArrayList<>();
            Map<String, Integer> used = new LinkedHashMap<>();
            json.getAsJsonArray("arms").forEach(a -> used.put(a.getAsString(), 0));
            for (JsonElement element : json.getAsJsonArray("rounds")) {
                JsonObject round = element.getAsJsonObject();
                String label = "round " + round.get("round").getAsInt() + " " + round.get("arm").getAsString();
                String why = unusable(round);
                if (why != null) {
                    leftOut.add(label + ": " + why);
                    continue;
                }
                RoundLateness lateness = lateness(round);
                rounds.add(lateness);
                used.merge(lateness.arm(), 1, Integer::sum);
            }
            String name = CampaignRejudgement.relative(root, file);
            sources.add(new Source(name, baseline, json.has("rate") ? json.get("rate").getAsInt() : -1, used, leftOut));
            read.add(new FileRounds(name, baseline, rounds));
        }
        List<Row> rows = new ArrayList<>();
        List<SlotLate> slotLate = new ArrayList<>();
        for (Pair pair : pairs(read)) {
            List<Row> family = new ArrayList<>();
            for (String kind : KINDS) {
                for (Figure figure : Figure.values()) {
                    Row row = row(read, pair, kind, figure);
                    if (row != null) {
                        family.add(row);
                    }
                }
            }
            double[] adjusted = PermutationTest.holm(family.stream().mapToDouble(Row::p).toArray());
            for (int i = 0; i < family.size(); i++) {
                Row r = family.get(i);
                rows.add(new Row(r.kind(), r.figure(), r.arm(), r.baseline(), r.files(), r.armRounds(), r.baselineRounds(),
                        r.baselineMedianMs(), r.armMedianMs(), r.differenceMs(), r.p(), adjusted[i],
                        verdict(r.differenceMs(), r.p(), adjusted[i], family.size())));
            }
            slotLate.add(slotLate(read, pair));
        }
        Map<String, long[]> faults = new LinkedHashMap<>();
        read.forEach(f -> f.rounds().forEach(r -> {
            long[] sums = faults.computeIfAbsent(r.arm(), a -> new long[2]);
            sums[0] += r.lost();
            sums[1] += r.early();
        }));
        List<Faults> faultRows = new ArrayList<>();
        faults.forEach((arm, sums) -> faultRows.add(new Faults(arm, sums[0], sums[1])));
        String rules = String.format(Locale.ROOT, "per round: a kind's median and p90 lateness after the earliest the broker may"
                + " deliver; per file: arm labels permuted within the file (stratified permutation, %d samples, seeded), statistic"
                + " the files' differences of means weighted by n*m/(n+m); two-sided p, Holm over the %d figures of each arm;"
                + " later or earlier when p (Holm) <= %.2f", PermutationTest.STRATIFIED_SAMPLES, KINDS.size() * Figure.values().length, CampaignVerdicts.ALPHA);
        return new Json("lateness", command, date, rules, sources, rows, slotLate, faultRows);
    }

    /** Why a round's timed phase cannot be compared, or null. */
    private static String unusable(JsonObject round) {
        JsonElement timed = round.get("timed");
        if (timed == null || timed.isJsonNull() || !timed.getAsJsonObject().has("ran") || !timed.getAsJsonObject().get("ran").getAsBoolean()) {
            return "no timed phase";
        }
        String machine = round.has("machine") ? round.get("machine").getAsString() : "unknown";
        if (!"quiet".equals(machine)) {
            return "machine " + machine;
        }
        for (JsonElement kind : timed.getAsJsonObject().getAsJsonArray("kinds")) {
            if (!kind.getAsJsonObject().has("sinceEarliestMedianMs")) {
                return "no lateness after the earliest recorded";
            }
        }
        return null;
    }

    private static RoundLateness lateness(JsonObject round) {
        JsonObject timed = round.getAsJsonObject("timed");
        Map<String, Map<Figure, Double>> figures = new LinkedHashMap<>();
        Map<String, Long> max = new LinkedHashMap<>();
        for (JsonElement element : timed.getAsJsonArray("kinds")) {
            JsonObject kind = element.getAsJsonObject();
            String name = kind.get("kind").getAsString();
            if (!KINDS.contains(name) || kind.get("seen").getAsInt() == 0) {
                continue;
            }
            Map<Figure, Double> values = new java.util.EnumMap<>(Figure.class);
            for (Figure f : Figure.values()) {
                values.put(f, kind.get(f.key).getAsDouble());
            }
            figures.put(name, values);
            max.put(name, kind.get("sinceEarliestMaxMs").getAsLong());
        }
        return new RoundLateness(round.get("arm").getAsString(), figures, max,
                timed.has("timerPrecisionMs") ? timed.get("timerPrecisionMs").getAsLong() : 1000,
                timed.has("lost") ? timed.get("lost").getAsLong() : 0, timed.has("early") ? timed.get("early").getAsLong() : 0);
    }

    private record Pair(String baseline, String arm) {
    }

    /** Every (baseline, arm) the files ran, in the order first met. */
    private static List<Pair> pairs(List<FileRounds> files) {
        List<Pair> pairs = new ArrayList<>();
        for (FileRounds f : files) {
            f.rounds().stream().map(RoundLateness::arm).distinct().filter(a -> !a.equals(f.baseline())).map(a -> new Pair(f.baseline(), a))
                    .filter(p -> !pairs.contains(p)).forEach(pairs::add);
        }
        return pairs;
    }

    private static Row row(List<FileRounds> files, Pair pair, String kind, Figure figure) {
        List<PermutationTest.Stratum> strata = new ArrayList<>();
        List<Double> allBase = new ArrayList<>();
        List<Double> allArm = new ArrayList<>();
        for (FileRounds f : files) {
            if (!f.baseline().equals(pair.baseline())) {
                continue;
            }
            List<Double> base = values(f, pair.baseline(), kind, figure);
            List<Double> arm = values(f, pair.arm(), kind, figure);
            if (base.isEmpty() || arm.isEmpty()) {
                continue;
            }
            strata.add(new PermutationTest.Stratum(base, arm));
            allBase.addAll(base);
            allArm.addAll(arm);
        }
        if (strata.isEmpty()) {
            return null;
        }
        double difference = PermutationTest.stratifiedDifference(strata);
        double p = PermutationTest.stratifiedP(strata);
        return new Row(kind, figure.label, pair.arm(), pair.baseline(), strata.size(), allArm.size(), allBase.size(),
                ArmStatistics.median(allBase.stream().sorted().toList()), ArmStatistics.median(allArm.stream().sorted().toList()), difference, p, p, null);
    }

    private static List<Double> values(FileRounds file, String arm, String kind, Figure figure) {
        return file.rounds().stream().filter(r -> r.arm().equals(arm) && r.figures().containsKey(kind))
                .map(r -> r.figures().get(kind).get(figure)).toList();
    }

    static String verdict(double differenceMs, double p, double pHolm, int family) {
        String numbers = String.format(Locale.ROOT, "%+.0f ms (p = %s, Holm over %d figures %s)", differenceMs, CampaignVerdicts.pValue(p),
                family, CampaignVerdicts.pValue(pHolm));
        if (pHolm <= CampaignVerdicts.ALPHA) {
            return (differenceMs > 0 ? "later: " : "earlier: ") + numbers;
        }
        return "no difference shown: " + numbers;
    }

    private static SlotLate slotLate(List<FileRounds> files, Pair pair) {
        List<RoundLateness> arm = timerRounds(files, pair, pair.arm());
        List<RoundLateness> base = timerRounds(files, pair, pair.baseline());
        int armLate = slotLateCount(arm);
        int baseLate = slotLateCount(base);
        return new SlotLate(pair.arm(), pair.baseline(), arm.size(), armLate, base.size(), baseLate, worstTimerMs(arm), worstTimerMs(base),
                FisherExact.p(armLate, arm.size() - armLate, baseLate, base.size() - baseLate));
    }

    /** The rounds of {@code arm} with a timer message seen, in the files whose baseline is the pair's. */
    private static List<RoundLateness> timerRounds(List<FileRounds> files, Pair pair, String arm) {
        return files.stream().filter(f -> f.baseline().equals(pair.baseline())).flatMap(f -> f.rounds().stream())
                .filter(r -> r.arm().equals(arm) && r.maxMs().containsKey("timer")).toList();
    }

    private static int slotLateCount(List<RoundLateness> rounds) {
        return (int) rounds.stream().filter(r -> r.maxMs().get("timer") >= 2 * r.precisionMs()).count();
    }

    /** The latest timer message of the rounds, ms after its slot; -1 without rounds. */
    private static long worstTimerMs(List<RoundLateness> rounds) {
        return rounds.stream().mapToLong(r -> r.maxMs().get("timer")).max().orElse(-1);
    }

    public static String json(Json report) {
        return GSON.toJson(report) + "\n";
    }

    public static String markdown(Json report) {
        StringBuilder out = new StringBuilder("# Delivery lateness: each arm against its campaign's baseline, pooled over campaign files\n\n");
        out.append("Written by `").append(report.command()).append("`, ").append(report.date()).append(", from the timed phase of each"
                + " file's rounds (nothing re-measured). Lateness is counted from the earliest the broker may deliver: a timer"
                + " message's slot (the broker rounds its time down to a 1 s slot), else the time asked (a delay level's delay after"
                + " the send; a plain message's send). Rules: ").append(report.rules()).append(". \"No difference shown\" is not"
                + " \"equal\": the difference and p say how large a change the rounds could have hidden.\n\n");
        out.append("| file | baseline | rate (msg/s) | rounds used per arm | left out |\n|---|---|---:|---|---|\n");
        for (Source s : report.sources()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s |%n", s.file(), s.baseline(), s.rate(),
                    s.roundsUsed().toString().replaceAll("[{}]", ""), s.leftOut().isEmpty() ? "" : String.join("; ", s.leftOut())));
        }
        out.append("\n| kind | figure | arm vs baseline | files | rounds (arm / baseline) | baseline median (ms) | arm median (ms) |"
                + " difference (ms) | p | p (Holm) | verdict |\n|---|---|---|---:|---|---:|---:|---:|---:|---:|---|\n");
        for (Row r : report.rows()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s vs %s | %d | %d / %d | %.0f | %.0f | %+.1f | %s | %s | %s |%n", r.kind(),
                    r.figure(), r.arm(), r.baseline(), r.files(), r.armRounds(), r.baselineRounds(), r.baselineMedianMs(), r.armMedianMs(),
                    r.differenceMs(), CampaignVerdicts.pValue(r.p()), CampaignVerdicts.pValue(r.pHolm()), r.verdict()));
        }
        out.append("\nTimer rounds with a message a slot or more late (its lateness after its slot >= 2 slots; a timer message is read"
                + " back about 1.1 slots after its slot on both arms), Fisher's exact two-sided p over the pooled rounds:\n\n"
                + "| arm vs baseline | arm: rounds with one / rounds | baseline: rounds with one / rounds | worst (arm / baseline, ms) | p |\n"
                + "|---|---|---|---|---:|\n");
        for (SlotLate s : report.slotLate()) {
            out.append(String.format(Locale.ROOT, "| %s vs %s | %d / %d | %d / %d | %d / %d | %s |%n", s.arm(), s.baseline(), s.armSlotLate(),
                    s.armRounds(), s.baselineSlotLate(), s.baselineRounds(), s.armWorstMs(), s.baselineWorstMs(), CampaignVerdicts.pValue(s.p())));
        }
        out.append("\nLost and early messages in the timed phases used: ");
        List<String> parts = new ArrayList<>();
        report.faults().forEach(f -> parts.add(String.format(Locale.ROOT, "%s %d lost, %d early", f.arm(), f.lost(), f.early())));
        out.append(String.join("; ", parts)).append(".\n");
        return out.toString();
    }

    /** Writes lateness-<date>.{md,json} into {@code dir}; returns the Markdown file. */
    public static Path write(Json report, Path dir) throws IOException {
        Files.createDirectories(dir);
        String name = "lateness-" + report.date();
        Files.writeString(dir.resolve(name + ".json"), json(report), StandardCharsets.UTF_8);
        Path md = dir.resolve(name + ".md");
        Files.writeString(md, markdown(report), StandardCharsets.UTF_8);
        return md;
    }
}
