package io.hotpath.e2e.idle;

import io.hotpath.e2e.campaign.RoundFigures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One arm's idle window in one round: where it ran and what it measured. idle-*.json lists these as they are (Gson).
 *
 * @param machine        "quiet", "busy" or "unknown" (the window's {@link io.hotpath.e2e.measure.OtherCpu#load()})
 * @param settledSeconds seconds from the cluster's boot to the window (the fixed settle time and the JIT probes)
 */
public record IdleRound(int round, String arm, String line, String flavor, String runDir, String machine, int settledSeconds,
                        IdleFigures figures) {

    /** The scenario name the verdicts group rounds by: an idle report has one. */
    static final String SCENARIO = "idle";

    /**
     * What the verdicts know of this round: an idle round that finished passed (a node that died fails the whole run), lost
     * nothing (nothing was sent), and counts when quiet and warm ({@link RoundFigures#exclusions()}; the JIT share here
     * is of this round's own master CPU: {@link IdleReport} judges it against the baseline's).
     */
    RoundFigures verdictFigures(List<IdleReport.Metric> metrics) {
        Map<String, Double> values = new LinkedHashMap<>();
        metrics.forEach(metric -> values.put(metric.key(), metric.value().apply(figures)));
        return new RoundFigures(SCENARIO, round, arm, true, List.of(), 0, machine,
                figures.masterJitShare() < 0 ? null : figures.masterJitShare(), values);
    }
}
