package io.hotpath.e2e.load;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException;

/**
 * What happened to every message of a run, indexed by sequence number: the outcome of
 * {@code producer.send()}, its round-trip time, and for acknowledged messages the queue, queue
 * offset and message id the broker acknowledged. The verifier checks the store against it.
 *
 * <p>Each sequence number is written by exactly one sender thread; readers look only after the
 * senders have been joined, which publishes the plain array writes.
 *
 * <p>Client-internal retries are not hidden: the producer's send hook counts every attempt and
 * every failed attempt by reason ({@link #recordAttempt()}, {@link #recordAttemptFailure}).
 *
 * <p>A send recorded in this JVM also keeps when it happened against the first SEND_OK ({@link #firstAckNanos()},
 * {@link #failuresBegunBefore}): a fresh cluster may fail the sends made before it ever acknowledged one, not those after.
 */
public final class SendLedger {

    /** Result of one {@code send()} call, after the client's own retries. */
    public enum Outcome {
        /** never handed to the producer (run stopped early) */
        NOT_SENT,
        /** SEND_OK: stored on the master and (SYNC_MASTER) on its slave. Must be read back. */
        ACKED,
        /** a SendResult other than SEND_OK (e.g. SLAVE_NOT_AVAILABLE): stored on the master, not acknowledged */
        NOT_OK,
        /** an exception: may or may not be stored */
        FAILED
    }

    private static final Outcome[] OUTCOMES = Outcome.values();

    private final int size;
    private final byte[] outcome;
    private final int[] rtMicros;
    private final short[] queueSlot;
    private final long[] queueOffset;
    private final String[] msgId;
    private final List<MessageQueue> queues = new CopyOnWriteArrayList<>();
    private final Map<MessageQueue, Short> slots = new ConcurrentHashMap<>();

    private final LongAdder acked = new LongAdder();
    private final LongAdder notOk = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder ackedRtMicrosTotal = new LongAdder();
    private final LongAccumulator ackedRtMicrosMax = new LongAccumulator(Math::max, 0);
    private final LongAdder attempts = new LongAdder();
    private final Map<String, LongAdder> failuresByReason = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> attemptFailuresByReason = new ConcurrentHashMap<>();
    private final Map<String, String> exampleByReason = new ConcurrentHashMap<>();
    /** {@link System#nanoTime()} when the earliest SEND_OK was recorded; {@link Long#MAX_VALUE} before any. */
    private final LongAccumulator firstAckNanos = new LongAccumulator(Math::min, Long.MAX_VALUE);
    /** Every failed or not-OK send with when it began: few in a healthy run, so kept apart from the per-seq arrays. */
    private final Queue<TimedFailure> timedFailures = new ConcurrentLinkedQueue<>();

    /** A send that was not acknowledged: when it was handed to the producer ({@link System#nanoTime()}) and why it failed. */
    private record TimedFailure(long beganNanos, String reason) {
    }

    public SendLedger(int size) {
        this.size = size;
        outcome = new byte[size];
        rtMicros = new int[size];
        queueSlot = new short[size];
        queueOffset = new long[size];
        msgId = new String[size];
    }

    public int size() {
        return size;
    }

    public void recordResult(int seq, SendResult result, long rtNanos) {
        long now = System.nanoTime();
        int micros = micros(rtNanos);
        rtMicros[seq] = micros;
        queueSlot[seq] = slot(result.getMessageQueue());
        queueOffset[seq] = result.getQueueOffset();
        msgId[seq] = result.getMsgId();
        if (result.getSendStatus() == SendStatus.SEND_OK) {
            outcome[seq] = (byte) Outcome.ACKED.ordinal();
            acked.increment();
            ackedRtMicrosTotal.add(micros);
            ackedRtMicrosMax.accumulate(micros);
            firstAckNanos.accumulate(now);
        } else {
            outcome[seq] = (byte) Outcome.NOT_OK.ordinal();
            notOk.increment();
            String reason = "status " + result.getSendStatus();
            count(failuresByReason, reason, result.toString());
            timedFailures.add(new TimedFailure(now - rtNanos, reason));
        }
    }

    /** {@code seq}'s send threw {@code error} after {@code rtNanos}; called right after the send returned. */
    public void recordFailure(int seq, Throwable error, long rtNanos) {
        long now = System.nanoTime();
        rtMicros[seq] = micros(rtNanos);
        outcome[seq] = (byte) Outcome.FAILED.ordinal();
        failed.increment();
        String reason = reason(error);
        count(failuresByReason, reason, String.valueOf(error.getMessage()));
        timedFailures.add(new TimedFailure(now - rtNanos, reason));
    }

    /**
     * A result read from another JVM's ledger ({@link LedgerFile}): outcome and acknowledged position
     * only. Round-trip times stay with the process that sent; failure counts by reason come with
     * {@link #restoreFailures}.
     */
    void restore(int seq, Outcome restored, MessageQueue queue, long offset, String id) {
        outcome[seq] = (byte) restored.ordinal();
        switch (restored) {
            case ACKED -> acked.increment();
            case NOT_OK -> notOk.increment();
            case FAILED -> failed.increment();
            case NOT_SENT -> {
                return;
            }
        }
        if (queue != null) {
            queueSlot[seq] = slot(queue);
            queueOffset[seq] = offset;
            msgId[seq] = id;
        }
    }

    /** One attempt inside the client (the first try and every retry). */
    public void recordAttempt() {
        attempts.increment();
    }

    public void recordAttemptFailure(Throwable error) {
        count(attemptFailuresByReason, reason(error), String.valueOf(error.getMessage()));
    }

    public Outcome outcome(int seq) {
        return OUTCOMES[outcome[seq]];
    }

