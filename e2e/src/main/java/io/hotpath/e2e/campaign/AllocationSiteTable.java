package io.hotpath.e2e.campaign;

import io.hotpath.e2e.measure.RunMetrics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The campaign report's table of the masters' allocation by site, from the profiled round of each arm
 * ({@code --alloc-sites}): per site ({@link io.hotpath.e2e.measure.AllocationSites}) its bytes per acknowledged
 * message, one column per arm.
 * Sites are named when they hold at least {@link #SITE_SHARE} of some arm's allocation (the same rows for every
 * arm), largest first, at most {@link #MAX_SITES}; the rest add up to "other sites".
 */
final class AllocationSiteTable {

    static final double SITE_SHARE = 0.02;
    static final int MAX_SITES = 20;
    static final String OTHER = "other sites";

    private AllocationSiteTable() {
    }

    /** {@code profiled}: the profiled rounds of one scenario, at most one per arm. */
    static String markdown(List<Arm> arms, List<CampaignReport.ArmRound> profiled) {
        StringBuilder out = new StringBuilder("Masters' allocation by site, B per acked message, from one profiled round per arm"
                + " (after the measured rounds; its figures enter no statistic above). JFR allocation samples with their stacks"
                + " (jdk.ObjectAllocationSample), each weighted by the bytes its thread allocated since its previous"
                + " sample, summed by the innermost frame of RocketMQ's or our code (else by thread group); each site's share of"
                + " the samples times the round's exact allocated bytes (thread counters), so the column adds up to the last"
                + " row. One round per arm: shares, not a resolved difference. Named: sites above "
                + Math.round(100 * SITE_SHARE) + " % of some arm's allocation.\n\n");
        List<Map<String, Double>> columns = new ArrayList<>();
        List<RunMetrics> metrics = new ArrayList<>();
        for (Arm arm : arms) {
            RunMetrics m = profiled.stream().filter(r -> r.arm().equals(arm)).map(r -> r.result().metrics()).findFirst().orElse(null);
            metrics.add(m);
            columns.add(m == null ? Map.of() : m.masterAllocationSitesBytesPerMessage());
        }
        if (columns.stream().allMatch(Map::isEmpty)) {
            return out.append("No profiled round has allocation samples of both masters.\n").toString();
        }
        Map<String, Double> largestShare = new LinkedHashMap<>();
        for (int a = 0; a < arms.size(); a++) {
            double total = metrics.get(a) == null ? 0 : metrics.get(a).masterAllocatedBytesPerMessage();
            for (Map.Entry<String, Double> site : columns.get(a).entrySet()) {
                largestShare.merge(site.getKey(), total <= 0 ? 0 : site.getValue() / total, Math::max);
            }
        }
        List<String> named = largestShare.entrySet().stream().filter(site -> site.getValue() >= SITE_SHARE)
                .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .limit(MAX_SITES).map(Map.Entry::getKey).toList();
        StringJoiner head = new StringJoiner(" | ", "| site | ", " |\n");
        StringJoiner rule = new StringJoiner("|", "|---|", "|\n");
        arms.forEach(arm -> {
            head.add(arm.label());
            rule.add("---:");
        });
        out.append(head).append(rule);
        for (String site : named) {
            StringJoiner row = new StringJoiner(" | ", "| " + site + " | ", " |\n");
            columns.forEach(column -> row.add(column.isEmpty() ? "n/a" : CampaignReport.num(column.getOrDefault(site, 0.0))));
            out.append(row);
        }
        StringJoiner other = new StringJoiner(" | ", "| " + OTHER + " | ", " |\n");
        columns.forEach(column -> other.add(column.isEmpty() ? "n/a" : CampaignReport.num(column.entrySet().stream()
                .filter(site -> !named.contains(site.getKey())).mapToDouble(Map.Entry::getValue).sum())));
        out.append(other);
        StringJoiner total = new StringJoiner(" | ", "| all sites (thread counters, exact) | ", " |\n");
        StringJoiner samples = new StringJoiner(" | ", "| JFR samples | ", " |\n");
        for (int a = 0; a < arms.size(); a++) {
            RunMetrics m = metrics.get(a);
            boolean sampled = m != null && m.masterAllocationSites() != null;
            total.add(sampled ? CampaignReport.num(m.masterAllocatedBytesPerMessage()) : "n/a");
            samples.add(sampled ? String.format(Locale.ROOT, "%d", m.masterAllocationSites().samples()) : "n/a");
        }
        out.append(total).append(samples);
        StringJoiner dirs = new StringJoiner(", ", "\nProfiled rounds: ", "\n");
        profiled.forEach(r -> dirs.add(r.arm().label() + " " + r.result().verdict() + ", lost " + r.result().delivery().lost() + " ("
                + r.result().runDir().getFileName() + ")"));
        return out.append(dirs).toString();
    }
}
