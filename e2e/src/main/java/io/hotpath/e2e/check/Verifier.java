package io.hotpath.e2e.check;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.Ticker;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Reads every queue of a topic back, from its first offset to its last, with a real
 * rocketmq-client 4.9.0 pull consumer, and feeds each message to a {@link DeliveryAudit}.
 *
 * <p>Consume queues are built asynchronously after the CommitLog write (the broker's reput
 * service), so it first waits until every queue reaches one past the highest offset the ledger
 * says was acknowledged in it. After a full pass it looks once more for late arrivals: sends that
 * timed out may still land, and they count as at-least-once extras.
 *
 * <p>Delayed and transactional messages ({@link SeededMessages#relayed}) reach their queue only when
 * the broker re-puts them, at offsets the ack did not name: for them it reads until every acknowledged
 * message has turned up (at most {@link #RELAY_WAIT}), then settles the same way.
 */
public final class Verifier {

    private static final int BATCH = 32;
    private static final long PULL_TIMEOUT_MILLIS = 10_000;
    private static final int PULL_ATTEMPTS = 5;
    private static final long SETTLE_MILLIS = 1_000;
    /** Longest wait for relayed messages to be re-put: delay level 1 is 1 s, a transaction check-back is ~7 s after the send. */
    static final Duration RELAY_WAIT = Duration.ofSeconds(60);

    private final String namesrvAddress;
    private final Duration timeout;
    /** The current read-back's pulls that threw: each costs a back-off, so a read-back that retries every pull crawls. */
    private volatile FailedPulls failedPulls = new FailedPulls();

    private static final class FailedPulls {
        private volatile long count;
        private volatile String first;

        void add(MessageQueue queue, long offset, Exception e) {
            if (count++ == 0) {
                first = queue + " at offset " + offset + ": " + e;
            }
        }

        String summary() {
            return count + " pulls failed and were retried, the first " + first;
        }
    }

    public Verifier(String namesrvAddress, Duration timeout) {
        this.namesrvAddress = namesrvAddress;
        this.timeout = timeout;
    }

    public DeliveryAudit.DeliveryReport verify(SeededMessages messages, SendLedger ledger) {
        return verify(messages, ledger, DeliveryAudit.KnownDefect.NONE);
    }

    /** As {@link #verify(SeededMessages, SendLedger)}, with differences {@code knownDefect} explains counted apart. */
    public DeliveryAudit.DeliveryReport verify(SeededMessages messages, SendLedger ledger, DeliveryAudit.KnownDefect knownDefect) {
        return verify(List.of(new Part(messages, ledger, knownDefect))).get(0);
    }

    /**
     * Sends of one topic made in parts, each with a corpus (run id) and ledger of its own, e.g. a warm-up load in slices:
     * each part gets the report of its own sends, from one pass over the topic (a message goes to the part whose run id
     * it carries; one of no part counts as foreign in the first part's report).
     */
    public record Part(SeededMessages messages, SendLedger ledger, DeliveryAudit.KnownDefect knownDefect) {

        public Part(SeededMessages messages, SendLedger ledger) {
            this(messages, ledger, DeliveryAudit.KnownDefect.NONE);
        }
    }

    /** {@link Part}s of one topic, all relayed or none, read back in one pass; their reports in the same order. */
    public List<DeliveryAudit.DeliveryReport> verify(List<Part> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to verify");
        }
        SeededMessages first = parts.get(0).messages();
        Map<String, Part> byRun = new HashMap<>();
        for (Part part : parts) {
            if (!part.messages().topic().equals(first.topic()) || part.messages().isRelayed() != first.isRelayed()
                    || byRun.put(part.messages().runId(), part) != null) {
                throw new IllegalArgumentException("parts of one read-back must share topic and relaying and differ in run id: "
                        + parts.stream().map(p -> p.messages().topic() + "/" + p.messages().runId()).toList());
            }
        }
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("hotpath_verify");
        consumer.setNamesrvAddr(namesrvAddress);
        consumer.setInstanceName("hotpath-verify-" + first.runId());
        try {
            consumer.start();
            return read(consumer, first, parts);
        } catch (MQClientException e) {
            throw new ClusterException("verifier cannot read topic " + first.topic() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while verifying", e);
        } finally {
            consumer.shutdown();
        }
    }

    /** One audit per part, each message to the audit of its run id. */
    static final class Audits {
        private final List<DeliveryAudit> audits = new ArrayList<>();
        private final Map<String, DeliveryAudit> byRun = new HashMap<>();
        private final List<SendLedger> ledgers = new ArrayList<>();

        Audits(List<Part> parts) {
            for (Part part : parts) {
                DeliveryAudit audit = new DeliveryAudit(part.messages(), part.ledger(), part.knownDefect());
                audits.add(audit);
                byRun.put(part.messages().runId(), audit);
                ledgers.add(part.ledger());
            }
        }

        void record(MessageQueue queue, MessageExt message) {
            // a message of no part's run is foreign: the first audit counts it as such
            byRun.getOrDefault(message.getProperty(SeededMessages.RUN), audits.get(0)).record(queue, message);
        }

        long read() {
            return audits.stream().mapToLong(DeliveryAudit::read).sum();
        }

        long confirmed() {
            return audits.stream().mapToLong(DeliveryAudit::confirmed).sum();
        }

        long acked() {
            return ledgers.stream().mapToLong(SendLedger::acked).sum();
        }

        long completed() {
            return ledgers.stream().mapToLong(SendLedger::completed).sum();
        }

        /** Per queue, the highest acknowledged end over every part. */
        Map<MessageQueue, Long> ackedQueueEnds() {
            Map<MessageQueue, Long> ends = new TreeMap<>();
            ledgers.forEach(ledger -> ledger.ackedQueueEnds().forEach((queue, end) -> ends.merge(queue, end, Math::max)));
            return ends;
        }

        List<DeliveryAudit.DeliveryReport> reports() {
            return audits.stream().map(DeliveryAudit::report).toList();
        }
    }

    private List<DeliveryAudit.DeliveryReport> read(DefaultMQPullConsumer consumer, SeededMessages messages, List<Part> parts)
            throws MQClientException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        failedPulls = new FailedPulls();
        List<MessageQueue> queues = new ArrayList<>(consumer.fetchSubscribeMessageQueues(messages.topic()));
        queues.sort(null);
        Audits audit = new Audits(parts);
        Map<MessageQueue, Long> ackedEnds = audit.ackedQueueEnds();
        if (!queues.containsAll(ackedEnds.keySet())) {
            throw new ClusterException("the route of " + messages.topic() + " lacks queues that acknowledged messages: routed "
                    + queues + ", acknowledged in " + ackedEnds.keySet());
        }
        if (!messages.isRelayed()) {
            awaitDispatch(consumer, ackedEnds, deadline);
        }

        Map<MessageQueue, Long> nextOffset = new TreeMap<>();
        for (MessageQueue queue : queues) {
            long min = consumer.minOffset(queue);
            if (min > 0) {
                Console.warn("queue " + queue + " starts at offset " + min + ": earlier messages were deleted and cannot be checked");
            }
            nextOffset.put(queue, min);
        }
        try (Ticker ignored = Ticker.start(() -> "verifying " + messages.topic() + ": read back " + audit.read() + " messages ("
                + audit.completed() + " sends completed)" + (failedPulls.count == 0 ? "" : "; " + failedPulls.summary()))) {
            readAvailable(consumer, queues, nextOffset, audit, deadline);
            if (messages.isRelayed()) {
                awaitRelayed(consumer, queues, nextOffset, audit, Math.min(deadline, System.nanoTime() + RELAY_WAIT.toNanos()));
            }
            // late arrivals: stored sends whose client had already given up
            for (int settle = 0; settle < 4; settle++) {
                Thread.sleep(SETTLE_MILLIS);
                if (!readAvailable(consumer, queues, nextOffset, audit, deadline)) {
                    break;
                }
            }
        } finally {
            if (failedPulls.count > 0) {
                Console.warn("the read-back of " + messages.topic() + ": " + failedPulls.summary());
            }
        }
        return audit.reports();
    }

    /** Reads every queue up to its current max offset; true when anything was read. */
    private boolean readAvailable(DefaultMQPullConsumer consumer, List<MessageQueue> queues, Map<MessageQueue, Long> nextOffset,
                                  Audits audit, long deadline) throws MQClientException, InterruptedException {
        boolean read = false;
        for (MessageQueue queue : queues) {
            long end = consumer.maxOffset(queue);
            long from = nextOffset.get(queue);
            if (end > from) {
                read = true;
                nextOffset.put(queue, readQueue(consumer, queue, from, end, audit, deadline));
            }
        }
        return read;
    }

    /** Keeps reading until every acknowledged relayed message was found where acknowledged, or {@code until}; a shortfall is then reported as lost. */
    private void awaitRelayed(DefaultMQPullConsumer consumer, List<MessageQueue> queues, Map<MessageQueue, Long> nextOffset,
                              Audits audit, long until) throws MQClientException, InterruptedException {
        while (audit.confirmed() < audit.acked() && System.nanoTime() < until) {
            if (!readAvailable(consumer, queues, nextOffset, audit, until)) {
                Thread.sleep(200);
            }
        }
    }

    private void awaitDispatch(DefaultMQPullConsumer consumer, Map<MessageQueue, Long> ackedEnds, long deadline)
            throws MQClientException, InterruptedException {
        Map<MessageQueue, Long> behind = new TreeMap<>(ackedEnds);
        while (true) {
            for (var it = behind.entrySet().iterator(); it.hasNext(); ) {
                var entry = it.next();
                if (consumer.maxOffset(entry.getKey()) >= entry.getValue()) {
                    it.remove();
                }
            }
            if (behind.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException("consume queues never reached the acknowledged offsets: still behind " + behind);
            }
            Thread.sleep(100);
        }
    }

    /** Pulls [from, end) of one queue into the audit; returns the next offset to read. */
    private long readQueue(DefaultMQPullConsumer consumer, MessageQueue queue, long from, long end, Audits audit, long deadline)
            throws InterruptedException {
        long offset = from;
        while (offset < end) {
            PullResult result = pull(consumer, queue, offset, deadline);
            switch (result.getPullStatus()) {
                case FOUND -> {
                    for (MessageExt message : result.getMsgFoundList()) {
                        audit.record(queue, message);
                    }
                    offset = result.getNextBeginOffset();
                }
                case NO_NEW_MSG, NO_MATCHED_MSG -> {
                    if (result.getNextBeginOffset() <= offset) {
                        throw new ClusterException("queue " + queue + " returned no message at offset " + offset
                                + " although its max offset is " + end);
                    }
                    offset = result.getNextBeginOffset();
                }
                case OFFSET_ILLEGAL -> throw new ClusterException("queue " + queue + " rejected offset " + offset
                        + " as illegal (min " + result.getMinOffset() + ", max " + result.getMaxOffset() + ")");
            }
        }
        return offset;
    }

    private PullResult pull(DefaultMQPullConsumer consumer, MessageQueue queue, long offset, long deadline)
            throws InterruptedException {
        Exception last = null;
        for (int attempt = 1; attempt <= PULL_ATTEMPTS && System.nanoTime() < deadline; attempt++) {
            try {
                return consumer.pull(queue, "*", offset, BATCH, PULL_TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = e;
                failedPulls.add(queue, offset, e);
                Thread.sleep(200L * attempt);
            }
        }
        if (last == null) {
            throw new ClusterException("the read-back's deadline passed before " + queue + " was read past offset " + offset
                    + " (each pull answered, but too slowly to read every queue in time)");
        }
        throw new ClusterException("cannot pull " + queue + " at offset " + offset + ": " + last, last);
    }
}