    /** Queue the broker acknowledged {@code seq} in; null unless the send returned a result. */
    public MessageQueue queue(int seq) {
        Outcome o = outcome(seq);
        return o == Outcome.ACKED || o == Outcome.NOT_OK ? queues.get(queueSlot[seq]) : null;
    }

    public long queueOffset(int seq) {
        return queueOffset[seq];
    }

    public String msgId(int seq) {
        return msgId[seq];
    }

    /** Per queue, one past the highest offset acknowledged in it: where its consume queue must reach. */
    public Map<MessageQueue, Long> ackedQueueEnds() {
        Map<MessageQueue, Long> ends = new TreeMap<>();
        for (int seq = 0; seq < size; seq++) {
            MessageQueue q = queue(seq);
            if (q != null) {
                ends.merge(q, queueOffset[seq] + 1, Math::max);
            }
        }
        return ends;
    }

    public long acked() {
        return acked.sum();
    }

    public long notOk() {
        return notOk.sum();
    }

    public long failed() {
        return failed.sum();
    }

    public long completed() {
        return acked.sum() + notOk.sum() + failed.sum();
    }

    public long attempts() {
        return attempts.sum();
    }

    public long ackedRtMicrosTotal() {
        return ackedRtMicrosTotal.sum();
    }

    public long ackedRtMicrosMax() {
        return ackedRtMicrosMax.get();
    }

    /** Failed or not-OK sends by reason, e.g. "status SLAVE_NOT_AVAILABLE" or "RemotingTooMuchRequestException". */
    public Map<String, Long> failuresByReason() {
        return snapshot(failuresByReason);
    }

    /**
     * {@link System#nanoTime()} when this JVM recorded the ledger's first SEND_OK; empty when nothing was acknowledged
     * (or the ledger was read from another JVM's file, which carries no times).
     */
    public OptionalLong firstAckNanos() {
        long first = firstAckNanos.get();
        return first == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(first);
    }

    /** Failed or not-OK sends recorded in this JVM that began before {@code nanos} ({@link System#nanoTime()}), by reason. */
    public Map<String, Long> failuresBegunBefore(long nanos) {
        Map<String, Long> before = new TreeMap<>();
        timedFailures.stream().filter(f -> f.beganNanos() < nanos).forEach(f -> before.merge(f.reason(), 1L, Long::sum));
        return before;
    }

    /** Failed or not-OK sends recorded in this JVM that began at or after {@code nanos}, by reason. */
    public Map<String, Long> failuresBegunFrom(long nanos) {
        Map<String, Long> from = new TreeMap<>();
        timedFailures.stream().filter(f -> f.beganNanos() >= nanos).forEach(f -> from.merge(f.reason(), 1L, Long::sum));
        return from;
    }

    /** Failed attempts inside the client, including those a retry then fixed. */
    public Map<String, Long> attemptFailuresByReason() {
        return snapshot(attemptFailuresByReason);
    }

    /** First error message seen per reason, for the report. */
    public Map<String, String> exampleByReason() {
        return new TreeMap<>(exampleByReason);
    }

    /** Round-trip times of acknowledged sends in microseconds, sorted ascending. */
    public int[] sortedAckedRtMicros() {
        int[] rts = new int[(int) acked()];
        int n = 0;
        for (int seq = 0; seq < size && n < rts.length; seq++) {
            if (outcome[seq] == Outcome.ACKED.ordinal()) {
                rts[n++] = rtMicros[seq];
            }
        }
        Arrays.sort(rts, 0, n);
        return n == rts.length ? rts : Arrays.copyOf(rts, n);
    }

    private short slot(MessageQueue queue) {
        return slots.computeIfAbsent(queue, q -> {
            synchronized (queues) {
                if (queues.size() >= Short.MAX_VALUE) {
                    throw new IllegalStateException("more than " + Short.MAX_VALUE + " queues");
                }
                queues.add(q);
                return (short) (queues.size() - 1);
            }
        });
    }

    private void count(Map<String, LongAdder> counters, String reason, String example) {
        counters.computeIfAbsent(reason, r -> new LongAdder()).increment();
        exampleByReason.putIfAbsent(reason, example);
    }

    /**
     * Stable, low-cardinality reason: exception type, broker/client response code, cause type (with its code).
     * The client's own send timeout gets a name of its own, "call timeout": rocketmq-client throws
     * RemotingTooMuchRequestException("sendDefaultImpl call timeout") when a send's time budget ran out, the same
     * type it throws when its async request semaphore is exhausted, and the fault scenarios expect the one and not the other.
     */
    public static String reason(Throwable error) {
        StringBuilder reason = new StringBuilder(describe(error));
        if (error.getCause() != null && error.getCause() != error) {
            reason.append(" caused by ").append(describe(error.getCause()));
        }
        return reason.toString();
    }

    private static String describe(Throwable error) {
        StringBuilder out = new StringBuilder(error.getClass().getSimpleName());
        if (error instanceof MQBrokerException broker) {
            out.append(" code ").append(broker.getResponseCode());
        } else if (error instanceof MQClientException client && client.getResponseCode() != -1) {
            out.append(" code ").append(client.getResponseCode());
        }
        if (error instanceof RemotingTooMuchRequestException && String.valueOf(error.getMessage()).contains("call timeout")) {
            out.append(" call timeout");
        }
        return out.toString();
    }

    /** Failure counts by reason read from another JVM's ledger ({@link LedgerFile}): its outcomes were restored one by one. */
    void restoreFailures(String reason, long count) {
        failuresByReason.computeIfAbsent(reason, r -> new LongAdder()).add(count);
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> copy = new TreeMap<>();
        counters.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    private static int micros(long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, nanos / 1_000);
    }
}
