package io.hotpath.e2e.run;

import io.hotpath.e2e.check.DeliveryAudit;
import io.hotpath.e2e.check.DeliveryLateness;
import io.hotpath.e2e.check.FailedSends;
import io.hotpath.e2e.check.WarmupVerdict;
import io.hotpath.e2e.load.LoadResult;
import io.hotpath.e2e.load.TimedSends;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.node.NetworkSummary;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.NetMode;
import io.hotpath.e2e.spec.RoundSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One smoke run on one distribution: what was sent, what was read back, and the verdict. {@code delivery}
 * is every read-back in one verdict; {@code extraReadBacks} are those besides the load's, by name
 * ("hotpath_smoke_relay by 4.9.0"), already counted in {@code delivery}. {@code failedSends}: every send of the
 * run (load and extra sends) that was not acknowledged, by phase and reason, judged against the run's fault.
 * {@code warmup}: the warm-up load before the measured window, read back and judged apart ({@link WarmupVerdict#NONE}
 * without one).
 *
 * <p>A run passes when nothing acknowledged was lost or damaged, something was acknowledged, every failed
 * send is one its fault scenario expects ({@link FailedSends}), and its warm-up passed.
 */
public record RoundResult(String flavor, Distribution distribution, Path runDir, RoundSpec options, LoadResult load,
                          DeliveryAudit.DeliveryReport delivery, Map<String, DeliveryAudit.DeliveryReport> extraReadBacks,
                          FailedSends failedSends, double bootSeconds, double totalSeconds, RunMetrics metrics, NetworkSummary network,
                          WarmupVerdict warmup, DeliveryLateness timed) {

    public RoundResult {
        warmup = warmup == null ? WarmupVerdict.NONE : warmup;
        timed = timed == null ? DeliveryLateness.NONE : timed;
    }

    /** A round without the timed phase ({@link DeliveryLateness#NONE}). */
    public RoundResult(String flavor, Distribution distribution, Path runDir, RoundSpec options, LoadResult load,
                       DeliveryAudit.DeliveryReport delivery, Map<String, DeliveryAudit.DeliveryReport> extraReadBacks,
                       FailedSends failedSends, double bootSeconds, double totalSeconds, RunMetrics metrics, NetworkSummary network,
                       WarmupVerdict warmup) {
        this(flavor, distribution, runDir, options, load, delivery, extraReadBacks, failedSends, bootSeconds, totalSeconds, metrics,
                network, warmup, DeliveryLateness.NONE);
    }

    /** A round without a warm-up load. */
    public RoundResult(String flavor, Distribution distribution, Path runDir, RoundSpec options, LoadResult load,
                       DeliveryAudit.DeliveryReport delivery, Map<String, DeliveryAudit.DeliveryReport> extraReadBacks,
                       FailedSends failedSends, double bootSeconds, double totalSeconds, RunMetrics metrics, NetworkSummary network) {
        this(flavor, distribution, runDir, options, load, delivery, extraReadBacks, failedSends, bootSeconds, totalSeconds, metrics,
                network, WarmupVerdict.NONE);
    }

    /** Without extra sends and read-backs and cost figures ({@link #metrics()} null), on loopback. */
    public RoundResult(String flavor, Distribution distribution, Path runDir, RoundSpec options, LoadResult load,
                       DeliveryAudit.DeliveryReport delivery, double bootSeconds, double totalSeconds) {
        this(flavor, distribution, runDir, options, load, delivery, Map.of(), FailedSends.of(options.fault(), distribution.release(),
                Map.of(FailedSends.LOAD, load.ledger())), bootSeconds, totalSeconds, null, NetworkSummary.LOOPBACK);
    }

    public boolean passed() {
        return delivery.passed() && load.acked() > 0 && failedSends.unexpected() == 0 && warmup.passed() && timed.passed();
    }

    /** Why the run failed, one phrase per cause ("lost 3", "unexpected failed sends 1 {MQBrokerException code 2=1}"); empty on a pass. */
    public List<String> failureReasons() {
        List<String> reasons = new ArrayList<>();
        if (!delivery.passed()) {
            reasons.add("lost " + delivery.lost() + ", corrupt " + delivery.corrupt() + ", misplaced " + delivery.misplaced());
        }
        if (load.acked() == 0) {
            reasons.add("nothing acknowledged");
        }
        if (failedSends.unexpected() > 0) {
            Map<String, Long> unexpected = new TreeMap<>();
            failedSends.rows().stream().filter(r -> !r.expected())
                    .forEach(r -> unexpected.merge(r.phase() + ": " + r.reason(), r.sends(), Long::sum));
            reasons.add("unexpected failed sends " + failedSends.unexpected() + " " + unexpected);
        }
        reasons.addAll(warmup.failureReasons());
        reasons.addAll(timed.failureReasons());
        return reasons;
    }

    public String verdict() {
        return passed() ? "PASS" : "FAIL";
    }

    /** The block printed after each run. */
    public String summary() {
        Map<String, Double> p = load.rtPercentilesMillis();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "== %s: %s ==%n", flavor, verdict()));
        out.append(String.format(Locale.ROOT, "  sent %d, acked %d, failed %d%s, client retries %d%n",
                load.sent(), load.acked(), load.failed(), failures(), load.clientRetries()));
        out.append(String.format(Locale.ROOT, "  TPS %.0f acked/s over %.1f s%s; RT avg %.2f ms, max %.1f ms (p50 %.2f, p99 %.1f, p99.9 %.1f)%n",
                load.tps(), load.seconds(), rejections(), load.avgRtMillis(), load.maxRtMillis(), p.get("p50"), p.get("p99"), p.get("p999")));
        out.append(String.format(Locale.ROOT, "  read back %d messages: %d acked and intact where acked, duplicates %d,"
                        + " stored but not acked %d (non-OK status %d, after an exception %d), other %d%n",
                delivery.read(), delivery.confirmed(), delivery.duplicates(), delivery.storedUnacked(),
                delivery.storedNotOk(), delivery.storedAfterFailure(), delivery.foreign()));
        out.append(String.format(Locale.ROOT, "  lost %d, corrupt %d, misplaced %d; stored without WAIT %d%s%n",
                delivery.lost(), delivery.corrupt(), delivery.misplaced(), delivery.withoutWait(),
                delivery.knownDefect() == 0 ? "" : "; with a known defect (listed below) " + delivery.knownDefect()));
        extraReadBacks.forEach((name, report) -> out.append(String.format(Locale.ROOT, "  read-back %s: %s, without WAIT %d%n",
                name, report.line(), report.withoutWait())));
        out.append(warmup.summaryLines());
        out.append(timed.summaryLines());
        if (load.maxScheduleLagNanos() >= 0) {
            out.append(String.format(Locale.ROOT, "  paced at %d msg/s: latest send started %.1f ms after its slot%s%n",
                    options.rate(), load.maxScheduleLagMillis(),
                    load.maxScheduleLagMillis() > 1000 ? " (the cluster did not keep up with the rate)" : ""));
        }
        if (metrics != null) {
            out.append(metrics.summaryLines());
        }
        if (!load.ledger().attemptFailuresByReason().isEmpty()) {
            out.append("  failed attempts inside the client: ").append(load.ledger().attemptFailuresByReason()).append('\n');
        }
        out.append(failedSends.summaryLines());
        for (String problem : delivery.problems()) {
            out.append("  ").append(problem).append('\n');
        }
        if (load.acked() == 0) {
            out.append("  nothing was acknowledged: the run proves nothing\n");
        }
        if (network.mode() != NetMode.LOOPBACK) {
            out.append("  network: ").append(network.describe()).append('\n');
        }
        out.append(String.format(Locale.ROOT, "  cluster boot %.1f s, whole run %.1f s; run dir %s%n", bootSeconds, totalSeconds, runDir));
        return out.toString();
    }

    /**
     * Beside TPS, for an unpaced (saturated) run: the load's flow-control rejections per second by reason, "0/s" included,
     * so that a saturated figure says whether the broker shed load to reach it. A paced run shows them only when there
     * were some (they fail it either way).
     */
    private String rejections() {
        Map<String, Double> perSecond = failedSends.rejectionsPerSecond(load.seconds());
        if (perSecond.isEmpty()) {
            return options.rate() == 0 ? ", rejected by flow control 0/s" : "";
        }
        StringJoiner out = new StringJoiner(", ", ", rejected by flow control ", "");
        perSecond.forEach((reason, rate) -> out.add(String.format(Locale.ROOT, "%.1f/s (%s)", rate, reason)));
        return out.toString();
    }

    private String failures() {
        Map<String, Long> reasons = load.ledger().failuresByReason();
        return reasons.isEmpty() ? "" : " " + reasons;
    }

    /** Markdown table, one column per run, for {@code --dist both}. */
    public static String sideBySide(List<RoundResult> results) {
        List<String[]> rows = new ArrayList<>();
        row(rows, results, "result", RoundResult::verdict);
        row(rows, results, "sent / acked / failed", r -> r.load.sent() + " / " + r.load.acked() + " / " + r.load.failed());
        row(rows, results, "failed sends unexpected / expected", r -> r.failedSends.unexpected() + " / " + r.failedSends.expected());
        row(rows, results, "client retries", r -> Long.toString(r.load.clientRetries()));
        row(rows, results, "TPS (acked/s)", r -> String.format(Locale.ROOT, "%.0f", r.load.tps()));
        row(rows, results, "RT avg / max (ms)", r -> String.format(Locale.ROOT, "%.2f / %.1f", r.load.avgRtMillis(), r.load.maxRtMillis()));
        row(rows, results, "RT p99 (ms)", r -> String.format(Locale.ROOT, "%.1f", r.load.rtPercentilesMillis().get("p99")));
        row(rows, results, "master CPU us/msg (user / sys)", r -> r.metrics == null ? "n/a" : String.format(Locale.ROOT,
                "%.1f / %.1f", r.metrics.masterUserMicrosPerMessage(), r.metrics.masterSystemMicrosPerMessage()));
        row(rows, results, "master allocated B/msg", r -> r.metrics == null ? "n/a" : String.format(Locale.ROOT,
                "%.0f", r.metrics.masterAllocatedBytesPerMessage()));
        row(rows, results, "CommitLog B/msg", r -> r.metrics == null ? "n/a" : String.format(Locale.ROOT,
                "%.1f", r.metrics.commitLogBytesPerMessage()));
        row(rows, results, "duplicates / stored unacked", r -> r.delivery.duplicates() + " / " + r.delivery.storedUnacked());
        row(rows, results, "lost / corrupt / misplaced", r -> r.delivery.lost() + " / " + r.delivery.corrupt() + " / " + r.delivery.misplaced());
        row(rows, results, "stored without WAIT", r -> Long.toString(r.delivery.withoutWait()));
        row(rows, results, "warm-up acked / lost / failed after 1st SEND_OK", r -> !r.warmup.ran() ? "none"
                : r.warmup.acked() + " / " + r.warmup.delivery().lost() + " / " + r.warmup.unexpectedFailedSends());
        row(rows, results, "timed: lost / corrupt / early / duplicates", r -> !r.timed.ran() ? "none"
                : r.timed.lost() + " / " + r.timed.corrupt() + " / " + r.timed.early() + " / " + r.timed.duplicates());
        for (TimedSends.Kind kind : List.of(TimedSends.Kind.PLAIN, TimedSends.Kind.TIMER, TimedSends.Kind.DELAY_LEVEL_1,
                TimedSends.Kind.DELAY_LEVEL_2)) {
            row(rows, results, kind.label() + " late median / p90 / max (ms)", r -> r.timed.cell(kind));
        }
        row(rows, results, "boot / whole run (s)", r -> String.format(Locale.ROOT, "%.0f / %.0f", r.bootSeconds, r.totalSeconds));

        StringJoiner header = new StringJoiner(" | ", "| | ", " |\n");
        StringJoiner rule = new StringJoiner("|", "|---|", "|\n");
        results.forEach(r -> {
            header.add(r.flavor);
            rule.add("---:");
        });
        StringBuilder out = new StringBuilder(header.toString()).append(rule);
        for (String[] row : rows) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return out.toString();
    }

    private static void row(List<String[]> rows, List<RoundResult> results, String label, Function<RoundResult, String> cell) {
        String[] row = new String[results.size() + 1];
        row[0] = label;
        for (int i = 0; i < results.size(); i++) {
            row[i + 1] = cell.apply(results.get(i));
        }
        rows.add(row);
    }

    /** Writes {@code smoke-result.json} into the run directory (flat, machine-readable; issue 5's report reads it). */
    public Path writeJson() throws IOException {
        Map<String, Double> p = load.rtPercentilesMillis();
        StringJoiner json = new StringJoiner(",\n  ", "{\n  ", "\n}\n");
        json.add(field("flavor", flavor)).add(field("line", distribution.release()))
                .add(field("distribution", distribution.home().toString())).add(field("result", verdict()));
        network.jsonFields().forEach(json::add);
        json.add("\"patches\": " + distribution.patches().stream().map(RoundResult::quote).collect(Collectors.joining(", ", "[", "]")));
        // what a "+tuned" arm or a --tuned smoke laid over every broker; null when nothing
        json.add("\"tuned\": " + (distribution.tuning() == null ? "null" : quote(distribution.tuning().describe())));
        json.add(field("masterRole", distribution.masterRole()));
        json.add(field("messages", options.messages())).add(field("threads", options.threads()))
                .add(field("bodyBytes", options.bodySize())).add(field("queuesPerMaster", options.queuesPerMaster()));
        json.add(field("sent", load.sent())).add(field("acked", load.acked())).add(field("failed", load.failed()))
                .add(field("clientAttempts", load.ledger().attempts())).add(field("clientRetries", load.clientRetries()));
        json.add("\"failuresByReason\": " + jsonMap(load.ledger().failuresByReason()));
        json.add(field("fault", options.fault().option())).add("\"failedSends\": " + failedSends.json())
                .add(field("failedSendsUnexpected", failedSends.unexpected())).add(field("failedSendsExpected", failedSends.expected()));
        StringJoiner rejected = new StringJoiner(", ", "{", "}");
        failedSends.rejectionsPerSecond(load.seconds()).forEach((reason, rate) -> rejected.add(quote(reason) + ": "
                + String.format(Locale.ROOT, "%.3f", rate)));
        json.add("\"rejectionsPerSecond\": " + rejected);
        json.add("\"attemptFailuresByReason\": " + jsonMap(load.ledger().attemptFailuresByReason()));
        json.add(field("loadSeconds", load.seconds())).add(field("tps", load.tps()))
                .add(field("rtAvgMs", load.avgRtMillis())).add(field("rtMaxMs", load.maxRtMillis()))
                .add(field("rtP50Ms", p.get("p50"))).add(field("rtP99Ms", p.get("p99"))).add(field("rtP999Ms", p.get("p999")));
        json.add(field("readBack", delivery.read())).add(field("confirmed", delivery.confirmed()))
                .add(field("lost", delivery.lost())).add(field("corrupt", delivery.corrupt())).add(field("misplaced", delivery.misplaced()))
                .add(field("duplicates", delivery.duplicates())).add(field("storedNotOk", delivery.storedNotOk()))
                .add(field("storedAfterFailure", delivery.storedAfterFailure())).add(field("foreign", delivery.foreign()))
                .add(field("storedWithoutWait", delivery.withoutWait())).add(field("knownDefect", delivery.knownDefect()));
        StringJoiner extra = new StringJoiner(", ", "{", "}");
        extraReadBacks.forEach((name, r) -> extra.add(quote(name) + ": {" + String.join(", ", field("readBack", r.read()),
                field("acked", r.acked()), field("confirmed", r.confirmed()), field("lost", r.lost()), field("corrupt", r.corrupt()),
                field("misplaced", r.misplaced()), field("duplicates", r.duplicates()), field("storedWithoutWait", r.withoutWait()),
                field("knownDefect", r.knownDefect())) + "}"));
        json.add("\"extraReadBacks\": " + extra);
        json.add("\"warmup\": " + warmup.json());
        json.add("\"timed\": " + timed.json());
        json.add(field("seconds", options.seconds())).add(field("rate", options.rate()))
                .add(field("maxScheduleLagMs", load.maxScheduleLagMillis()));
        json.add("\"brokerJvmOptions\": " + options.brokerJvmOptions().stream().map(RoundResult::quote)
                .collect(Collectors.joining(", ", "[", "]")));
        if (metrics != null) {
            metrics.addJsonFields(json);
        }
        json.add(field("bootSeconds", bootSeconds)).add(field("totalSeconds", totalSeconds));
        Path file = runDir.resolve("smoke-result.json");
        Files.writeString(file, json.toString());
        return file;
    }

    private static String field(String name, Object value) {
        String rendered = value instanceof Number number
                ? (number instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : number.toString())
                : quote(String.valueOf(value));
        return quote(name) + ": " + rendered;
    }

    private static String jsonMap(Map<String, Long> map) {
        StringJoiner out = new StringJoiner(", ", "{", "}");
        map.forEach((k, v) -> out.add(quote(k) + ": " + v));
        return out.toString();
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
