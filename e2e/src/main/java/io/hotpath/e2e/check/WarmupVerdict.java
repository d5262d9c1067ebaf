package io.hotpath.e2e.check;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.spec.FaultScenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The warm-up load of a round (before the measured window, on a topic of its own), judged like the measured load but
 * reported apart: every acknowledged message read back intact where acknowledged ({@link Verifier}, {@link DeliveryAudit}),
 * something acknowledged, and no failed send after the cluster's first SEND_OK. The sends made before a fresh cluster
 * ever acknowledged one (its route and its masters' first answers are still settling) may fail; they are counted and
 * listed, not judged. "Before" is by when the send began ({@link SendLedger#failuresBegunBefore}): a send handed over
 * after the first SEND_OK came back was made to a cluster known to answer. No fault is injected during the warm-up (the
 * faults fire in the measured window), so every later failure is unexpected ({@link FaultScenario#NONE}).
 *
 * @param slices               the warm-up's loads (one, or one per slice of a warm-up until the JIT is quiet)
 * @param seconds              how long they sent, together
 * @param sent                 sends completed, every slice
 * @param acked                of them acknowledged
 * @param failedBeforeFirstAck failed sends begun before the cluster's first SEND_OK, by reason: tolerated
 * @param failedAfterFirstAck  failed sends begun at or after it, by reason, each unexpected
 * @param delivery             the read-back of every slice, one report
 * @param readBackSeconds      how long that read-back took
 */
public record WarmupVerdict(int slices, double seconds, long sent, long acked, Map<String, Long> failedBeforeFirstAck,
                            FailedSends failedAfterFirstAck, DeliveryAudit.DeliveryReport delivery, double readBackSeconds) {

    /** The topic's phase name in {@link #failedAfterFirstAck}. */
    public static final String PHASE = "warm-up";

    /** A round without a warm-up load: nothing to judge. */
    public static final WarmupVerdict NONE = new WarmupVerdict(0, 0, 0, 0, Map.of(), FailedSends.none(FaultScenario.NONE, ""),
            new DeliveryAudit.DeliveryReport(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of()), 0);

    private static final Gson GSON = new Gson();

    public WarmupVerdict {
        failedBeforeFirstAck = Map.copyOf(new TreeMap<>(failedBeforeFirstAck));
    }

    /**
     * The verdict on the warm-up's {@code ledgers} (in the order they ran, all recorded in this JVM) and their read-back
     * {@code delivery}, on a broker of {@code release}.
     */
    public static WarmupVerdict judge(List<SendLedger> ledgers, double seconds, DeliveryAudit.DeliveryReport delivery,
                                      double readBackSeconds, String release) {
        long cut = firstAckNanos(ledgers);
        Map<String, Long> before = new TreeMap<>();
        Map<String, Long> after = new TreeMap<>();
        long sent = 0;
        long acked = 0;
        for (SendLedger ledger : ledgers) {
            ledger.failuresBegunBefore(cut).forEach((reason, sends) -> before.merge(reason, sends, Long::sum));
            ledger.failuresBegunFrom(cut).forEach((reason, sends) -> after.merge(reason, sends, Long::sum));
            sent += ledger.completed();
            acked += ledger.acked();
        }
        return new WarmupVerdict(ledgers.size(), seconds, sent, acked, before,
                new FailedSends(FaultScenario.NONE, release, Map.of(PHASE, after)), delivery, readBackSeconds);
    }

    /**
     * When the cluster first answered SEND_OK to any of {@code ledgers} ({@link System#nanoTime()});
     * {@link Long#MAX_VALUE} when it never did: every failure then came before it (and nothing acknowledged fails the warm-up).
     */
    public static long firstAckNanos(List<SendLedger> ledgers) {
        return ledgers.stream().map(SendLedger::firstAckNanos).filter(OptionalLong::isPresent).mapToLong(OptionalLong::getAsLong)
                .min().orElse(Long.MAX_VALUE);
    }

    /** Whether the round had a warm-up load. */
    public boolean ran() {
        return slices > 0;
    }

    public long failedBeforeFirstAckTotal() {
        return failedBeforeFirstAck.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Failed sends begun after the cluster's first SEND_OK: each fails the warm-up. */
    public long unexpectedFailedSends() {
        return failedAfterFirstAck.unexpected();
    }

    /** No warm-up, or one whose acknowledged messages all came back intact, with something acknowledged and no failed send after the first SEND_OK. */
    public boolean passed() {
        return !ran() || failureReasons().isEmpty();
    }

    /** Why the warm-up failed, one phrase per cause prefixed "warm-up: "; empty on a pass. */
    public List<String> failureReasons() {
        List<String> reasons = new ArrayList<>();
        if (!ran()) {
            return reasons;
        }
        if (!delivery.passed()) {
            reasons.add("warm-up: lost " + delivery.lost() + ", corrupt " + delivery.corrupt() + ", misplaced " + delivery.misplaced());
        }
        if (acked == 0) {
            reasons.add("warm-up: nothing acknowledged");
        }
        if (unexpectedFailedSends() > 0) {
            reasons.add("warm-up: failed sends after the cluster's first SEND_OK " + unexpectedFailedSends() + " "
                    + failedAfterFirstAck.byPhase().getOrDefault(PHASE, Map.of()));
        }
        return reasons;
    }

    /** The summary's lines: the warm-up's sends, its read-back and its problems; "" without a warm-up. */
    public String summaryLines() {
        if (!ran()) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "  warm-up (%d load%s, %.1f s, reported apart): %s;"
                        + " sent %d, acked %d; failed before the cluster's first SEND_OK %d%s (not judged), after it %d%s%n",
                slices, slices == 1 ? "" : "s", seconds, passed() ? "PASS" : "FAIL", sent, acked, failedBeforeFirstAckTotal(),
                failedBeforeFirstAck.isEmpty() ? "" : " " + failedBeforeFirstAck, unexpectedFailedSends(),
                unexpectedFailedSends() == 0 ? "" : " " + failedAfterFirstAck.byPhase().get(PHASE) + " UNEXPECTED"));
        out.append(String.format(Locale.ROOT, "  warm-up read back in %.1f s: %s; duplicates %d, stored but not acked %d%n",
                readBackSeconds, delivery.line(), delivery.duplicates(), delivery.storedUnacked()));
        for (String problem : delivery.problems()) {
            out.append("  warm-up: ").append(problem).append('\n');
        }
        return out.toString();
    }

    /** smoke-result.json's {@code warmup} object; {@code {"ran": false}} without a warm-up. */
    public String json() {
        JsonObject json = new JsonObject();
        json.addProperty("ran", ran());
        if (ran()) {
            json.addProperty("result", passed() ? "PASS" : "FAIL");
            json.addProperty("loads", slices);
            json.addProperty("seconds", Math.round(seconds * 1000) / 1000.0);
            json.addProperty("sent", sent);
            json.addProperty("acked", acked);
            json.add("failedBeforeFirstAck", GSON.toJsonTree(new TreeMap<>(failedBeforeFirstAck)));
            json.addProperty("failedBeforeFirstAckTotal", failedBeforeFirstAckTotal());
            json.add("failedAfterFirstAck", JsonParser.parseString(failedAfterFirstAck.json()).getAsJsonArray());
            json.addProperty("failedAfterFirstAckUnexpected", unexpectedFailedSends());
            json.addProperty("readBack", delivery.read());
            json.addProperty("confirmed", delivery.confirmed());
            json.addProperty("lost", delivery.lost());
            json.addProperty("corrupt", delivery.corrupt());
            json.addProperty("misplaced", delivery.misplaced());
            json.addProperty("duplicates", delivery.duplicates());
            json.addProperty("storedNotOk", delivery.storedNotOk());
            json.addProperty("storedAfterFailure", delivery.storedAfterFailure());
            json.addProperty("foreign", delivery.foreign());
            json.addProperty("readBackSeconds", Math.round(readBackSeconds * 1000) / 1000.0);
            JsonArray reasons = new JsonArray();
            failureReasons().forEach(reasons::add);
            json.add("failureReasons", reasons);
        }
        return GSON.toJson(json);
    }
}
