package io.hotpath.e2e.load;

import io.hotpath.e2e.ClusterException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The sends the broker relays through a system topic before the consumer sees them, so that the
 * patched broker's re-put paths also carry real traffic: delayed messages (parked in
 * SCHEDULE_TOPIC_XXXX, re-put by ScheduleMessageService when the delay is up) and transactional ones
 * (parked in RMQ_SYS_TRANS_HALF_TOPIC, re-put by EndTransactionProcessor on COMMIT, with an op record
 * in RMQ_SYS_TRANS_OP_HALF_TOPIC). One transaction answers UNKNOW first, so it is committed only when
 * the broker checks back ({@code ClusterLayout} sets {@code transactionCheckInterval} to 1 s; the
 * broker still waits out {@code transactionTimeOut}, 6 s by default, before it checks).
 *
 * <p>Sent with the real rocketmq-client 4.9.0 after the measured load window, to a topic of their own
 * (no load metric sees them), and read back and audited like the load: every acknowledged message must
 * turn up intact in the queue it was acknowledged in ({@code DeliveryAudit} on relayed messages).
 */
public final class RelaySends {

    public static final String TOPIC = "hotpath_smoke_relay";
    public static final int QUEUES_PER_MASTER = 2;
    public static final int DELAYED = 4;
    /** Delay level 1 of the default {@code messageDelayLevel}: 1 s. */
    public static final int DELAY_LEVEL = 1;
    public static final int COMMITTED = 4;
    public static final int CHECKED = 1;
    static final int MESSAGES = DELAYED + COMMITTED + CHECKED;
    private static final Duration CHECK_BACK_WAIT = Duration.ofSeconds(30);

    private RelaySends() {
    }

    /**
     * What was sent (for the audit), how many transactions the local transaction committed at once,
     * how many the broker checked back and were committed then, and how long after its send the first
     * check-back came (-1 if none came within the wait).
     */
    public record Sent(SeededMessages messages, SendLedger ledger, int committedAtOnce, int committedOnCheckBack, double checkBackSeconds) {
    }

    /** Seqs [0, DELAYED) are delayed, [DELAYED, DELAYED + COMMITTED) commit at once, the rest answer UNKNOW first. */
    static boolean answersUnknownFirst(int seq) {
        return seq >= DELAYED + COMMITTED && seq < MESSAGES;
    }

    public static Sent send(String namesrvAddress, String runId, int bodySize) throws InterruptedException {
        SeededMessages messages = SeededMessages.relayed(TOPIC, runId, bodySize);
        SendLedger ledger = new SendLedger(MESSAGES);
        Listener listener = new Listener(messages);
        // our own executor for check-backs: terminating it proves each check's END_TRANSACTION went out
        ExecutorService checks = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "hotpath-relay-check");
            thread.setDaemon(true);
            return thread;
        });
        TransactionMQProducer producer = new TransactionMQProducer("hotpath_relay_producer");
        producer.setNamesrvAddr(namesrvAddress);
        producer.setInstanceName("hotpath-relay-" + runId);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.setTransactionListener(listener);
        producer.setExecutorService(checks);
        try {
            producer.start();
        } catch (MQClientException e) {
            checks.shutdownNow();
            throw new ClusterException("cannot start the relay producer: " + e.getMessage(), e);
        }
        int atOnce = 0;
        long checkedSentAt = 0;
        try {
            for (int seq = 0; seq < DELAYED; seq++) {
                Message message = messages.build(seq);
                message.setDelayTimeLevel(DELAY_LEVEL);
                long begin = System.nanoTime();
                try {
                    ledger.recordResult(seq, producer.send(message), System.nanoTime() - begin);
                } catch (Exception e) {
                    ledger.recordFailure(seq, e, System.nanoTime() - begin);
                }
            }
            for (int seq = DELAYED; seq < MESSAGES; seq++) {
                long begin = System.nanoTime();
                checkedSentAt = answersUnknownFirst(seq) && checkedSentAt == 0 ? begin : checkedSentAt;
                try {
                    TransactionSendResult result = producer.sendMessageInTransaction(messages.build(seq), null);
                    ledger.recordResult(seq, result, System.nanoTime() - begin);
                    atOnce += result.getLocalTransactionState() == LocalTransactionState.COMMIT_MESSAGE ? 1 : 0;
                } catch (Exception e) {
                    ledger.recordFailure(seq, e, System.nanoTime() - begin);
                }
            }
            // the acknowledged transactions that answered UNKNOW: only their check-backs commit them. A send that failed
            // may still have stored its half message, and the broker checks that one back too: it must not end the wait.
            Set<Integer> owed = new HashSet<>();
            for (int seq = DELAYED + COMMITTED; seq < MESSAGES; seq++) {
                if (ledger.outcome(seq) == SendLedger.Outcome.ACKED) {
                    owed.add(seq);
                }
            }
            long firstCheck = listener.awaitCheckBacks(owed, CHECK_BACK_WAIT);
            checks.shutdown();
            checks.awaitTermination(10, TimeUnit.SECONDS);
            return new Sent(messages, ledger, atOnce, listener.checkedBackOf(owed),
                firstCheck < 0 ? -1 : (firstCheck - checkedSentAt) / 1e9);
        } finally {
            producer.shutdown();
            checks.shutdownNow();
        }
    }

    /** COMMIT at once, except UNKNOW for {@link #answersUnknownFirst}; on check-back, COMMIT what is ours. */
    static final class Listener implements TransactionListener {
        private final SeededMessages messages;
        /** Seq -> when it was first checked back (System.nanoTime). */
        private final Map<Integer, Long> checkedBack = new HashMap<>();

        Listener(SeededMessages messages) {
            this.messages = messages;
        }

        @Override
        public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
            return answersUnknownFirst(messages.sequenceOf(message)) ? LocalTransactionState.UNKNOW : LocalTransactionState.COMMIT_MESSAGE;
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt message) {
            int seq = messages.sequenceOf(message);
            if (seq < 0 || seq >= MESSAGES) {
                // not of this run: leave it to whoever sent it
                return LocalTransactionState.UNKNOW;
            }
            synchronized (this) {
                // the broker may check a transaction again before it sees the first COMMIT: count it once, at its first check
                checkedBack.putIfAbsent(seq, System.nanoTime());
                notifyAll();
            }
            return LocalTransactionState.COMMIT_MESSAGE;
        }

        /** How many of {@code seqs} were checked back (and committed then). */
        synchronized int checkedBackOf(Set<Integer> seqs) {
            return (int) seqs.stream().filter(checkedBack::containsKey).count();
        }

        /**
         * Waits until every one of {@code owed} was checked back, at most {@code wait}; returns when the first check of one
         * of them came, or -1.
         */
        synchronized long awaitCheckBacks(Set<Integer> owed, Duration wait) throws InterruptedException {
            long deadline = System.nanoTime() + wait.toNanos();
            long left;
            while (!checkedBack.keySet().containsAll(owed) && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return owed.stream().map(checkedBack::get).filter(t -> t != null).mapToLong(Long::longValue).min().orElse(-1);
        }
    }
}
