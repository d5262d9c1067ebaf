package io.hotpath.e2e.campaign;

import com.google.gson.Gson;
import io.hotpath.e2e.campaign.CampaignVerdicts.Comparison;
import io.hotpath.e2e.check.DeliveryLateness;
import io.hotpath.e2e.check.FailedSends;
import io.hotpath.e2e.load.TimedSends;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.run.RoundResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The arms of a campaign over its rounds (stock vs patched of one line, or stock and patched of several lines):
 * per scenario and metric each arm's median, min-max, and the ratio of its median to the baseline's (the first
 * arm), with the verdict of {@link CampaignVerdicts}: only passing, lossless, warm rounds on a quiet machine count,
 * and every other round is listed with why. Every round's failed sends are listed by reason, expected by its fault
 * or not ({@link FailedSends}).
 */
public final class CampaignReport {

    /** One finished round of one arm. */
    public record ArmRound(String scenario, int round, Arm arm, RoundResult result) {
    }

    /** What the report compares; {@code cpu}: a figure that other processes on the machine would disturb. */
    record Metric(String key, String label, String unit, boolean cpu, Function<RoundResult, Double> value)
            implements CampaignVerdicts.Compared {
    }

    /** A chart file and the metric it draws, one bar per arm. */
    private record Chart(String file, String title, String metric) {
    }

    static final List<Metric> METRICS = List.of(
            new Metric("tps", "TPS", "acked msg/s", false, r -> r.load().tps()),
            new Metric("rtP99Ms", "RT p99", "ms", false, r -> r.load().rtPercentilesMillis().get("p99")),
            new Metric("rtAvgMs", "RT avg", "ms", false, r -> r.load().avgRtMillis()),
            new Metric("masterCpuMicrosPerMsg", "master CPU (user + system)", "us/msg", true, r -> m(r, RunMetrics::masterMicrosPerMessage)),
            new Metric("masterCpuUserMicrosPerMsg", "master user CPU", "us/msg", true, r -> m(r, RunMetrics::masterUserMicrosPerMessage)),
            new Metric("masterCpuSystemMicrosPerMsg", "master system CPU", "us/msg", true, r -> m(r, RunMetrics::masterSystemMicrosPerMessage)),
            new Metric("slaveCpuUserMicrosPerMsg", "slave user CPU", "us/msg", true, r -> m(r, RunMetrics::slaveUserMicrosPerMessage)),
            new Metric("loadGeneratorCpuMicrosPerMsg", "load generator CPU", "us/msg", true, r -> m(r, RunMetrics::loadGeneratorMicrosPerMessage)),
            new Metric("masterAllocatedBytesPerMsg", "master allocated", "B/msg", false, r -> m(r, RunMetrics::masterAllocatedBytesPerMessage)),
            new Metric("commitLogBytesPerMsg", "CommitLog", "B/msg", false, r -> m(r, RunMetrics::commitLogBytesPerMessage)),
            new Metric("masterGcPauseMsTotal", "master GC pauses", "ms/round", false, r -> m(r, x -> x.masterGcPauseMillisTotal())),
            // a 40 s window holds a handful of young collections per master: pauses per round move with how many fell
            // into it, so the pause of one collection tells a slower collector from a window that caught one more
            new Metric("masterGcCount", "master GC collections", "/round", false, r -> m(r, x -> (double) x.masterGcCount())),
            new Metric("masterGcPauseMsPerCollection", "master GC pause per collection", "ms", false,
                    r -> m(r, x -> x.masterGcCount() <= 0 ? -1 : x.masterGcPauseMillisTotal() / x.masterGcCount())),
            // a busy machine's other processes take CPU slices from the masters' threads: involuntary switches go up
            new Metric("masterContextSwitchesPerMsg", "master context switches", "/msg", true,
                    r -> m(r, RunMetrics::masterContextSwitchesPerMessage)),
            new Metric("masterVoluntarySwitchesPerMsg", "master voluntary switches", "/msg", true,
                    r -> m(r, RunMetrics::masterVoluntarySwitchesPerMessage)));

