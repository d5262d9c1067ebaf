package io.hotpath.e2e.check;

import com.google.gson.Gson;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.spec.FaultScenario;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Every send of a run that was not acknowledged, by phase (the load, the compat, relay and newer-client sends) and
 * reason ({@link SendLedger#failuresByReason()}), each either expected by the run's {@link FaultScenario} on its
 * release, or unexpected. A run fails on any unexpected one (issue 21): a send the cluster did not acknowledge is a
 * failure unless the fault the run injected explains it.
 *
 * <p>Flow control (SYSTEM_BUSY, response code 2: the broker shed load) is expected only where a kill fault on 5.x
 * explains it ({@link FaultScenario}), paced or not: otherwise a smoke that the broker rejected did not show the broker
 * holding its load, and an unpaced campaign round that pushed the broker
 * into shedding load is over capacity. Unpaced runs report the rejections per second beside TPS
 * ({@link #rejectionsPerSecond}) so that a saturated campaign says how far over it was.
 *
 * @param byPhase phase name -> reason -> sends; phases in the order they ran
 */
public record FailedSends(FaultScenario fault, String release, Map<String, Map<String, Long>> byPhase) {

    /** Phase of the measured load. */
    public static final String LOAD = "load";
    /** Failed sends whose reason the ledger does not know. */
    public static final String UNKNOWN_REASON = "reason unknown";
    /** A broker's flow-control answer in any client's reason: MQBrokerException with response code 2 (SYSTEM_BUSY). */
    private static final Pattern FLOW_CONTROL = Pattern.compile("(.* caused by )?MQBrokerException code 2( caused by .*)?");

    private static final Gson GSON = new Gson();

    /** One reason of one phase, with the expectation that covers it (null: unexpected). */
    public record Row(String phase, String reason, long sends, FaultScenario.ExpectedFailure expectedBy) {

        public boolean expected() {
            return expectedBy != null;
        }
    }

    public FailedSends {
        Map<String, Map<String, Long>> copy = new LinkedHashMap<>();
        byPhase.forEach((phase, reasons) -> {
            if (!reasons.isEmpty()) {
                copy.put(phase, Map.copyOf(new TreeMap<>(reasons)));
            }
        });
        byPhase = Collections.unmodifiableMap(copy);
    }

    /** No failed send (a run without ledgers besides the load's, or one where everything was acknowledged). */
    public static FailedSends none(FaultScenario fault, String release) {
        return new FailedSends(fault, release, Map.of());
    }

    /** From each phase's ledger, in the order given. */
    public static FailedSends of(FaultScenario fault, String release, Map<String, SendLedger> ledgers) {
        Map<String, Map<String, Long>> byPhase = new LinkedHashMap<>();
        ledgers.forEach((phase, ledger) -> {
            Map<String, Long> reasons = new TreeMap<>(ledger.failuresByReason());
            // a ledger read from a file of an older child JVM may carry outcomes without their reasons
            long unnamed = ledger.notOk() + ledger.failed() - reasons.values().stream().mapToLong(Long::longValue).sum();
            if (unnamed > 0) {
                reasons.put(UNKNOWN_REASON, unnamed);
            }
            byPhase.put(phase, reasons);
        });
        return new FailedSends(fault, release, byPhase);
    }

    public static boolean flowControl(String reason) {
        return FLOW_CONTROL.matcher(reason).matches();
    }

    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        byPhase.forEach((phase, reasons) -> new TreeMap<>(reasons).forEach((reason, sends) ->
                rows.add(new Row(phase, reason, sends, expectation(reason).orElse(null)))));
        return rows;
    }

    private Optional<FaultScenario.ExpectedFailure> expectation(String reason) {
        // FaultScenario alone decides: only the kill faults on 5.x name flow control (SmokeVerdictTest checks every other one)
        return fault.expectation(reason, release);
    }

    public long total() {
        return rows().stream().mapToLong(Row::sends).sum();
    }

    public long unexpected() {
        return rows().stream().filter(r -> !r.expected()).mapToLong(Row::sends).sum();
    }

    public long expected() {
        return total() - unexpected();
    }

    /** The load phase's flow-control rejections per second of the load, by reason; empty when there were none. */
    public Map<String, Double> rejectionsPerSecond(double loadSeconds) {
        Map<String, Double> perSecond = new TreeMap<>();
        byPhase.getOrDefault(LOAD, Map.of()).forEach((reason, sends) -> {
            if (flowControl(reason) && loadSeconds > 0) {
                perSecond.put(reason, sends / loadSeconds);
            }
        });
        return perSecond;
    }

    /** "expected by kill-slave" or "UNEXPECTED". */
    public String verdict(Row row) {
        return row.expected() ? "expected by " + fault.option() : "UNEXPECTED";
    }

    /** Summary lines, one per phase and reason; "" when every send was acknowledged. */
    public String summaryLines() {
        if (byPhase.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "  failed sends by reason: %d, of them unexpected %d%s%n",
                total(), unexpected(), fault == FaultScenario.NONE ? " (no fault injected: every failed send is unexpected)" : ""));
        for (Row row : rows()) {
            out.append(String.format(Locale.ROOT, "    %s: %s x%d, %s%s%n", row.phase(), row.reason(), row.sends(), verdict(row),
                    row.expected() ? " (" + row.expectedBy().why() + ")" : flowControl(row.reason())
                            ? " (flow control: the broker shed load; no fault of this run explains it)" : ""));
        }
        return out.toString();
    }

    /** A JSON array of {phase, reason, sends, expected, expectedBy}. */
    public String json() {
        StringJoiner out = new StringJoiner(", ", "[", "]");
        for (Row row : rows()) {
            out.add(String.format(Locale.ROOT, "{\"phase\": %s, \"reason\": %s, \"sends\": %d, \"expected\": %b, \"expectedBy\": %s}",
                    GSON.toJson(row.phase()), GSON.toJson(row.reason()), row.sends(), row.expected(),
                    row.expected() ? GSON.toJson(fault.option() + ": " + row.expectedBy().why()) : "null"));
        }
        return out.toString();
    }
}
