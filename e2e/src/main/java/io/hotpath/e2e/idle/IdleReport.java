package io.hotpath.e2e.idle;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.hotpath.e2e.campaign.CampaignVerdicts;
import io.hotpath.e2e.campaign.RoundFigures;
import io.hotpath.e2e.campaign.ThreadGroupTable;
import io.hotpath.e2e.measure.OtherCpu;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The idle report: per role each arm's CPU and wake-ups per second per process over the counted rounds, every other arm
 * against the first by {@link CampaignVerdicts} (the campaign's rules: counted rounds only, exact permutation p, Holm over
 * this report's metrics), the thread groups of each role, and every round. {@link #json()} is the typed record
 * {@link Json}; {@link #markdown()} is for people.
 */
public final class IdleReport {

    /** One figure the verdicts compare: its key in idle-*.json, its words and unit, and where a round has it. */
    public record Metric(String key, String label, String unit, Function<IdleFigures, Double> value) implements CampaignVerdicts.Compared {
    }

    static final List<Metric> METRICS = List.of(
            new Metric("masterCpuMsPerSec", "master CPU", "ms/s per master", f -> f.cpu(IdleFigures.MASTER)),
            new Metric("slaveCpuMsPerSec", "slave CPU", "ms/s per slave", f -> f.cpu(IdleFigures.SLAVE)),
            new Metric("namesrvCpuMsPerSec", "name server CPU", "ms/s", f -> f.cpu(IdleFigures.NAMESRV)),
            new Metric("masterWakeupsPerSec", "master wake-ups", "context switches/s per master", f -> f.wakeups(IdleFigures.MASTER)),
            new Metric("slaveWakeupsPerSec", "slave wake-ups", "context switches/s per slave", f -> f.wakeups(IdleFigures.SLAVE)),
            new Metric("namesrvWakeupsPerSec", "name server wake-ups", "context switches/s", f -> f.wakeups(IdleFigures.NAMESRV)));

    /**
     * How the report was made: the command as typed, the line, each arm's distribution in words, the window, the machine.
     */
    public record Setup(String command, String date, String release, List<String> arms, List<String> distributions, int roundsPerArm,
                        int settleSeconds, int maxSettleSeconds, int seconds, int cpus) {
    }

    /** idle-*.json. */
    public record Json(String kind, Setup setup, String baseline, Map<String, Object> verdictRules,
                       List<CampaignVerdicts.Exclusion> excludedRounds, List<CampaignVerdicts.Comparison> comparisons,
                       List<IdleRound> rounds) {
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

    private final Setup setup;
    private final List<IdleRound> rounds;
    private final CampaignVerdicts verdicts;
    private final double jitBasis;
    /** A line under the header when an earlier run's file was judged again ({@link #judgeAgain}); null otherwise. */
    private String judgedAgain;

    public IdleReport(Setup setup, List<IdleRound> rounds) {
        this.setup = setup;
        this.rounds = List.copyOf(rounds);
        this.verdicts = verdicts(setup.arms(), this.rounds);
        // judging leaves the figures and every exclusion but the JIT's as they were: the basis the verdicts used
        this.jitBasis = RoundFigures.baselineMedian(verdicts.judged(), setup.arms().get(0), IdleRound.SCENARIO, METRICS.get(0).key());
    }

    /** The campaign's verdicts over idle rounds: every arm allowed the JIT CPU of 5 % of the baseline's median master CPU. */
    private static CampaignVerdicts verdicts(List<String> arms, List<IdleRound> rounds) {
        return new CampaignVerdicts(rounds.stream().map(r -> r.verdictFigures(METRICS)).toList(), arms, METRICS, METRICS.get(0));
    }

    /** The verdicts' view of every round of {@code json}, judged as the report judges them. */
    static List<RoundFigures> verdictFigures(Json json) {
        return verdicts(json.setup().arms(), json.rounds()).judged();
    }

    public List<CampaignVerdicts.Comparison> comparisons() {
        return rounds.isEmpty() ? List.of() : verdicts.comparisons(IdleRound.SCENARIO);
    }

    public String json() {
        // in this order in the file: a Map.of would print them in a different order from run to run
        Map<String, Object> rules = new LinkedHashMap<>();
        rules.put("minRoundsPerArm", CampaignVerdicts.MIN_ROUNDS);
        rules.put("alpha", CampaignVerdicts.ALPHA);
        rules.put("test", "exact two-sided permutation test of the difference of means, Holm over each arm's metrics");
        rules.put("counted", "quiet machine, masters' JIT below " + RunMetrics.WARM_JIT_SHARE + " of the baseline's median master CPU"
                + " over its quiet rounds (the same ms/s in every arm)");
        return GSON.toJson(new Json("idle", setup, setup.arms().get(0), rules, verdicts.exclusions(), comparisons(), rounds)) + "\n";
    }

    public String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("# Idle cost: ").append(String.join(" vs ", setup.arms())).append(" RocketMQ ").append(setup.release())
                .append(" (2m-2s, loopback, no load)\n\n");
        out.append(String.format(Locale.ROOT, "`%s`, %s. Each round starts a fresh cluster per arm (name server, 2 masters, 2 slaves),"
                        + " lets it settle %d s after boot and then in 30 s probes until the masters' JIT compiler used under %.0f %%"
                        + " of the baseline's median master CPU so far (before its first round: of their own CPU) in two in a row"
                        + " (at most %d s in all; each round's settle time is in the Rounds table), then reads"
                        + " every process's threads (/proc/<pid>/task/*/stat and status) at both edges of a %d s window; nothing is"
                        + " sent. %d round%s per arm, arms alternating; %d cores.%n%n",
                setup.command(), setup.date(), setup.settleSeconds(), 100 * RunMetrics.WARM_JIT_SHARE, setup.maxSettleSeconds(),
                setup.seconds(), setup.roundsPerArm(),
                setup.roundsPerArm() == 1 ? "" : "s", setup.cpus()));
        if (judgedAgain != null) {
            out.append(judgedAgain).append("\n\n");
        }
        setup.distributions().forEach(d -> out.append("- ").append(d).append('\n'));
        out.append('\n').append(String.format(Locale.ROOT, "A round counts when the machine was quiet (other processes under %.0f %% of it"
                        + " in the window: every task's run time, from the root cgroup's cpuacct, less ours; steal, the hypervisor"
                        + " running another guest, is no process's CPU and not counted where cpuacct is read) and the masters' JIT compiler used under %.0f %% of"
                        + " the baseline's median master CPU over its quiet rounds (%s ms/s per master: the same allowance in every arm,"
                        + " since an idle broker's compiler runs for minutes after boot whatever the arm, and the cheaper arm's own CPU would"
                        + " make its compiler's share larger). Figures are per process of the"
                        + " role (two masters: their mean); wake-ups are context switches (voluntary + involuntary). Verdicts as the"
                        + " campaign's: **resolved** needs >= %d counted rounds per arm, ranges apart and p <= %.2f after Holm over"
                        + " the %d metrics below; ranges apart with less is **indicative**. ",
                100 * RunMetrics.OTHER_CPU_FLAG_SHARE, 100 * RunMetrics.WARM_JIT_SHARE,
                jitBasis > 0 ? num(RunMetrics.WARM_JIT_SHARE * jitBasis) : "n/a", CampaignVerdicts.MIN_ROUNDS, CampaignVerdicts.ALPHA,
                METRICS.size()));
        List<CampaignVerdicts.Exclusion> excluded = verdicts.exclusions();
        out.append(excluded.isEmpty() ? "Every round counts.\n" : excluded.size() + " of " + rounds.size() + " rounds do not count"
                + " (listed below with why).\n");

        out.append("\n## CPU and wake-ups per process, by role\n\n");
        out.append("| metric | arm | counted rounds | median | min | max | ratio | p | p (Holm) | verdict |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (CampaignVerdicts.Comparison c : comparisons()) {
            Metric metric = METRICS.stream().filter(m -> m.key().equals(c.metric())).findFirst().orElseThrow();
            out.append(String.format(Locale.ROOT, "| %s (%s) | %s | %d | %s | %s | %s | %s | %s | %s | %s |%n", metric.label(),
                    metric.unit(), c.arm(), c.rounds(), num(c.median()), num(c.min()), num(c.max()),
                    c.ratioToBaseline() == null ? "" : String.format(Locale.ROOT, "%.3f", c.ratioToBaseline()),
                    c.p() == null ? "" : CampaignVerdicts.pValue(c.p()), c.pHolm() == null ? "" : CampaignVerdicts.pValue(c.pHolm()),
                    c.verdict() == null ? "(baseline)" : c.verdict()));
        }

        boolean anyCounted = setup.arms().stream().anyMatch(arm -> !verdicts.counted(IdleRound.SCENARIO, arm).isEmpty());
        String over = anyCounted ? "median over counted rounds"
                : "**no round counts: medians over every round, for orientation only, not a result**";
        threadTables(out, IdleFigures.MASTER, "Masters", "master", anyCounted, over);
        threadTables(out, IdleFigures.SLAVE, "Slaves", "slave", anyCounted, over);
        threadTables(out, IdleFigures.NAMESRV, "Name server", "name server", anyCounted, over);

        out.append("\n## Rounds\n\n| round | arm | counts | other processes | settled s | masters' JIT (per master, % of its CPU) | master ms/s | slave ms/s | name server ms/s"
                + " | controller ms/s | master wake-ups/s | slave wake-ups/s | run |\n"
                + "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        List<RoundFigures> judged = verdicts.judged();
        for (int i = 0; i < rounds.size(); i++) {
            IdleRound round = rounds.get(i);
            IdleFigures f = round.figures();
            List<String> why = judged.get(i).exclusions();
            out.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |%n", round.round(),
                    round.arm(), why.isEmpty() ? "yes" : "no: " + String.join("; ", why), otherCpu(f), round.settledSeconds(),
                    f.masterJitShare() < 0 ? "n/a" : String.format(Locale.ROOT, "%s ms/s, %.1f %%", num(f.masterJitMsPerSecond()),
                            100 * f.masterJitShare()),
                    num(f.cpu(IdleFigures.MASTER)), num(f.cpu(IdleFigures.SLAVE)), num(f.cpu(IdleFigures.NAMESRV)),
                    num(f.cpu(IdleFigures.CONTROLLER)), num(f.wakeups(IdleFigures.MASTER)), num(f.wakeups(IdleFigures.SLAVE)),
                    Path.of(round.runDir()).getFileName()));
        }
        return out.toString();
    }

    /** A role's CPU and wake-ups per thread group, one column per arm. */
    private void threadTables(StringBuilder out, String role, String title, String per, boolean countedOnly, String over) {
        List<List<IdleFigures.Role>> runs = new ArrayList<>();
        for (String arm : setup.arms()) {
            List<Integer> counted = verdicts.counted(IdleRound.SCENARIO, arm).stream().map(RoundFigures::round).toList();
            runs.add(rounds.stream().filter(r -> r.arm().equals(arm) && (!countedOnly || counted.contains(r.round())))
                    .map(r -> r.figures().roles().get(role)).filter(r -> r != null).toList());
        }
        if (runs.stream().allMatch(List::isEmpty)) {
            return;
        }
        String named = " Named: groups above " + Math.round(100 * RunMetrics.THREAD_GROUP_SHARE) + " % of the whole in some arm, largest"
                + " first.\n\n";
        out.append("\n## ").append(title).append(": CPU per thread group, ms/s per ").append(per).append("\n\n")
                .append("Thread names without their counter (Linux cuts names to 15 characters); ").append(over).append(". \"")
                .append(ThreadGroupCpu.EXITED).append("\": CPU of threads that ended in the window, and tick rounding.").append(named);
        out.append(ThreadGroupTable.table("", setup.arms(), runs, IdleFigures.Role::groupCpu, IdleFigures.Role::cpuMsPerSecond,
                per + ", whole process", true));
        out.append("\n## ").append(title).append(": wake-ups per thread group, context switches/s per ").append(per).append("\n\n")
                .append("Voluntary (the thread blocked: a poll's sleep ends in one) + involuntary; ").append(over)
                .append("; threads that ended in the window are not counted.").append(named);
        out.append(ThreadGroupTable.table("", setup.arms(), runs, IdleFigures.Role::groupWakeups, IdleFigures.Role::wakeupsPerSecond,
                per + ", all threads", false));
    }

    private static String otherCpu(IdleFigures figures) {
        if (figures.otherCpu() == null || !figures.otherCpu().measured()) {
            return "not measured: unknown";
        }
        OtherCpu other = figures.otherCpu();
        return String.format(Locale.ROOT, "%.1f %% of the machine: %s (steal %.1f %%%s)", 100 * other.share(), other.load().label(),
                other.capacityMicros() <= 0 ? 0 : 100.0 * other.stealMicros() / other.capacityMicros(),
                other.stealCounted() ? ", counted as other" : ", not counted");
    }

    /**
     * An earlier run's idle-*.json judged again by today's rules, written into {@code dir} under the name the run gave it;
     * returns the Markdown file. The rounds are as measured; what counts and the verdicts are today's.
     */
    public static Path judgeAgain(Path file, Path dir, String command, String date) throws IOException {
        Json json;
        try {
            json = GSON.fromJson(Files.readString(file), Json.class);
        } catch (com.google.gson.JsonParseException e) {
            throw new IOException(file + " is not an idle report: " + e.getMessage(), e);
        }
        if (json == null || !"idle".equals(json.kind()) || json.setup() == null || json.rounds() == null) {
            throw new IOException(file + " is not an idle report (no kind \"idle\", setup or rounds)");
        }
        IdleReport report = new IdleReport(json.setup(), json.rounds());
        report.judgedAgain = String.format(Locale.ROOT, "Judged again on %s by `%s` with that day's counting rule; the rounds are"
                + " as measured.", date, command);
        return report.write(dir);
    }

    /** Writes {@code idle-<release>-<date>.md} and {@code .json} into {@code dir}; returns the Markdown file. */
    public Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        String name = "idle-" + setup.release() + "-" + setup.date();
        Files.writeString(dir.resolve(name + ".json"), json());
        Path md = dir.resolve(name + ".md");
        Files.writeString(md, markdown());
        return md;
    }

    static String num(Double value) {
        if (value == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%.0f" : Math.abs(value) >= 10 ? "%.1f" : "%.2f", value);
    }
}
