package io.hotpath.e2e.idle;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.campaign.CampaignRejudgement;
import io.hotpath.e2e.campaign.RoundFigures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Each arm's {@link CostModel} from committed result files: the counted rounds of idle reports (rate 0) and of campaigns
 * at fixed rates, one point per round, so that an operator reads off what a master costs at their own rate. Only what the
 * files record is used, and only the rounds the verdict rules count (an idle round: quiet and warm; a campaign round:
 * passed, lossless, quiet and warm), so a model never rests on a round a report itself refused.
 */
public final class CostReport {

    /** The cluster's masters: a campaign's CPU per message is both masters' CPU over every acknowledged message. */
    static final int MASTERS = 2;
    /** The rates the issue compares, at which every model is read off (msg/s sent to the cluster). */
    static final List<Integer> READ_OFF_RATES = List.of(250, 2500);

    /** A file read: its kind (idle or campaign), the cluster's rate (0 for idle), its rounds and how many count. */
    public record Source(String file, String kind, int rate, int rounds, Map<String, Integer> countedPerArm) {
    }

    /**
     * One arm's model, or why it has none.
     *
     * @param predicted per {@link #READ_OFF_RATES} rate: the master CPU per message the line gives (us/msg)
     */
    public record ArmModel(String arm, int idlePoints, int campaignPoints, CostModel model, String noModel,
                           Map<Integer, Double> predicted) {
    }

    /** cost-*.json. */
    public record Json(String kind, String command, String date, String release, List<Source> sources, List<ArmModel> arms) {
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create();

    private CostReport() {
    }

    /** The models of every arm the files name, the first file's arms first. */
    public static Json of(Path root, List<Path> idleFiles, List<Path> campaignFiles, String command, String date) {
        if (idleFiles.isEmpty() && campaignFiles.isEmpty()) {
            throw new UsageException("no result files: give --idle and --campaign files");
        }
        List<Source> sources = new ArrayList<>();
        Map<String, List<CostModel.Point>> idlePoints = new LinkedHashMap<>();
        Map<String, List<CostModel.Point>> campaignPoints = new LinkedHashMap<>();
        Set<String> arms = new LinkedHashSet<>();
        Set<String> releases = new LinkedHashSet<>();
        // the rates the files ran at, per arm: acknowledged rates scatter a little around a paced campaign's rate, and a line
        // through one such cluster of points is noise (a negative slope on 2026-11-28's 5.5.1 campaign alone)
        Map<String, Set<Integer>> nominalRates = new LinkedHashMap<>();
        for (Path file : idleFiles) {
            IdleReport.Json idle = readIdle(file);
            releases.add(idle.setup().release());
            arms.addAll(idle.setup().arms());
            Map<String, Integer> counted = new LinkedHashMap<>();
            List<RoundFigures> judged = IdleReport.verdictFigures(idle);
            for (int i = 0; i < idle.rounds().size(); i++) {
                IdleRound round = idle.rounds().get(i);
                counted.putIfAbsent(round.arm(), 0);
                Double ms = round.figures().cpu(IdleFigures.MASTER);
                if (ms != null && judged.get(i).counts()) {
                    counted.merge(round.arm(), 1, Integer::sum);
                    idlePoints.computeIfAbsent(round.arm(), a -> new ArrayList<>()).add(CostModel.Point.idle(ms));
                    nominalRates.computeIfAbsent(round.arm(), a -> new LinkedHashSet<>()).add(0);
                }
            }
            sources.add(new Source(CampaignRejudgement.relative(root, file), "idle", 0, idle.rounds().size(), counted));
        }
        for (Path file : campaignFiles) {
            JsonObject campaign = CampaignRejudgement.read(file);
            if (!campaign.has("rounds") || !campaign.has("rate") || !campaign.has("release")) {
                throw new UsageException(file + " is not a campaign.json (no rounds, rate or release)");
            }
            int rate = campaign.get("rate").getAsInt();
            if (rate <= 0) {
                throw new UsageException(file + " ran saturated (--rate 0): a cost model needs fixed rates");
            }
            releases.add(campaign.get("release").getAsString());
            campaign.getAsJsonArray("arms").forEach(a -> arms.add(a.getAsString()));
            Map<String, Integer> counted = new LinkedHashMap<>();
            List<RoundFigures> judged = CampaignRejudgement.judgedRounds(campaign);
            int rounds = judged.size();
            for (RoundFigures round : judged) {
                counted.putIfAbsent(round.arm(), 0);
                Double tps = round.figure("tps");
                Double micros = round.figure("masterCpuMicrosPerMsg");
                if (round.counts() && tps != null && micros != null) {
                    counted.merge(round.arm(), 1, Integer::sum);
                    campaignPoints.computeIfAbsent(round.arm(), a -> new ArrayList<>()).add(CostModel.Point.ofCampaign(tps, micros, MASTERS));
                    nominalRates.computeIfAbsent(round.arm(), a -> new LinkedHashSet<>()).add(rate);
                }
            }
            sources.add(new Source(CampaignRejudgement.relative(root, file), "campaign", rate, rounds, counted));
        }
        if (releases.size() != 1) {
            throw new UsageException("the files are of different releases " + releases + ": a model is one line's");
        }
        List<ArmModel> models = new ArrayList<>();
        for (String arm : arms) {
            List<CostModel.Point> idle = idlePoints.getOrDefault(arm, List.of());
            List<CostModel.Point> loaded = campaignPoints.getOrDefault(arm, List.of());
            List<CostModel.Point> points = new ArrayList<>(idle);
            points.addAll(loaded);
            if (nominalRates.getOrDefault(arm, Set.of()).size() < 2) {
                models.add(new ArmModel(arm, idle.size(), loaded.size(), null, points.isEmpty() ? "no counted round"
                        : "counted rounds at one rate only", Map.of()));
                continue;
            }
            CostModel model = CostModel.fit(points);
            Map<Integer, Double> predicted = new LinkedHashMap<>();
            READ_OFF_RATES.forEach(rate -> predicted.put(rate, model.microsPerMessageAt((double) rate / MASTERS)));
            models.add(new ArmModel(arm, idle.size(), loaded.size(), model, null, predicted));
        }
        return new Json("cost", command, date, releases.iterator().next(), sources, models);
    }

