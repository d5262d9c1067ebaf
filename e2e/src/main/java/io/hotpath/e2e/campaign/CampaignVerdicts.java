package io.hotpath.e2e.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules that turn a campaign's rounds into words, in one place for a campaign run today and one re-judged from its
 * committed file. Only rounds that count ({@link RoundFigures#exclusions()}) enter a figure; every other arm is compared
 * with the first (the baseline) metric by metric: ratio of medians, min-max ranges, the exact permutation p of the
 * difference, and that p after Holm's correction over the metrics compared for that arm in that scenario.
 *
 * <p>"resolved" needs all of: at least {@link #MIN_ROUNDS} counted rounds in each arm, min-max ranges apart, a
 * difference of at least {@link #SMALLEST_CHANGE}, and a Holm-adjusted p at most {@link #ALPHA}. Ranges apart without
 * the rest is "indicative"; overlapping ranges "not resolvable". Why these: equal arms separate their ranges by chance
 * with p = 2 / C(n + m, n) per metric (0.33 at 2 vs 2 rounds, 0.10 at 3 vs 3, 0.008 at 5 vs 5), and a report compares
 * ~15 metrics, so an uncorrected rule calls some equal pair different in most reports with few rounds.
 */
public final class CampaignVerdicts {

    public static final int MIN_ROUNDS = 5;
    public static final double ALPHA = 0.05;

    /**
     * The smallest difference of medians that can count: one a verdict shows as at least 0.1 %. Paced arms that both keep
     * up (TPS 2499.6 vs 2500.0) can have ranges apart and say nothing.
     */
    static final double SMALLEST_CHANGE = 0.0005;

    /**
     * One metric of one arm in one scenario, as campaign.json lists it; figures over counted rounds only, absent (null)
     * without any. {@code aaSpread}: the larger relative min-max spread of the arm's and the baseline's rounds (the
     * baseline's own entry: its own spread); {@code p}: the permutation test's p against the baseline, {@code pHolm} that
     * p after Holm's correction over {@code family} metrics. The baseline's entry has no ratio, p or verdict.
     */
    public record Comparison(String scenario, String metric, String unit, String arm, int rounds, Double median, Double min, Double max,
                             Double ratioToBaseline, Double aaSpread, Double p, Double pHolm, Integer family, Boolean resolved,
                             String verdict) {
    }

    /** What the verdicts need of a metric: its key in {@link RoundFigures#figures()} and its unit. */
    public interface Compared {
        String key();

        String unit();
    }

    /** A round that does not count, and why. */
    public record Exclusion(String scenario, int round, String arm, List<String> why) {
    }

    private final List<RoundFigures> rounds;
    private final List<String> arms;
    private final List<Compared> metrics;

    /**
     * {@code arms}: labels in report order, the first the baseline. {@code jitBasis}: the master CPU metric every arm's JIT
     * allowance is a share of, the baseline's median ({@link RoundFigures#withTheBaselinesJitBasis}); null: each round's
     * own share as given.
     */
    public CampaignVerdicts(List<RoundFigures> rounds, List<String> arms, List<? extends Compared> metrics, Compared jitBasis) {
        this.arms = List.copyOf(arms);
        this.rounds = jitBasis == null ? List.copyOf(rounds)
                : RoundFigures.withTheBaselinesJitBasis(rounds, this.arms.get(0), jitBasis.key(), jitBasis.unit());
        this.metrics = List.copyOf(metrics);
    }

    /** Every round as judged: with the JIT share the allowance compares (see the constructor). */
    public List<RoundFigures> judged() {
        return rounds;
    }

    public List<String> scenarios() {
        return rounds.stream().map(RoundFigures::scenario).distinct().toList();
    }

    /** Rounds of one arm in one scenario that count. */
    public List<RoundFigures> counted(String scenario, String arm) {
        return rounds.stream().filter(r -> r.scenario().equals(scenario) && r.arm().equals(arm) && r.counts()).toList();
    }

    public List<Exclusion> exclusions() {
        return rounds.stream().filter(r -> !r.counts()).map(r -> new Exclusion(r.scenario(), r.round(), r.arm(), r.exclusions())).toList();
    }

    /** One metric's counted figures of one arm, sorted; a round without the figure adds nothing. */
    public List<Double> values(String scenario, String arm, String metric) {
        List<Double> values = new ArrayList<>();
        for (RoundFigures round : counted(scenario, arm)) {
            Double value = round.figure(metric);
            if (value != null) {
                values.add(value);
            }
        }
        return values.stream().sorted().toList();
    }

    /** Every metric of every arm in {@code scenario}, metric by metric, arms in report order. */
    public List<Comparison> comparisons(String scenario) {
        String baselineArm = arms.get(0);
        // p of every (arm, metric) first: Holm needs each arm's whole family
        Map<String, Map<String, Double>> pByArm = new LinkedHashMap<>();
        Map<String, Map<String, Double>> holmByArm = new LinkedHashMap<>();
        for (String arm : arms.subList(1, arms.size())) {
            Map<String, Double> p = new LinkedHashMap<>();
            for (Compared metric : metrics) {
                List<Double> a = values(scenario, baselineArm, metric.key());
                List<Double> b = values(scenario, arm, metric.key());
                if (a.size() >= 2 && b.size() >= 2) {
                    p.put(metric.key(), PermutationTest.p(a, b));
                }
            }
            double[] adjusted = PermutationTest.holm(p.values().stream().mapToDouble(Double::doubleValue).toArray());
            Map<String, Double> holm = new LinkedHashMap<>();
            int i = 0;
            for (String key : p.keySet()) {
                holm.put(key, adjusted[i++]);
            }
            pByArm.put(arm, p);
            holmByArm.put(arm, holm);
        }
        List<Comparison> out = new ArrayList<>();
        for (Compared metric : metrics) {
            List<Double> baseline = values(scenario, baselineArm, metric.key());
            for (String arm : arms) {
                List<Double> values = values(scenario, arm, metric.key());
                boolean any = !values.isEmpty();
                Double median = any ? ArmStatistics.median(values) : null;
                boolean isBaseline = arm.equals(baselineArm);
                boolean ratio = !isBaseline && any && !baseline.isEmpty() && ArmStatistics.median(baseline) != 0;
                boolean spread = any && (isBaseline || !baseline.isEmpty());
                Double p = isBaseline ? null : pByArm.get(arm).get(metric.key());
                Double pHolm = isBaseline ? null : holmByArm.get(arm).get(metric.key());
                Integer family = isBaseline ? null : pByArm.get(arm).size();
                Verdict verdict = isBaseline ? null : verdict(baseline, values, p, pHolm, family == null ? 0 : family);
                out.add(new Comparison(scenario, metric.key(), metric.unit(), arm, values.size(), median,
                        any ? values.get(0) : null, any ? values.get(values.size() - 1) : null,
                        ratio ? median / ArmStatistics.median(baseline) : null,
                        spread ? (isBaseline ? ArmStatistics.relativeSpread(values) : ArmStatistics.aaSpread(baseline, values)) : null,
                        p, pHolm, family, verdict == null ? null : verdict.resolved(), verdict == null ? null : verdict.words()));
            }
        }
        return out;
    }

    /** A verdict: whether resolved, and the words the report prints. */
    record Verdict(boolean resolved, String words) {
    }

    /**
     * The verdict on arm {@code b} against baseline {@code a} (counted rounds, sorted), given the permutation p and its
     * Holm-adjusted value over {@code family} metrics (null when either arm has fewer than 2 rounds).
     */
    static Verdict verdict(List<Double> a, List<Double> b, Double p, Double pHolm, int family) {
        if (a.isEmpty() || b.isEmpty()) {
            return new Verdict(false, "no data");
        }
        if (p == null) {
            return new Verdict(false, "not resolvable (fewer than 2 counted rounds per arm)");
        }
        double medianA = ArmStatistics.median(a);
        double change = medianA == 0 ? 0 : (ArmStatistics.median(b) - medianA) / medianA;
        String rounds = String.format(Locale.ROOT, "%d vs %d rounds", a.size(), b.size());
        String pText = String.format(Locale.ROOT, "p = %s, Holm over %d metrics %s", pValue(p), family, pValue(pHolm));
        if (ArmStatistics.overlap(a, b)) {
            return new Verdict(false, String.format(Locale.ROOT, "not resolvable: %+.1f %% (ranges overlap; %s; %s)", 100 * change, pText,
                    rounds));
        }
        if (Math.abs(change) < SMALLEST_CHANGE) {
            return new Verdict(false, String.format(Locale.ROOT, "not resolvable: %+.1f %% (ranges apart, but too small to show; %s)",
                    100 * change, rounds));
        }
        if (a.size() < MIN_ROUNDS || b.size() < MIN_ROUNDS) {
            return new Verdict(false, String.format(Locale.ROOT, "indicative: %+.1f %% (ranges apart; %s; %s, resolved needs %d per arm)",
                    100 * change, pText, rounds, MIN_ROUNDS));
        }
        if (pHolm > ALPHA) {
            return new Verdict(false, String.format(Locale.ROOT, "indicative: %+.1f %% (ranges apart; %s, above %.2f; %s)", 100 * change,
                    pText, ALPHA, rounds));
        }
        return new Verdict(true, String.format(Locale.ROOT, "resolved: %+.1f %% (%s; %s)", 100 * change, pText, rounds));
    }

    public static String pValue(double p) {
        return p >= 0.1 ? String.format(Locale.ROOT, "%.2f", p) : p >= 0.001 ? String.format(Locale.ROOT, "%.4f", p)
                : String.format(Locale.ROOT, "%.1e", p);
    }
}
