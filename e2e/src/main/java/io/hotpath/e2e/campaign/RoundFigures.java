package io.hotpath.e2e.campaign;

import io.hotpath.e2e.measure.RunMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a campaign's statistics know of one round of one arm: whether it may count, and its figure per metric (key of
 * {@link CampaignReport#METRICS}; null when not measured). A round report and a committed campaign.json both give
 * these, so a campaign run today and one re-judged from its file are judged by the same rules ({@link CampaignVerdicts}).
 *
 * @param passed    the round's own verdict was PASS (no lost message, no unexpected failed send, no broken check, a
 *                  warm-up that passed)
 * @param failures  why the round failed, when known (a committed file records only PASS or FAIL)
 * @param machine   "quiet", "busy" or "unknown" ({@link RunMetrics.MachineLoad#label()})
 * @param jitShare  the masters' JIT compiler CPU in the measured window as a share of {@code jitOf}, null when not measured
 * @param jitOf     what {@code jitShare} is a share of, in words: {@link #OWN_MASTER_CPU} unless a report allows every arm
 *                  the same JIT CPU (bin/hotpath idle)
 */
public record RoundFigures(String scenario, int round, String arm, boolean passed, List<String> failures, long lost, String machine,
                           Double jitShare, Map<String, Double> figures, String jitOf) {

    public static final String OWN_MASTER_CPU = "master CPU";

    public RoundFigures {
        failures = List.copyOf(failures);
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** A round whose JIT share is of its own masters' CPU, as every campaign judges it. */
    public RoundFigures(String scenario, int round, String arm, boolean passed, List<String> failures, long lost, String machine,
                        Double jitShare, Map<String, Double> figures) {
        this(scenario, round, arm, passed, failures, lost, machine, jitShare, figures, OWN_MASTER_CPU);
    }

    /**
     * Why this round does not count, empty when it does. Only a passing, lossless round that was measured warm on a
     * quiet machine counts: a failed round's figures describe a broken run (a failed round was once an arm's CPU
     * minimum), a busy machine's describe the other processes too, and a round whose JIT compiler still ran measured
     * compilation.
     */
    public List<String> exclusions() {
        List<String> why = exclusionsButTheJit();
        if (jitShare == null || jitShare < 0) {
            why.add("JIT share not measured");
        } else if (jitShare >= RunMetrics.WARM_JIT_SHARE) {
            why.add(String.format(Locale.ROOT, "not warm (JIT %.1f %% of %s, warm below %.0f %%)", 100 * jitShare, jitOf,
                    100 * RunMetrics.WARM_JIT_SHARE));
        }
        return why;
    }

    /** Why this round does not count, the JIT aside. */
    List<String> exclusionsButTheJit() {
        List<String> why = new ArrayList<>();
        if (!passed) {
            why.add(failures.isEmpty() ? "the round failed" : "the round failed (" + String.join(", ", failures) + ")");
        }
        if (lost > 0) {
            why.add(lost + " acknowledged messages lost");
        }
        if ("busy".equals(machine)) {
            why.add("busy machine");
        } else if (!"quiet".equals(machine)) {
            why.add("machine load not measured");
        }
        return why;
    }

    /**
     * {@code rounds} judged with the same JIT allowance in every arm: each round's JIT share re-expressed as a share of the
     * baseline arm's median {@code cpu} figure in its scenario, over the baseline's rounds that count but for the JIT
     * (unchanged where the scenario has none, or the round lacks the figure). Why: a few ms/s of compiling goes on for
     * minutes after boot whatever the arm, and the cheaper arm compiles its rarer calls later (idle 5.5.1 masters 5-6
     * minutes after boot: stock 2.3-2.5 ms/s of JIT, 2.5 % of its 95-100 ms/s; patched+tuned 3.7-4.5 ms/s, 7-8 % of its
     * 53-54, 2026-11-29), so a share of each arm's own CPU dropped the cheaper arm's rounds for compiling alone. Its figure
     * includes that compiling: an allowance in the baseline's terms errs against the cheaper arm, never for it.
     */
    public static List<RoundFigures> withTheBaselinesJitBasis(List<RoundFigures> rounds, String baseline, String cpu, String unit) {
        Map<String, Double> basis = new LinkedHashMap<>();
        for (String scenario : rounds.stream().map(RoundFigures::scenario).distinct().toList()) {
            double median = baselineMedian(rounds, baseline, scenario, cpu);
            if (median > 0) {
                basis.put(scenario, median);
            }
        }
        List<RoundFigures> out = new ArrayList<>();
        for (RoundFigures r : rounds) {
            Double own = r.figure(cpu);
            Double median = basis.get(r.scenario());
            if (median == null || own == null || r.jitShare() == null || r.jitShare() < 0) {
                out.add(r);
                continue;
            }
            out.add(new RoundFigures(r.scenario(), r.round(), r.arm(), r.passed(), r.failures(), r.lost(), r.machine(),
                    r.jitShare() * own / median, r.figures(), String.format(Locale.ROOT, "the baseline's median master CPU, %s %s",
                    median >= 100 ? String.format(Locale.ROOT, "%.0f", median) : String.format(Locale.ROOT, "%.1f", median), unit)));
        }
        return out;
    }

    /** The baseline arm's median {@code cpu} figure in {@code scenario} over its rounds that count but for the JIT; -1 without one. */
    public static double baselineMedian(List<RoundFigures> rounds, String baseline, String scenario, String cpu) {
        List<Double> values = rounds.stream().filter(r -> r.scenario().equals(scenario) && r.arm().equals(baseline)
                        && r.exclusionsButTheJit().isEmpty()).map(r -> r.figure(cpu)).filter(v -> v != null && v > 0)
                .sorted().toList();
        return values.isEmpty() ? -1 : ArmStatistics.median(values);
    }

    public boolean counts() {
        return exclusions().isEmpty();
    }

    public Double figure(String metric) {
        return figures.get(metric);
    }
}