    /** What every arm's JIT allowance is a share of: the baseline's median master CPU per message ({@link CampaignVerdicts}). */
    public static final CampaignVerdicts.Compared JIT_BASIS = METRICS.stream().filter(m -> m.key().equals("masterCpuMicrosPerMsg")).findFirst().orElseThrow();

    private static final List<Chart> CHARTS = List.of(
            new Chart("tps.png", "TPS per scenario", "tps"),
            new Chart("p99.png", "RT p99 per scenario", "rtP99Ms"),
            new Chart("master-cpu-total.png", "Master CPU (user + system) per message", "masterCpuMicrosPerMsg"),
            new Chart("master-cpu.png", "Master user CPU per message", "masterCpuUserMicrosPerMsg"),
            new Chart("master-cpu-system.png", "Master system CPU per message", "masterCpuSystemMicrosPerMsg"),
            new Chart("allocated-bytes.png", "Bytes allocated per message on the masters (JFR)", "masterAllocatedBytesPerMsg"),
            new Chart("commitlog-bytes.png", "CommitLog bytes per message", "commitLogBytesPerMsg"),
            new Chart("gc-pauses.png", "GC pauses on the masters per round (JFR)", "masterGcPauseMsTotal"),
            new Chart("context-switches.png", "Context switches on the masters per message", "masterContextSwitchesPerMsg"));

    private static final Gson GSON = new Gson();

    private static Metric metric(String key) {
        return METRICS.stream().filter(m -> m.key().equals(key)).findFirst().orElseThrow();
    }

    private static Double m(RoundResult result, Function<RunMetrics, Double> figure) {
        if (result.metrics() == null) {
            return null;
        }
        double value = figure.apply(result.metrics());
        return value < 0 ? null : value;
    }

    private final List<ArmRound> rounds;
    private final List<ArmRound> profiled;
    private final List<Arm> arms;
    private final CampaignVerdicts verdicts;

    /** {@code arms} in report order; the first is the baseline of every ratio. */
    public CampaignReport(List<ArmRound> rounds, List<Arm> arms) {
        this(rounds, List.of(), arms);
    }

    /**
     * With {@code profiled}: the profiled rounds of {@code --alloc-sites} (at most one per scenario and arm), whose
     * figures enter no statistic: only the allocation-by-site table ({@link AllocationSiteTable}).
     */
    public CampaignReport(List<ArmRound> rounds, List<ArmRound> profiled, List<Arm> arms) {
        this.rounds = List.copyOf(rounds);
        this.profiled = List.copyOf(profiled);
        this.arms = List.copyOf(arms);
        this.verdicts = new CampaignVerdicts(this.rounds.stream().map(CampaignReport::figures).toList(), labels(), METRICS, JIT_BASIS);
    }

    /** What the statistics know of a round. */
    static RoundFigures figures(ArmRound round) {
        RoundResult result = round.result();
        Map<String, Double> figures = new LinkedHashMap<>();
        METRICS.forEach(metric -> figures.put(metric.key(), metric.value().apply(result)));
        RunMetrics metrics = result.metrics();
        Double jit = metrics == null || metrics.masterJitShare() < 0 ? null : metrics.masterJitShare();
        return new RoundFigures(round.scenario(), round.round(), round.arm().label(), result.passed(), result.failureReasons(),
                result.delivery().lost(),
                machine(round).label(), jit, figures);
    }

    List<Double> values(String scenario, Arm arm, Metric metric) {
        return verdicts.values(scenario, arm.label(), metric.key());
    }

    private List<ArmRound> rounds(String scenario, Arm arm) {
        return rounds.stream().filter(r -> r.scenario().equals(scenario) && r.arm().equals(arm)).toList();
    }

    /** A round without cost figures is as unknown as one whose other-process CPU could not be measured. */
    static RunMetrics.MachineLoad machine(ArmRound round) {
        return round.result().metrics() == null ? RunMetrics.MachineLoad.UNKNOWN : round.result().metrics().machineLoad();
    }

    List<String> scenarios() {
        return rounds.stream().map(ArmRound::scenario).distinct().toList();
    }

    /** Every metric of every arm in {@code scenario}, metric by metric, arms in report order. */
    List<Comparison> comparisons(String scenario) {
        return verdicts.comparisons(scenario);
    }

