package io.hotpath.e2e.report;

import io.hotpath.e2e.cli.CampaignOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * Stock vs patched over a campaign's rounds: per scenario and metric the median, min-max and the ratio of
 * medians, and whether the difference is resolvable: only when the two arms' min-max ranges do not overlap
 * and the medians differ by more than the larger relative spread of one arm (its A/A spread, the
 * round-to-round noise). With one round per arm nothing is resolvable, and the report says so. CPU figures
 * of a round where other processes used the machine ({@link RunMetrics#busyMachine()}) are dropped.
 */
public final class CampaignReport {

    /** One finished round. */
    public record Round(String scenario, int round, String flavor, SmokeResult result) {
    }

    /** What the report compares; {@code cpu} metrics are dropped for rounds on a busy machine. */
    record Metric(String key, String label, String unit, boolean cpu, Function<SmokeResult, Double> value) {
    }

    static final List<Metric> METRICS = List.of(
            new Metric("tps", "TPS", "acked msg/s", false, r -> r.load().tps()),
            new Metric("rtP99Ms", "RT p99", "ms", false, r -> r.load().rtPercentilesMillis().get("p99")),
            new Metric("rtAvgMs", "RT avg", "ms", false, r -> r.load().avgRtMillis()),
            new Metric("masterCpuUserMicrosPerMsg", "master user CPU", "us/msg", true, r -> m(r, RunMetrics::masterUserMicrosPerMessage)),
            new Metric("masterCpuSystemMicrosPerMsg", "master system CPU", "us/msg", true, r -> m(r, RunMetrics::masterSystemMicrosPerMessage)),
            new Metric("slaveCpuUserMicrosPerMsg", "slave user CPU", "us/msg", true, r -> m(r, RunMetrics::slaveUserMicrosPerMessage)),
            new Metric("loadGeneratorCpuMicrosPerMsg", "load generator CPU", "us/msg", true, r -> m(r, RunMetrics::loadGeneratorMicrosPerMessage)),
            new Metric("masterAllocatedBytesPerMsg", "master allocated", "B/msg", false, r -> m(r, RunMetrics::masterAllocatedBytesPerMessage)),
            new Metric("commitLogBytesPerMsg", "CommitLog", "B/msg", false, r -> m(r, RunMetrics::commitLogBytesPerMessage)),
            new Metric("masterGcPauseMsTotal", "master GC pauses", "ms/round", false, r -> m(r, x -> x.masterGcPauseMillisTotal())));

    private static Double m(SmokeResult result, Function<RunMetrics, Double> figure) {
        if (result.metrics() == null) {
            return null;
        }
        double value = figure.apply(result.metrics());
        return value < 0 ? null : value;
    }

    private final List<Round> rounds;
    private final List<String> flavors;

    public CampaignReport(List<Round> rounds, List<String> flavors) {
        this.rounds = List.copyOf(rounds);
        this.flavors = List.copyOf(flavors);
    }

    List<Double> values(String scenario, String flavor, Metric metric) {
        List<Double> values = new ArrayList<>();
        for (Round round : rounds) {
            if (round.scenario().equals(scenario) && round.flavor().equals(flavor)) {
                boolean busy = round.result().metrics() != null && round.result().metrics().busyMachine();
                Double value = metric.value().apply(round.result());
                if (value != null && !(metric.cpu() && busy)) {
                    values.add(value);
                }
            }
        }
        return values.stream().sorted().toList();
    }

    private long busyRounds(String scenario, String flavor) {
        return rounds.stream().filter(r -> r.scenario().equals(scenario) && r.flavor().equals(flavor))
                .filter(r -> r.result().metrics() != null && r.result().metrics().busyMachine()).count();
    }

    List<String> scenarios() {
        return rounds.stream().map(Round::scenario).distinct().toList();
    }

    /** The verdict line of one metric; {@code a} is the baseline (stock), {@code b} the treatment. */
    static String verdict(List<Double> a, List<Double> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return "no data";
        }
        if (a.size() < 2 || b.size() < 2) {
            return "not resolvable (fewer than 2 rounds per arm: no A/A spread to compare with)";
        }
        double medianA = BarChart.median(a);
        double medianB = BarChart.median(b);
        double spread = Math.max(relativeSpread(a), relativeSpread(b));
        double difference = medianA == 0 ? 0 : Math.abs(medianB - medianA) / medianA;
        boolean overlap = a.get(0) <= b.get(b.size() - 1) && b.get(0) <= a.get(a.size() - 1);
        if (!overlap && difference > spread) {
            // with few rounds, separated ranges are weak evidence: say how often equal arms would separate
            String chance = spread == 0 ? "" : String.format(Locale.ROOT, "; equal arms would separate by chance with p = %.2f",
                    chanceOfSeparation(a.size(), b.size()));
            return String.format(Locale.ROOT, "resolved: %+.1f %% vs A/A spread %.1f %% (ranges do not overlap%s)",
                    100 * (medianB - medianA) / medianA, 100 * spread, chance);
        }
        return String.format(Locale.ROOT, "not resolvable: %+.1f %% within A/A spread %.1f %%%s",
                medianA == 0 ? 0 : 100 * (medianB - medianA) / medianA, 100 * spread, overlap ? " (ranges overlap)" : "");
    }

    /**
     * The probability that every round of one arm lies beyond every round of the other when both arms
     * measure the same thing (rounds exchangeable): 2 / C(n + m, n). 2 vs 2 rounds: 0.33; 3 vs 3: 0.10;
     * 5 vs 5: 0.008.
     */
    static double chanceOfSeparation(int n, int m) {
        double combinations = 1;
        for (int i = 1; i <= n; i++) {
            combinations = combinations * (m + i) / i;
        }
        return Math.min(1, 2 / combinations);
    }

    static double relativeSpread(List<Double> sorted) {
        double median = BarChart.median(sorted);
        return median == 0 ? 0 : (sorted.get(sorted.size() - 1) - sorted.get(0)) / median;
    }

    /** {@code release}: the line both arms run (stock and patched builds of the same upstream release). */
    public String markdown(CampaignOptions options, String release, String header) {
        StringBuilder out = new StringBuilder();
        out.append("# Campaign: stock vs patched RocketMQ ").append(release).append(" (2m-2s, ").append(options.net().option()).append(")\n\n")
                .append(header).append("\n\n");
        out.append(String.format(Locale.ROOT, "Rounds per arm: %d, alternating %s; warm-up %d s discarded, measured %d s per round, %s.%n",
                options.rounds(), String.join(" / ", flavors), options.warmupSeconds(), options.seconds(),
                options.rate() > 0 ? "paced at " + options.rate() + " msg/s" : "saturated (unpaced)"));
        out.append("A difference counts as resolved only when the two arms' min-max ranges do not overlap and the medians"
                + " differ by more than the larger relative min-max spread of one arm (A/A spread). CPU figures of rounds on a"
                + " busy machine are dropped. Separated ranges can happen by chance with few rounds: each such verdict gives"
                + " the probability that two equal arms would separate as far (2 / C(n + m, n)); a metric measured exactly"
                + " (CommitLog bytes) needs no such caution.\n");
        long busy = rounds.stream().filter(r -> r.result().metrics() != null && r.result().metrics().busyMachine()).count();
        out.append(busy == 0
                ? "Every round ran on a quiet machine (no other process used noticeable CPU during its measured window).\n"
                : busy + " of " + rounds.size() + " rounds ran while other processes used noticeable CPU: their CPU figures are"
                    + " dropped, and TPS / latency of the whole campaign are not quotable.\n");
        out.append("What to expect: the patched hot paths save a few hundred ns per message, under 1 % of a master's CPU per"
                + " message, so CPU and TPS differences are expected to stay within the A/A spread; CommitLog bytes and"
                + " allocated bytes per message are the metrics that must resolve.\n");
        for (String scenario : scenarios()) {
            out.append("\n## ").append(scenario).append("\n\n");
            StringJoiner head = new StringJoiner(" | ", "| metric | ", " | ratio | verdict |\n");
            StringJoiner rule = new StringJoiner("|", "|---|", "|---:|---|\n");
            for (String flavor : flavors) {
                head.add(flavor + " median [min-max] (n)");
                rule.add("---:");
            }
            out.append(head).append(rule);
            for (Metric metric : METRICS) {
                List<List<Double>> arms = flavors.stream().map(f -> values(scenario, f, metric)).toList();
                StringJoiner row = new StringJoiner(" | ", "| ", " |\n");
                row.add(metric.label() + " (" + metric.unit() + ")");
                for (int i = 0; i < arms.size(); i++) {
                    List<Double> arm = arms.get(i);
                    long dropped = metric.cpu() ? busyRounds(scenario, flavors.get(i)) : 0;
                    row.add(arm.isEmpty() ? (dropped > 0 ? "n/a (" + dropped + " busy rounds dropped)" : "n/a") : String.format(Locale.ROOT, "%s [%s-%s] (%d)", num(BarChart.median(arm)),
                            num(arm.get(0)), num(arm.get(arm.size() - 1)), arm.size())
                            + (dropped > 0 ? ", " + dropped + " busy dropped" : ""));
                }
                boolean pair = arms.size() == 2 && !arms.get(0).isEmpty() && !arms.get(1).isEmpty();
                row.add(pair && BarChart.median(arms.get(0)) != 0
                        ? String.format(Locale.ROOT, "%.3f", BarChart.median(arms.get(1)) / BarChart.median(arms.get(0))) : "n/a");
                row.add(arms.size() == 2 ? verdict(arms.get(0), arms.get(1)) : "");
                out.append(row);
            }
        }
        out.append("\n## Rounds\n\n| scenario | round | distribution | result | acked | failed | lost | busy machine | run dir |\n|---|---:|---|---|---:|---:|---:|---|---|\n");
        for (Round round : rounds) {
            SmokeResult r = round.result();
            out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %d | %d | %d | %s | %s |%n", round.scenario(), round.round(),
                    round.flavor(), r.verdict(), r.load().acked(), r.load().failed(), r.delivery().lost(),
                    r.metrics() == null ? "n/a" : r.metrics().busyMachine() ? "yes" : "no", r.runDir().getFileName()));
        }
        out.append("\nCharts: tps.png, p99.png, master-cpu.png, allocated-bytes.png, commitlog-bytes.png\n");
        return out.toString();
    }

    public String json(CampaignOptions options, String release) {
        StringJoiner roundsJson = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (Round round : rounds) {
            StringJoiner fields = new StringJoiner(", ", "{", "}");
            fields.add("\"scenario\": \"" + round.scenario() + "\"").add("\"round\": " + round.round())
                    .add("\"flavor\": \"" + round.flavor() + "\"").add("\"result\": \"" + round.result().verdict() + "\"")
                    .add("\"runDir\": \"" + round.result().runDir() + "\"");
            for (Metric metric : METRICS) {
                Double value = metric.value().apply(round.result());
                fields.add("\"" + metric.key() + "\": " + (value == null ? "null" : String.format(Locale.ROOT, "%.3f", value)));
            }
            RunMetrics metrics = round.result().metrics();
            fields.add("\"otherCpuSeconds\": " + (metrics == null || metrics.otherCpuMicros() < 0 ? "null"
                    : String.format(Locale.ROOT, "%.2f", metrics.otherCpuMicros() / 1e6)));
            fields.add("\"busyMachine\": " + (metrics != null && metrics.busyMachine()));
            roundsJson.add(fields.toString());
        }
        // every round ran on the one network of the campaign: its figures once, at the top
        List<String> net = rounds.isEmpty() ? List.of("\"net\": \"" + options.net().option() + "\"")
                : rounds.get(0).result().network().jsonFields();
        return String.format(Locale.ROOT, "{\n  %s,\n  \"release\": \"%s\",\n  \"rounds_per_arm\": %d,\n  \"threads\": %s,\n  \"sizes\": %s,\n  \"queues\": %d,"
                        + "\n  \"rate\": %d,\n  \"warmupSeconds\": %d,\n  \"seconds\": %d,\n  \"rounds\": %s\n}\n",
                String.join(",\n  ", net), release, options.rounds(), options.threads(), options.sizes(), options.queues(), options.rate(),
                options.warmupSeconds(), options.seconds(), roundsJson);
    }

    public void writeCharts(Path dir) throws IOException {
        chart(dir.resolve("tps.png"), "TPS per scenario", "acked msg/s", METRICS.get(0));
        chart(dir.resolve("p99.png"), "RT p99 per scenario", "ms", METRICS.get(1));
        chart(dir.resolve("master-cpu.png"), "Master user CPU per message", "us/msg", METRICS.get(3));
        chart(dir.resolve("allocated-bytes.png"), "Bytes allocated per message on the masters (JFR)", "B/msg", METRICS.get(7));
        chart(dir.resolve("commitlog-bytes.png"), "CommitLog bytes per message", "B/msg", METRICS.get(8));
    }

    private void chart(Path file, String title, String unit, Metric metric) throws IOException {
        List<BarChart.Group> groups = new ArrayList<>();
        for (String scenario : scenarios()) {
            Map<String, List<Double>> arms = new LinkedHashMap<>();
            flavors.forEach(f -> arms.put(f, values(scenario, f, metric)));
            groups.add(new BarChart.Group(scenario, arms.entrySet().stream()
                    .map(e -> new BarChart.Bar(e.getKey(), e.getValue())).toList()));
        }
        BarChart.write(file, title, unit, flavors, groups);
    }

    public void write(Path dir, CampaignOptions options, String release, String header) throws IOException {
        Files.writeString(dir.resolve("campaign.json"), json(options, release));
        Files.writeString(dir.resolve("report.md"), markdown(options, release, header));
        writeCharts(dir);
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, value >= 1000 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }
}
