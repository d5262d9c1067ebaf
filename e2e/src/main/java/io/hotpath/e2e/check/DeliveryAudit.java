package io.hotpath.e2e.check;

import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 *
 * <p>Delayed and transactional messages ({@link SeededMessages#relayed}) are acknowledged when the
 * broker parks them in a system topic (SCHEDULE_TOPIC_XXXX, RMQ_SYS_TRANS_HALF_TOPIC): the ack names
 * the real queue the client chose, but its queue offset is the one in the system topic. The broker
 * later re-puts the message into that real queue at an offset nobody was told. So for them "where the
 * broker said" means the acknowledged queue, with the same UNIQ_KEY, at any offset.
 *
 * <p>A {@link KnownDefect} may explain a difference as a named, understood defect of the broker under
 * test (e.g. 4.9.0's batch encoder and 4.9.1+ clients, {@link NewerClientCheck}): such a copy is not
 * corrupt and not delivered either; it is counted and listed apart, so it stays visible.
 */
public final class DeliveryAudit {

    /** Names the known defect that explains {@code difference} in {@code stored}, or null when none does. */
    public interface KnownDefect {
        KnownDefect NONE = (seq, stored, difference) -> null;

        String explain(int seq, MessageExt stored, String difference);
    }

    private static final int MAX_PROBLEMS_LISTED = 10;

    private final SeededMessages messages;
    private final SendLedger ledger;
    private final int[] intactCopies;
    private final BitSet atAckedPosition;
    private final KnownDefect knownDefect;
    private final BitSet defectiveAtAckedPosition;
    private boolean defectListed;
    private final List<String> problems = new ArrayList<>();
    private long read;
    private long foreign;
    private long corrupt;
    private long withoutWait;

    public DeliveryAudit(SeededMessages messages, SendLedger ledger) {
        this(messages, ledger, KnownDefect.NONE);
    }

    public DeliveryAudit(SeededMessages messages, SendLedger ledger, KnownDefect knownDefect) {
        this.messages = messages;
        this.ledger = ledger;
        this.intactCopies = new int[ledger.size()];
        this.atAckedPosition = new BitSet(ledger.size());
        this.knownDefect = knownDefect;
        this.defectiveAtAckedPosition = new BitSet(ledger.size());
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
            String defect = knownDefect.explain(seq, stored, difference);
            if (defect == null) {
                corrupt++;
                problem("corrupt: " + where + ": " + difference);
                return;
            }
            if (!defectListed) {
                defectListed = true;
                problem("known defect (" + defect + "), e.g. " + where + ": " + difference);
            }
            if (isAckedPosition(seq, queue, stored)) {
                defectiveAtAckedPosition.set(seq);
            }
            return;
        }
        intactCopies[seq]++;
        if (stored.getProperty(MessageConst.PROPERTY_WAIT_STORE_MSG_OK) == null) {
            withoutWait++;
        }
        if (ledger.outcome(seq) == SendLedger.Outcome.ACKED && queue.equals(ledger.queue(seq))
                && (messages.isRelayed() || stored.getQueueOffset() == ledger.queueOffset(seq))) {
            String uniqKey = stored.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            if (ledger.msgId(seq).equals(uniqKey)) {
                atAckedPosition.set(seq);
                return;
            }
            // intact but for its UNIQ_KEY, where acknowledged: corrupt, unless a known defect explains that key
            String keyDifference = "UNIQ_KEY " + uniqKey + " but the ack said " + ledger.msgId(seq);
            String defect = knownDefect.explain(seq, stored, keyDifference);
            if (defect == null) {
                corrupt++;
                problem("corrupt: " + where + ": " + keyDifference);
                return;
            }
            if (!defectListed) {
                defectListed = true;
                problem("known defect (" + defect + "), e.g. " + where + ": " + keyDifference);
            }
            defectiveAtAckedPosition.set(seq);
        }
    }

    public long read() {
        return read;
    }

    /** Acknowledged, in the acknowledged queue (at the acknowledged offset unless relayed) with the acknowledged UNIQ_KEY. */
    private boolean isAckedPosition(int seq, MessageQueue queue, MessageExt stored) {
        return ledger.outcome(seq) == SendLedger.Outcome.ACKED && queue.equals(ledger.queue(seq))
                && (messages.isRelayed() || stored.getQueueOffset() == ledger.queueOffset(seq))
                && ledger.msgId(seq).equals(stored.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
    }

    /** Acknowledged messages found where acknowledged so far, intact or with the known defect (a relayed read-back waits for all of them). */
    public long confirmed() {
        BitSet found = (BitSet) atAckedPosition.clone();
        found.or(defectiveAtAckedPosition);
        return found.cardinality();
    }

    public DeliveryReport report() {
        long acked = 0;
        long confirmed = 0;
        long lost = 0;
        long misplaced = 0;
        long duplicates = 0;
        long storedNotOk = 0;
        long storedAfterFailure = 0;
        long knownDefects = 0;
        List<String> listed = new ArrayList<>(problems);
        for (int seq = 0; seq < ledger.size(); seq++) {
            int copies = intactCopies[seq];
            duplicates += Math.max(0, copies - 1);
            switch (ledger.outcome(seq)) {
                case ACKED -> {
                    acked++;
                    if (atAckedPosition.get(seq)) {
                        confirmed++;
                    } else if (defectiveAtAckedPosition.get(seq)) {
                        knownDefects++;
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
                storedNotOk, storedAfterFailure, withoutWait, knownDefects, List.copyOf(listed));
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
     * (expected 0 on stock 4.9.0); {@code knownDefect}: acknowledged, found where acknowledged, but
     * with a difference a {@link KnownDefect} explains (neither confirmed nor lost).
     */
    public record DeliveryReport(long read, long foreign, long acked, long confirmed, long lost, long misplaced,
                                 long corrupt, long duplicates, long storedNotOk, long storedAfterFailure,
                                 long withoutWait, long knownDefect, List<String> problems) {

        /** Without a known defect (the load's and most read-backs). */
        public DeliveryReport(long read, long foreign, long acked, long confirmed, long lost, long misplaced, long corrupt,
                              long duplicates, long storedNotOk, long storedAfterFailure, long withoutWait, List<String> problems) {
            this(read, foreign, acked, confirmed, lost, misplaced, corrupt, duplicates, storedNotOk, storedAfterFailure, withoutWait,
                0, problems);
        }

        public boolean passed() {
            return lost == 0 && misplaced == 0 && corrupt == 0 && confirmed + knownDefect == acked;
        }

        /** Stored although not acknowledged: the at-least-once extras. */
        public long storedUnacked() {
            return storedNotOk + storedAfterFailure;
        }

        /** Both read-backs in one verdict; {@code other}'s problems are prefixed with {@code label}. */
        public DeliveryReport plus(String label, DeliveryReport other) {
            List<String> all = new ArrayList<>(problems);
            other.problems.forEach(problem -> all.add(label + ": " + problem));
            return new DeliveryReport(read + other.read, foreign + other.foreign, acked + other.acked, confirmed + other.confirmed,
                    lost + other.lost, misplaced + other.misplaced, corrupt + other.corrupt, duplicates + other.duplicates,
                    storedNotOk + other.storedNotOk, storedAfterFailure + other.storedAfterFailure, withoutWait + other.withoutWait,
                    knownDefect + other.knownDefect, List.copyOf(all));
        }

        /** "12 read, 12 confirmed of 12 acked, lost 0, corrupt 0, misplaced 0": the progress-line form. */
        public String line() {
            return String.format(Locale.ROOT, "%d read, %d confirmed of %d acked, lost %d, corrupt %d, misplaced %d%s", read, confirmed,
                    acked, lost, corrupt, misplaced, knownDefect == 0 ? "" : ", with the known defect " + knownDefect);
        }

        /** As {@code key=value} lines, for a report that crosses a process boundary ({@link #parse}). */
        public String toText() {
            StringBuilder out = new StringBuilder();
            long[] values = {read, foreign, acked, confirmed, lost, misplaced, corrupt, duplicates, storedNotOk, storedAfterFailure,
                withoutWait, knownDefect};
            for (int i = 0; i < FIELDS.size(); i++) {
                out.append(FIELDS.get(i)).append('=').append(values[i]).append('\n');
            }
            // problems are one line each by construction; a stray newline must not start a fake key
            problems.forEach(p -> out.append("problem=").append(p.replace('\n', ' ')).append('\n'));
            return out.toString();
        }

        /** The inverse of {@link #toText}; throws on a missing count, so a truncated file never passes. */
        public static DeliveryReport parse(List<String> lines) {
            Map<String, Long> counts = new HashMap<>();
            List<String> problems = new ArrayList<>();
            for (String line : lines) {
                int eq = line.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = line.substring(0, eq);
                if (key.equals("problem")) {
                    problems.add(line.substring(eq + 1));
                } else if (FIELDS.contains(key)) {
                    counts.put(key, Long.parseLong(line.substring(eq + 1)));
                }
            }
            long[] v = new long[FIELDS.size()];
            for (int i = 0; i < v.length; i++) {
                Long value = counts.get(FIELDS.get(i));
                if (value == null) {
                    throw new IllegalArgumentException("delivery report without " + FIELDS.get(i) + ": " + lines);
                }
                v[i] = value;
            }
            return new DeliveryReport(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], List.copyOf(problems));
        }

        private static final List<String> FIELDS = List.of("read", "foreign", "acked", "confirmed", "lost", "misplaced", "corrupt",
            "duplicates", "storedNotOk", "storedAfterFailure", "withoutWait", "knownDefect");
    }
}