    private boolean oneLine() {
        return arms.stream().map(Arm::line).distinct().count() == 1;
    }

    private List<String> labels() {
        return arms.stream().map(Arm::label).toList();
    }

    public String markdown(CampaignOptions options, String header) {
        StringBuilder out = new StringBuilder();
        String title = oneLine() ? String.join(" vs ", labels()) + " RocketMQ " + arms.get(0).line()
                : "RocketMQ " + String.join(" vs ", labels());
        out.append("# Campaign: ").append(title).append(" (2m-2s, ").append(options.net().option()).append(")\n\n")
                .append(header).append("\n\n");
        String order = options.lines().isEmpty() ? "alternating " + String.join(" / ", labels())
                : "each round runs every arm once, in the order of the columns below on odd rounds and in reverse on even ones";
        out.append(String.format(Locale.ROOT, "Rounds per arm: %d, %s; warm-up %s (not measured, but read back and judged: its loss or failed sends fail the round), measured %d s per round, %s."
                        + " Every ratio is to %s (the baseline).%n", options.rounds(), order, options.warmup().describe(), options.seconds(),
                options.rate() > 0 ? "paced at " + options.rate() + " msg/s" : "saturated (unpaced)", arms.get(0).label()));
        out.append(rules(options.rounds()));
        out.append(arms.size() > 2 ? " Each of the " + (arms.size() - 1) + " arms is corrected over its own metrics; across arms"
                + " the chance that some equal arm resolves by chance is up to " + (arms.size() - 1) + " times the level.\n" : "\n");
        out.append(machineLine());
        out.append(failedSendsLine(options));
        out.append(exclusionsLine());
        for (String scenario : scenarios()) {
            out.append("\n## ").append(scenario).append("\n\n");
            List<Comparison> comparisons = comparisons(scenario);
            figures(out, scenario, comparisons, options.rate() == 0);
            ratios(out, comparisons);
            excludedRounds(out, scenario);
            List<List<RunMetrics>> threadRuns = arms.stream().map(arm -> threadRuns(scenario, arm)).toList();
            out.append('\n').append(ThreadGroupTable.markdown(labels(), threadRuns));
            out.append('\n').append(ThreadGroupTable.switchesMarkdown(labels(), threadRuns));
            List<ArmRound> scenarioProfiled = profiled.stream().filter(r -> r.scenario().equals(scenario)).toList();
            if (!scenarioProfiled.isEmpty()) {
                out.append('\n').append(AllocationSiteTable.markdown(arms, scenarioProfiled));
            }
        }
        out.append("\n## Rounds\n\nThe warm-up load of each round is read back and judged apart: acked, lost, and failed sends begun"
                + " after the cluster's first SEND_OK (each fails the round).\n\n| scenario | round | arm | result | acked"
                + " | failed sends (unexpected) | lost | warm-up: acked, lost, failed after first SEND_OK | machine | run dir |"
                + "\n|---|---:|---|---|---:|---:|---:|---|---|---|\n");
        for (ArmRound round : rounds) {
            RoundResult r = round.result();
            String warmup = r.warmup().ran() ? String.format(Locale.ROOT, "%d, %d, %d", r.warmup().acked(), r.warmup().delivery().lost(),
                    r.warmup().unexpectedFailedSends()) : "none";
            out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %d | %d (%d) | %d | %s | %s | %s |%n", round.scenario(),
                    round.round(), round.arm().label(), r.verdict(), r.load().acked(), r.failedSends().total(), r.failedSends().unexpected(),
                    r.delivery().lost(), warmup, machine(round).label(), r.runDir().getFileName()));
        }
        failedSendsTable(out);
        StringJoiner charts = new StringJoiner(", ", "\nCharts (one bar per arm): ", "\n");
        CHARTS.forEach(chart -> charts.add(chart.file()));
        out.append(charts);
        return out.toString();
    }

    /**
     * Per metric each arm's median [min-max] (n), the lost messages and the unexpected failed sends, which must be 0, and
     * for a {@code saturated} (unpaced) campaign the load's flow-control rejections per second.
     */
    private void figures(StringBuilder out, String scenario, List<Comparison> comparisons, boolean saturated) {
        StringJoiner head = new StringJoiner(" | ", "| metric | ", " |\n");
        StringJoiner rule = new StringJoiner("|", "|---|", "|\n");
        for (Arm arm : arms) {
            head.add(arm.label() + " median [min-max] (n)");
            rule.add("---:");
        }
        out.append(head).append(rule);
        for (int m = 0; m < METRICS.size(); m++) {
            Metric metric = METRICS.get(m);
            StringJoiner row = new StringJoiner(" | ", "| ", " |\n");
            row.add(metric.label() + " (" + metric.unit() + ")");
            for (int a = 0; a < arms.size(); a++) {
                // comparisons() lists metric by metric, each with every arm in report order
                Comparison c = comparisons.get(m * arms.size() + a);
                row.add(c.median() == null ? "n/a" : String.format(Locale.ROOT, "%s [%s-%s] (%d)", num(c.median()), num(c.min()),
                        num(c.max()), c.rounds()));
            }
            out.append(row);
        }
        StringJoiner lost = new StringJoiner(" | ", "| lost (must be 0) | ", " |\n");
        for (Arm arm : arms) {
            List<ArmRound> armRounds = rounds(scenario, arm);
            long total = armRounds.stream().mapToLong(r -> r.result().delivery().lost()).sum();
            lost.add(total + " in " + armRounds.size() + " rounds" + (total == 0 ? "" : " (FAIL)"));
        }
        out.append(lost);
        // how warm each arm's masters were, over every round, as a share of each arm's own master CPU; what counts is judged
        // against the baseline's (CampaignVerdicts), so "above 5 %" here is not "not counted"
        StringJoiner jit = new StringJoiner(" | ", "| JIT compiler (% of the arm's own master CPU) | ", " |\n");
        for (Arm arm : arms) {
            List<ArmRound> armRounds = rounds(scenario, arm);
            List<Double> shares = armRounds.stream().map(r -> r.result().metrics()).filter(m -> m != null && m.masterJitShare() >= 0)
                    .map(m -> 100 * m.masterJitShare()).sorted().toList();
            long cold = armRounds.stream().map(r -> r.result().metrics())
                    .filter(m -> m != null && m.masterJitShare() >= 0 && !m.warm()).count();
            jit.add(shares.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%s [%s-%s] (%d)%s", num(ArmStatistics.median(shares)),
                    num(shares.get(0)), num(shares.get(shares.size() - 1)), shares.size(), cold == 0 ? "" : ", " + cold + " at or above "
                            + Math.round(100 * RunMetrics.WARM_JIT_SHARE) + " %"));
        }
        out.append(jit);
        StringJoiner unexpected = new StringJoiner(" | ", "| failed sends, unexpected (must be 0) | ", " |\n");
        for (Arm arm : arms) {
            List<ArmRound> armRounds = rounds(scenario, arm);
            long total = armRounds.stream().mapToLong(r -> r.result().failedSends().unexpected()).sum();
            long expected = armRounds.stream().mapToLong(r -> r.result().failedSends().expected()).sum();
            unexpected.add(total + " in " + armRounds.size() + " rounds" + (expected == 0 ? "" : ", expected by the fault " + expected)
                    + (total == 0 ? "" : " (FAIL)"));
        }
        out.append(unexpected);
        timedRows(out, scenario);
        if (saturated) {
            // beside TPS: how far a saturated arm was over what the broker holds
            StringJoiner rejected = new StringJoiner(" | ", "| rejected by flow control (/s, median [min-max]) | ", " |\n");
            for (Arm arm : arms) {
                List<Double> perSecond = rounds(scenario, arm).stream().map(r -> rejectionsPerSecond(r.result())).sorted().toList();
                rejected.add(perSecond.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%s [%s-%s] (%d)", num(ArmStatistics.median(perSecond)),
                        num(perSecond.get(0)), num(perSecond.get(perSecond.size() - 1)), perSecond.size()));
            }
            out.append(rejected);
        }
    }

    /**
     * The timed phase of every round ({@code DeliveryLateness}), per kind and arm: the median over rounds of each round's
     * median and p90 lateness, and the worst max, in ms; then where the latest message of all rounds (counted from the
     * earliest the broker may deliver it) spent its time. Descriptive rows, not metrics of the verdicts: a lost, corrupt or
     * early message already fails its round.
     */
    private void timedRows(StringBuilder out, String scenario) {
        for (TimedSends.Kind kind : List.of(TimedSends.Kind.PLAIN, TimedSends.Kind.TIMER, TimedSends.Kind.DELAY_LEVEL_1,
                TimedSends.Kind.DELAY_LEVEL_2)) {
            StringJoiner row = new StringJoiner(" | ", "| " + kind.label() + " late (ms): p50 / p90 median over rounds, worst max | ", " |\n");
            StringJoiner stages = new StringJoiner(" | ", "| " + kind.label() + ": the latest message, ms after its earliest (round) | ", " |\n");
            boolean any = false;
            for (Arm arm : arms) {
                List<ArmRound> seen = rounds(scenario, arm).stream().filter(r -> {
                    DeliveryLateness.Figures f = r.result().timed().figures(kind);
                    return f != null && f.seen() > 0;
                }).toList();
                List<DeliveryLateness.Figures> figures = seen.stream().map(r -> r.result().timed().figures(kind)).toList();
                any |= !figures.isEmpty();
                row.add(figures.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.0f / %.0f, %d (%d)",
                        ArmStatistics.median(figures.stream().map(f -> (double) f.medianMs()).sorted().toList()),
                        ArmStatistics.median(figures.stream().map(f -> (double) f.p90Ms()).sorted().toList()),
                        figures.stream().mapToLong(DeliveryLateness.Figures::maxMs).max().orElse(0), figures.size()));
                stages.add(seen.stream().max(Comparator.comparingLong(r -> r.result().timed().figures(kind).sinceEarliestMaxMs()))
                        .map(r -> r.result().timed().figures(kind).latest().text() + " (" + r.round() + ")").orElse("n/a"));
            }
            if (any) {
                out.append(row).append(stages);
            }
        }
    }

    /** The load's flow-control rejections per second, all reasons together. */
    static double rejectionsPerSecond(RoundResult result) {
        return result.failedSends().rejectionsPerSecond(result.load().seconds()).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Whether the rounds' machine was quiet: a round counts as quiet only when measured so. */
    private String machineLine() {
        long busy = rounds.stream().filter(r -> machine(r) == RunMetrics.MachineLoad.BUSY).count();
        long unknown = rounds.stream().filter(r -> machine(r) == RunMetrics.MachineLoad.UNKNOWN).count();
        if (busy == 0 && unknown == 0) {
            return "Every round ran on a quiet machine (no other process used noticeable CPU during its measured window).\n";
        }
        StringBuilder out = new StringBuilder();
        if (busy > 0) {
            out.append(busy).append(" of ").append(rounds.size()).append(" rounds ran while other processes used noticeable CPU: they"
                    + " do not count.");
        }
        if (unknown > 0) {
            out.append(busy > 0 ? " " : "").append(unknown).append(" of ").append(rounds.size()).append(" rounds ran on a machine whose"
                    + " other processes' CPU could not be measured (machine \"unknown\" below): they are not known to be quiet and do"
                    + " not count.");
        }
        return out.append('\n').toString();
    }

    /** The rules of {@link CampaignVerdicts} in words, and what they make of this campaign's round count. */
    private static String rules(int roundsPerArm) {
        String rules = String.format(Locale.ROOT, "Only rounds that passed, lost nothing, ran on a quiet machine and were warm (the masters'"
                + " JIT below %.0f %% of the baseline arm's median master CPU per message: the same us/msg in every arm, since a few ms/s"
                + " of compiling go on for minutes whatever the arm) count; the others are listed under each scenario with why. A difference is"
                + " **resolved** only with at least %d counted rounds per arm, min-max ranges apart, and an exact permutation p"
                + " (difference of means) at most %.2f after Holm's correction over the metrics compared for that arm; ranges"
                + " apart without the rest is **indicative**, overlapping ranges **not resolvable**. p is printed beside every"
                + " verdict.", 100 * RunMetrics.WARM_JIT_SHARE, CampaignVerdicts.MIN_ROUNDS, CampaignVerdicts.ALPHA);
        int family = METRICS.size();
        int needed = CampaignVerdicts.MIN_ROUNDS;
        while (PermutationTest.smallestP(needed, needed) * family > CampaignVerdicts.ALPHA) {
            needed++;
        }
        return rules + String.format(Locale.ROOT, " With %d metrics, n vs n counted rounds can reach p = %s at best: a difference"
                + " on every metric resolves only from %d counted rounds per arm.", family,
                CampaignVerdicts.pValue(PermutationTest.smallestP(roundsPerArm, roundsPerArm)), needed);
    }

    /** How many rounds do not count, in one sentence. */
    private String exclusionsLine() {
        int excluded = verdicts.exclusions().size();
        return excluded == 0 ? "Every round counts.\n" : excluded + " of " + rounds.size() + " rounds do not count (listed under their"
                + " scenario with why).\n";
    }

    /** The rounds of {@code scenario} that do not count, with why; nothing when all count. */
    private void excludedRounds(StringBuilder out, String scenario) {
        List<CampaignVerdicts.Exclusion> excluded = verdicts.exclusions().stream().filter(e -> e.scenario().equals(scenario)).toList();
        if (excluded.isEmpty()) {
            return;
        }
        out.append("\nRounds not counted:\n\n| round | arm | why |\n|---:|---|---|\n");
        for (CampaignVerdicts.Exclusion e : excluded) {
            out.append(String.format(Locale.ROOT, "| %d | %s | %s |%n", e.round(), e.arm(), String.join("; ", e.why())));
        }
    }

    /** The campaign's failed sends in one sentence: none, or how many rounds had unexpected ones. */
    private String failedSendsLine(CampaignOptions options) {
        long failing = rounds.stream().filter(r -> r.result().failedSends().unexpected() > 0).count();
        long withExpected = rounds.stream().filter(r -> r.result().failedSends().expected() > 0).count();
        String rule = options.rate() == 0 ? " Saturated (unpaced) rounds report flow-control rejections per second beside TPS; a"
                + " rejection still fails its round." : "";
        if (failing == 0) {
            return "Every send was acknowledged" + (withExpected == 0 ? "" : " or failed as its fault expects (" + withExpected + " rounds)")
                    + "." + rule + "\n";
        }
        return failing + " of " + rounds.size() + " rounds had sends that failed for a reason no fault expects (listed under"
                + " Failed sends): those rounds FAIL." + rule + "\n";
    }

    /** Every round's failed sends by phase and reason, expected or not; nothing when every send was acknowledged. */
    private void failedSendsTable(StringBuilder out) {
        List<String> rows = new ArrayList<>();
        List<ArmRound> all = new ArrayList<>(rounds);
        all.addAll(profiled);
        for (ArmRound round : all) {
            FailedSends failed = round.result().failedSends();
            for (FailedSends.Row row : failed.rows()) {
                rows.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %d | %s |%n", round.scenario(),
                        profiled.contains(round) ? "profiled" : Integer.toString(round.round()),
                        round.arm().label(), row.phase(), row.reason(), row.sends(), failed.verdict(row)));
            }
        }
        out.append("\n## Failed sends\n\n");
        if (rows.isEmpty()) {
            out.append("None: every send of every round was acknowledged.\n");
            return;
        }
        out.append("| scenario | round | arm | phase | reason | sends | verdict |\n|---|---:|---|---|---|---:|---|\n");
        rows.forEach(out::append);
    }

    /** Every other arm against the baseline, metric by metric: the ratio of medians and the verdict beside it. */
    private void ratios(StringBuilder out, List<Comparison> comparisons) {
        out.append("\nAgainst ").append(arms.get(0).label()).append(": ratio of medians over counted rounds, the A/A spread (the"
                + " larger relative min-max spread of the arm's or the baseline's rounds), the permutation p and the verdict.\n\n");
        out.append("| metric | arm | ratio | A/A spread | p | p (Holm) | verdict |\n|---|---|---:|---:|---:|---:|---|\n");
        for (Comparison c : comparisons) {
            if (c.verdict() == null) {
                continue;
            }
            Metric metric = metric(c.metric());
            out.append(String.format(Locale.ROOT, "| %s (%s) | %s | %s | %s | %s | %s | %s |%n", metric.label(), metric.unit(), c.arm(),
                    c.ratioToBaseline() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", c.ratioToBaseline()),
                    c.aaSpread() == null ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * c.aaSpread()),
                    c.p() == null ? "n/a" : CampaignVerdicts.pValue(c.p()), c.pHolm() == null ? "n/a" : CampaignVerdicts.pValue(c.pHolm()),
                    c.verdict()));
        }
    }

    /** The counted rounds of an arm that have the masters' thread figures. */
    private List<RunMetrics> threadRuns(String scenario, Arm arm) {
        Set<Integer> counted = verdicts.counted(scenario, arm.label()).stream().map(RoundFigures::round).collect(Collectors.toSet());
        return rounds(scenario, arm).stream().filter(r -> counted.contains(r.round())).map(r -> r.result().metrics())
                .filter(m -> m != null && !m.masterThreadMicrosPerMessage().isEmpty()).toList();
    }

    public String json(CampaignOptions options) {
        StringJoiner roundsJson = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (ArmRound round : rounds) {
            StringJoiner fields = new StringJoiner(", ", "{", "}");
            fields.add("\"scenario\": " + GSON.toJson(round.scenario())).add("\"round\": " + round.round())
                    .add("\"arm\": " + GSON.toJson(round.arm().label())).add("\"line\": " + GSON.toJson(round.arm().line()))
                    .add("\"flavor\": " + GSON.toJson(round.arm().flavor())).add("\"result\": \"" + round.result().verdict() + "\"")
                    .add("\"runDir\": " + GSON.toJson(round.result().runDir().toString()))
                    .add("\"lost\": " + round.result().delivery().lost())
                    .add("\"failures\": " + GSON.toJson(round.result().failureReasons()))
                    .add("\"warmup\": " + round.result().warmup().json())
                    .add("\"timed\": " + round.result().timed().json());
            for (Metric metric : METRICS) {
                Double value = metric.value().apply(round.result());
                fields.add("\"" + metric.key() + "\": " + (value == null ? "null" : String.format(Locale.ROOT, "%.3f", value)));
            }
            RunMetrics metrics = round.result().metrics();
            // the raw figure, a negative one too (the accounting did not add up); null only when not measured
            fields.add("\"otherCpuSeconds\": " + (metrics == null || metrics.otherCpu() == null || !metrics.otherCpu().measured() ? "null"
                    : String.format(Locale.ROOT, "%.2f", metrics.otherCpu().micros() / 1e6)));
            fields.add("\"busyMachine\": " + (metrics != null && metrics.busyMachine()));
            fields.add("\"machine\": \"" + machine(round).label() + "\"");
            FailedSends failed = round.result().failedSends();
            fields.add("\"failedSends\": " + failed.json()).add("\"failedSendsUnexpected\": " + failed.unexpected())
                    .add("\"failedSendsExpected\": " + failed.expected())
                    .add("\"rejectionsPerSecond\": " + String.format(Locale.ROOT, "%.3f", rejectionsPerSecond(round.result())));
            fields.add("\"masterThreadCpuMicrosPerMsg\": " + (metrics == null ? "{}" : GSON.toJson(metrics.masterThreadMicrosPerMessage())));
            fields.add("\"masterJitShare\": " + (metrics == null || metrics.masterJitShare() < 0 ? "null"
                    : String.format(Locale.ROOT, "%.4f", metrics.masterJitShare())));
            fields.add("\"masterThreadSwitchesPerMsg\": " + (metrics == null ? "{}" : GSON.toJson(metrics.masterThreadSwitchesPerMessage())));
            roundsJson.add(fields.toString());
        }
        StringJoiner profiledJson = new StringJoiner(",\n    ", "[\n    ", "\n  ]").setEmptyValue("[]");
        for (ArmRound round : profiled) {
            RunMetrics metrics = round.result().metrics();
            StringJoiner fields = new StringJoiner(", ", "{", "}");
            fields.add("\"scenario\": " + GSON.toJson(round.scenario())).add("\"arm\": " + GSON.toJson(round.arm().label()))
                    .add("\"result\": \"" + round.result().verdict() + "\"")
                    .add("\"runDir\": " + GSON.toJson(round.result().runDir().toString()))
                    .add("\"lost\": " + round.result().delivery().lost())
                    .add("\"masterAllocatedBytesPerMsg\": " + (metrics == null || metrics.masterAllocatedBytesPerMessage() < 0 ? "null"
                            : String.format(Locale.ROOT, "%.3f", metrics.masterAllocatedBytesPerMessage())))
                    .add("\"masterAllocationSamples\": " + (metrics == null || metrics.masterAllocationSites() == null ? 0
                            : metrics.masterAllocationSites().samples()))
                    .add("\"masterAllocationSitesBytesPerMsg\": "
                            + (metrics == null ? "{}" : GSON.toJson(metrics.masterAllocationSitesBytesPerMessage())));
            profiledJson.add(fields.toString());
        }
        StringJoiner comparisonsJson = new StringJoiner(",\n    ", "[\n    ", "\n  ]").setEmptyValue("[]");
        scenarios().forEach(scenario -> comparisons(scenario).forEach(c -> comparisonsJson.add(GSON.toJson(c))));
        // every round ran on the one network of the campaign: its figures once, at the top
        List<String> head = new ArrayList<>(rounds.isEmpty() ? List.of("\"net\": \"" + options.net().option() + "\"")
                : rounds.get(0).result().network().jsonFields());
        if (oneLine()) {
            head.add("\"release\": \"" + arms.get(0).line() + "\"");
        }
        head.add("\"lines\": " + GSON.toJson(arms.stream().map(Arm::line).distinct().toList()));
        head.add("\"arms\": " + GSON.toJson(labels()));
        head.add("\"baseline\": " + GSON.toJson(arms.get(0).label()));
        head.add("\"verdictRules\": " + GSON.toJson(Map.of("minRoundsPerArm", CampaignVerdicts.MIN_ROUNDS, "alpha", CampaignVerdicts.ALPHA,
                "test", "exact two-sided permutation test of the difference of means, Holm over each arm's metrics",
                "counted", "passed, lost nothing, quiet machine, masters' JIT below " + RunMetrics.WARM_JIT_SHARE + " of the baseline's median"
                        + " master CPU per message")));
        head.add("\"warmup\": " + GSON.toJson(options.warmup().describe()));
        head.add("\"excludedRounds\": " + GSON.toJson(verdicts.exclusions()));
        return String.format(Locale.ROOT, "{\n  %s,\n  \"rounds_per_arm\": %d,\n  \"threads\": %s,\n  \"sizes\": %s,\n  \"queues\": %d,"
                        + "\n  \"rate\": %d,\n  \"warmupSeconds\": %d,\n  \"seconds\": %d,\n  \"rounds\": %s,\n  \"comparisons\": %s,"
                        + "\n  \"profiledRounds\": %s\n}\n",
                String.join(",\n  ", head), options.rounds(), options.threads(), options.sizes(), options.queues(), options.rate(),
                options.warmupSeconds(), options.seconds(), roundsJson, comparisonsJson, profiledJson);
    }

    public void writeCharts(Path dir) throws IOException {
        for (Chart chart : CHARTS) {
            Metric metric = metric(chart.metric());
            List<BarChart.Group> groups = new ArrayList<>();
            for (String scenario : scenarios()) {
                groups.add(new BarChart.Group(scenario, arms.stream()
                        .map(arm -> new BarChart.Bar(arm.label(), values(scenario, arm, metric))).toList()));
            }
            BarChart.write(dir.resolve(chart.file()), chart.title(), metric.unit(), labels(), groups);
        }
    }

    public void write(Path dir, CampaignOptions options, String header) throws IOException {
        Files.writeString(dir.resolve("campaign.json"), json(options));
        Files.writeString(dir.resolve("report.md"), markdown(options, header));
        writeCharts(dir);
    }

    static String num(double value) {
        return String.format(Locale.ROOT, value >= 1000 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }
}
