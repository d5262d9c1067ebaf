package io.hotpath.e2e;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Compares what was read back from the store with the {@link SendLedger}, message by message.
 *
 * <p>RocketMQ is at-least-once: a send that timed out may still have been stored, and a client
 * retry stores a second copy with the same UNIQ_KEY. So only acknowledged (SEND_OK) messages are
 * owed, and each must be found intact exactly where the broker said it put it (same queue, same
 * queue offset, same UNIQ_KEY). Extra copies and stored-but-unacknowledged messages are counted as
 * at-least-once effects, not failures. A stored message of this run whose body or properties
 * differ from what was sent is corruption and fails the run.
 */
public final class DeliveryAudit {

    private static final int MAX_PROBLEMS_LISTED = 10;

    private final SeededMessages messages;
    private final SendLedger ledger;
    private final int[] intactCopies;
    private final BitSet atAckedPosition;
    private final List<String> problems = new ArrayList<>();
    private long read;
    private long foreign;
    private long corrupt;
    private long withoutWait;

    public DeliveryAudit(SeededMessages messages, SendLedger ledger) {
        this.messages = messages;
        this.ledger = ledger;
        this.intactCopies = new int[ledger.size()];
        this.atAckedPosition = new BitSet(ledger.size());
    }

    /** One message as pulled from {@code queue} (its queue offset is the message's own). */
    public void record(MessageQueue queue, MessageExt stored) {
        read++;
        int seq = messages.sequenceOf(stored);
        if (seq < 0 || seq >= ledger.size()) {
            foreign++;
            return;
        }
        String where = String.format(Locale.ROOT, "seq %d at %s:%d offset %d", seq, queue.getBrokerName(), queue.getQueueId(), stored.getQueueOffset());
        String difference = messages.difference(seq, stored);
        if (difference != null) {
            corrupt++;
            problem("corrupt: " + where + ": " + difference);
            return;
        }
        intactCopies[seq]++;
        if (stored.getProperty(MessageConst.PROPERTY_WAIT_STORE_MSG_OK) == null) {
            withoutWait++;
        }
        if (ledger.outcome(seq) == SendLedger.Outcome.ACKED
                && queue.equals(ledger.queue(seq)) && stored.getQueueOffset() == ledger.queueOffset(seq)) {
            String uniqKey = stored.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            if (ledger.msgId(seq).equals(uniqKey)) {
                atAckedPosition.set(seq);
            } else {
                corrupt++;
                problem("corrupt: " + where + ": UNIQ_KEY " + uniqKey + " but the ack said " + ledger.msgId(seq));
            }
        }
    }

    public long read() {
        return read;
    }

    public DeliveryReport report() {
        long acked = 0;
        long confirmed = 0;
        long lost = 0;
        long misplaced = 0;
        long duplicates = 0;
        long storedNotOk = 0;
        long storedAfterFailure = 0;
        List<String> listed = new ArrayList<>(problems);
        for (int seq = 0; seq < ledger.size(); seq++) {
            int copies = intactCopies[seq];
            duplicates += Math.max(0, copies - 1);
            switch (ledger.outcome(seq)) {
                case ACKED -> {
                    acked++;
                    if (atAckedPosition.get(seq)) {
                        confirmed++;
                    } else if (copies > 0) {
                        misplaced++;
                        list(listed, "misplaced: seq " + seq + " acked at " + ledger.queue(seq) + " offset " + ledger.queueOffset(seq)
                                + " but found only elsewhere");
                    } else {
                        lost++;
                        list(listed, "lost: seq " + seq + " acked at " + ledger.queue(seq) + " offset " + ledger.queueOffset(seq)
                                + " msgId " + ledger.msgId(seq));
                    }
                }
                case NOT_OK -> storedNotOk += copies > 0 ? 1 : 0;
                case FAILED, NOT_SENT -> storedAfterFailure += copies > 0 ? 1 : 0;
            }
        }
        return new DeliveryReport(read, foreign, acked, confirmed, lost, misplaced, corrupt, duplicates,
                storedNotOk, storedAfterFailure, withoutWait, List.copyOf(listed));
    }

    private void problem(String text) {
        list(problems, text);
    }

    private static void list(List<String> into, String text) {
        if (into.size() < MAX_PROBLEMS_LISTED) {
            into.add(text);
        }
    }

    /**
     * The verdict. {@code confirmed}: acknowledged and intact at its acknowledged position;
     * {@code lost}: acknowledged and not found intact anywhere; {@code misplaced}: acknowledged,
     * found intact but not where the ack said; {@code duplicates}: intact copies beyond the first;
     * {@code storedNotOk}/{@code storedAfterFailure}: messages stored although the send returned a
     * non-OK status / threw; {@code withoutWait}: intact messages stored without the WAIT property
     * (expected 0 on stock 4.9.0).
     */
    public record DeliveryReport(long read, long foreign, long acked, long confirmed, long lost, long misplaced,
                                 long corrupt, long duplicates, long storedNotOk, long storedAfterFailure,
                                 long withoutWait, List<String> problems) {

        public boolean passed() {
            return lost == 0 && misplaced == 0 && corrupt == 0 && confirmed == acked;
        }

        /** Stored although not acknowledged: the at-least-once extras. */
        public long storedUnacked() {
            return storedNotOk + storedAfterFailure;
        }
    }
}