    public static String json(Json report) {
        return GSON.toJson(report) + "\n";
    }

    public static String markdown(Json report) {
        StringBuilder out = new StringBuilder("# Cost model: RocketMQ " + report.release() + " master CPU by message rate\n\n");
        out.append("Written by `").append(report.command()).append("`, ").append(report.date()).append(", from the counted rounds of the"
                + " files below (nothing re-measured). Each counted round is a point of one master: an idle round at 0 msg/s with its"
                + " CPU in ms/s; a campaign round at its acknowledged rate / ").append(MASTERS).append(" with its master CPU per message x"
                + " that rate. A least-squares line per arm: fixed ms/s (the line at 0) + marginal us per message, with the"
                + " residual (root mean square distance of the points, over points - 2 degrees of freedom). Read off: the CPU per"
                + " message the line gives at a cluster rate (fixed cost shared by the messages).\n\n");
        out.append("| file | kind | rate (msg/s) | rounds | counted per arm |\n|---|---|---:|---:|---|\n");
        for (Source s : report.sources()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s |%n", s.file(), s.kind(), s.rate(), s.rounds(),
                    s.countedPerArm().toString().replaceAll("[{}]", "")));
        }
        out.append("\n| arm | points (idle + campaign) | fixed (ms/s per master) | marginal (us/msg) | residual (ms/s) | df");
        READ_OFF_RATES.forEach(rate -> out.append(" | us/msg at ").append(rate).append(" msg/s"));
        out.append(" |\n|---|---|---:|---:|---:|---:");
        READ_OFF_RATES.forEach(rate -> out.append("|---:"));
        out.append("|\n");
        for (ArmModel arm : report.arms()) {
            if (arm.model() == null) {
                out.append(String.format(Locale.ROOT, "| %s | %d + %d | no model: %s | | | ", arm.arm(), arm.idlePoints(), arm.campaignPoints(),
                        arm.noModel()));
                READ_OFF_RATES.forEach(rate -> out.append(" | "));
                out.append(" |\n");
                continue;
            }
            CostModel m = arm.model();
            out.append(String.format(Locale.ROOT, "| %s | %d + %d | %.1f | %.1f | %s | %d", arm.arm(), arm.idlePoints(), arm.campaignPoints(),
                    m.fixedMsPerSecond(), m.marginalMicrosPerMessage(), m.degreesOfFreedom() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f",
                            m.residualMsPerSecond()), m.degreesOfFreedom()));
            double measuredUpTo = measuredUpTo(m);
            READ_OFF_RATES.forEach(rate -> out.append(String.format(Locale.ROOT, " | %.1f%s", arm.predicted().get(rate),
                    rate > measuredUpTo ? " (extrapolated)" : "")));
            out.append(" |\n");
        }
        out.append("\nA model is a description of the counted rounds, not a verdict: the verdicts (rounds, ranges, p) are the source"
                + " files'. \"(extrapolated)\": a rate above every counted round of the arm (acknowledged rates scatter a few %"
                + " around a paced campaign's, hence the margin of ").append(Math.round(100 * (RATE_SCATTER - 1))).append(" %).\n");
        return out.toString();
    }

    /** How far above a paced campaign's rate its acknowledged rates may scatter and still be "measured at" that rate. */
    static final double RATE_SCATTER = 1.05;

    /**
     * The highest cluster rate the model's points were measured at (msg/s, with {@link #RATE_SCATTER}): a read-off above it
     * extends the line beyond its points, which a fixed cost measured at 0 and 250 msg/s does not make true at 2500.
     */
    static double measuredUpTo(CostModel model) {
        return RATE_SCATTER * MASTERS * model.points().stream().mapToDouble(CostModel.Point::messagesPerSecond).max().orElse(0);
    }

    /** Writes cost-<release>-<date>.{md,json} into {@code dir}; returns the Markdown file. */
    public static Path write(Json report, Path dir) throws IOException {
        Files.createDirectories(dir);
        String name = "cost-" + report.release() + "-" + report.date();
        Files.writeString(dir.resolve(name + ".json"), json(report), StandardCharsets.UTF_8);
        Path md = dir.resolve(name + ".md");
        Files.writeString(md, markdown(report), StandardCharsets.UTF_8);
        return md;
    }

    private static IdleReport.Json readIdle(Path file) {
        JsonObject json = CampaignRejudgement.read(file);
        if (!json.has("kind") || !"idle".equals(json.get("kind").getAsString())) {
            throw new UsageException(file + " is not an idle report (idle-*.json)");
        }
        try {
            return GSON.fromJson(json, IdleReport.Json.class);
        } catch (JsonParseException e) {
            throw new UsageException(file + " is not an idle report: " + e.getMessage());
        }
    }
}
