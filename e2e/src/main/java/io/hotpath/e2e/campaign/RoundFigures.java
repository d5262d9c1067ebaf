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
        if (jitShare == null || jitShare < 0) {
            why.add("JIT share not measured");
        } else if (jitShare >= RunMetrics.WARM_JIT_SHARE) {
            why.add(String.format(Locale.ROOT, "not warm (JIT %.1f %% of %s, warm below %.0f %%)", 100 * jitShare, jitOf,
                    100 * RunMetrics.WARM_JIT_SHARE));
        }
        return why;
    }

    public boolean counts() {
        return exclusions().isEmpty();
    }

    public Double figure(String metric) {
        return figures.get(metric);
    }
}
