package io.hotpath.e2e.load;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The messages a run sends: body and properties are pure functions of (run id, sequence number),
 * so the verifier re-derives what was sent instead of keeping a copy of every message.
 *
 * <p>Shape, like upstream's benchmark Producer plus what the property codec must carry intact:
 * TAGS, KEYS ({@code OrderID<seq>}), and user properties {@value #RUN}, {@value #SEQ} and
 * {@value #NOTE} (a value with 2-, 3- and 4-byte UTF-8, i.e. a surrogate pair). The client adds
 * WAIT=true and UNIQ_KEY; the broker adds CLUSTER; a pull adds MIN_OFFSET and MAX_OFFSET.
 * Bodies are seeded pseudo-random ASCII that starts with {@code seq=<n> }.
 */
public final class SeededMessages {

    public static final String RUN = "hotpath.run";
    public static final String SEQ = "hotpath.seq";
    public static final String NOTE = "hotpath.note";

    /**
     * Keys RocketMQ itself adds between send and pull; any other unexpected key is corruption. MSG_REGION and
     * TRACE_ON: a 5.x broker stores its region and trace switch in every record it receives from a producer
     * (4.9.x brokers only answer them in the send response).
     */
    static final Set<String> SYSTEM_KEYS = Set.of(
            MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
            MessageConst.PROPERTY_WAIT_STORE_MSG_OK,
            MessageConst.PROPERTY_CLUSTER,
            MessageConst.PROPERTY_MSG_REGION,
            MessageConst.PROPERTY_TRACE_SWITCH,
            MessageConst.PROPERTY_MIN_OFFSET,
            MessageConst.PROPERTY_MAX_OFFSET);

    /**
     * What a 5.x broker adds to a transactional message when it parks it in RMQ_SYS_TRANS_HALF_TOPIC
     * ({@code TransactionalMessageUtil.TRANSACTION_ID}, no constant in 4.9.0's MessageConst): the message's UNIQ_KEY,
     * kept in the committed copy. 4.9.x brokers do not store it.
     */
    static final String TRANSACTION_ID = "__transactionId__";

    /**
     * Keys a delayed or transactional message carries when it is consumed from its real topic: the
     * sender's instruction (DELAY; TRAN_MSG and PGROUP, which the transactional client sets), and what
     * the broker adds when it parks the message in a system topic (SCHEDULE_TOPIC_XXXX,
     * RMQ_SYS_TRANS_HALF_TOPIC) and re-puts it (REAL_TOPIC, REAL_QID; for a transaction committed on
     * check-back also TRAN_PREPARED_QUEUE_OFFSET and TRANSACTION_CHECK_TIMES). 4.9.0 keeps them all in
     * the re-put record: ScheduleMessageService and EndTransactionProcessor encode the properties before
     * they clear DELAY, REAL_TOPIC and REAL_QID from the map.
     */
    static final Set<String> RELAY_KEYS = Set.of(
            TRANSACTION_ID,
            MessageConst.PROPERTY_DELAY_TIME_LEVEL,
            MessageConst.PROPERTY_TRANSACTION_PREPARED,
            MessageConst.PROPERTY_PRODUCER_GROUP,
            MessageConst.PROPERTY_REAL_TOPIC,
            MessageConst.PROPERTY_REAL_QUEUE_ID,
            MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET,
            MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES);

    private static final String[] TAGS = {"TagA", "TagB", "TagC", "TagD"};
    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".getBytes(StandardCharsets.US_ASCII);

    private final String topic;
    private final String runId;
    private final int bodySize;
    private final long seed;
    private final boolean relayed;

    public SeededMessages(String topic, String runId, int bodySize) {
        this(topic, runId, bodySize, false);
    }

    private SeededMessages(String topic, String runId, int bodySize, boolean relayed) {
        if (bodySize < 1) {
            throw new IllegalArgumentException("body size must be positive: " + bodySize);
        }
        this.topic = topic;
        this.runId = runId;
        this.bodySize = bodySize;
        this.seed = mix(runId.hashCode());
        this.relayed = relayed;
    }

    /**
     * The same corpus sent as delayed or transactional messages: {@link #difference} also accepts
     * {@link #RELAY_KEYS}, and checks that a REAL_TOPIC / REAL_QID left in the record names the topic
     * and queue the message was consumed from.
     */
    public static SeededMessages relayed(String topic, String runId, int bodySize) {
        return new SeededMessages(topic, runId, bodySize, true);
    }

    public boolean isRelayed() {
        return relayed;
    }

    public String topic() {
        return topic;
    }

    public String runId() {
        return runId;
    }

    public int bodySize() {
        return bodySize;
    }

    /** A fresh message for {@code seq}; the 4-argument constructor also sets WAIT=true, as a producer's would. */
    public Message build(int seq) {
        Message message = new Message(topic, tag(seq), keys(seq), body(seq));
        message.putUserProperty(RUN, runId);
        message.putUserProperty(SEQ, Integer.toString(seq));
        message.putUserProperty(NOTE, note(seq));
        return message;
    }

    public byte[] body(int seq) {
        byte[] body = new byte[bodySize];
        byte[] prefix = ("seq=" + seq + " ").getBytes(StandardCharsets.US_ASCII);
        int start = Math.min(prefix.length, bodySize);
        System.arraycopy(prefix, 0, body, 0, start);
        SplittableRandom random = new SplittableRandom(seed ^ mix(seq));
        for (int i = start; i < bodySize; i++) {
            body[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return body;
    }

    /** The properties we set (TAGS, KEYS and user properties), in the order we set them. */
    public Map<String, String> expectedProperties(int seq) {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(MessageConst.PROPERTY_TAGS, tag(seq));
        expected.put(MessageConst.PROPERTY_KEYS, keys(seq));
        expected.put(RUN, runId);
        expected.put(SEQ, Integer.toString(seq));
        expected.put(NOTE, note(seq));
        return expected;
    }

    /** The sequence number of a message of this run, or -1 for anything else (other runs, probes). */
    public int sequenceOf(Message message) {
        if (!runId.equals(message.getProperty(RUN))) {
            return -1;
        }
        String seq = message.getProperty(SEQ);
        try {
            return seq == null ? -1 : Integer.parseInt(seq);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Null when {@code stored} is exactly message {@code seq} as sent (topic, body, every property we
     * set, WAIT if present equal to "true", no unknown keys; see {@link #relayed} for delayed and
     * transactional messages); otherwise what differs, one line.
     */
    public String difference(int seq, MessageExt stored) {
        if (!topic.equals(stored.getTopic())) {
            return "topic " + stored.getTopic() + " instead of " + topic;
        }
        byte[] expectedBody = body(seq);
        if (!Arrays.equals(expectedBody, stored.getBody())) {
            return "body differs (" + (stored.getBody() == null ? "null" : stored.getBody().length + " bytes") + ", expected "
                    + expectedBody.length + " bytes)";
        }
        Map<String, String> actual = stored.getProperties();
        Map<String, String> expected = expectedProperties(seq);
        for (Map.Entry<String, String> entry : expected.entrySet()) {
            String value = actual.get(entry.getKey());
            if (!entry.getValue().equals(value)) {
                return "property " + entry.getKey() + " is " + escaped(value) + " instead of " + escaped(entry.getValue());
            }
        }
        String wait = actual.get(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
        if (wait != null && !wait.equals("true")) {
            return "property WAIT is " + escaped(wait) + " instead of \"true\"";
        }
        if (relayed) {
            String realTopic = actual.get(MessageConst.PROPERTY_REAL_TOPIC);
            if (realTopic != null && !realTopic.equals(topic)) {
                return "property REAL_TOPIC is " + escaped(realTopic) + " instead of " + escaped(topic);
            }
            String transactionId = actual.get(TRANSACTION_ID);
            String uniqueKey = actual.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            if (transactionId != null && !transactionId.equals(uniqueKey)) {
                return "property " + TRANSACTION_ID + " is " + escaped(transactionId) + " instead of the UNIQ_KEY " + escaped(uniqueKey);
            }
            String realQueue = actual.get(MessageConst.PROPERTY_REAL_QUEUE_ID);
            if (realQueue != null && !realQueue.equals(Integer.toString(stored.getQueueId()))) {
                return "property REAL_QID is " + escaped(realQueue) + " but the message is in queue " + stored.getQueueId();
            }
        }
        for (String key : actual.keySet()) {
            if (!SYSTEM_KEYS.contains(key) && !expected.containsKey(key) && !(relayed && RELAY_KEYS.contains(key))) {
                return "unexpected property " + escaped(key) + "=" + escaped(actual.get(key));
            }
        }
        return null;
    }

    private static String tag(int seq) {
        return TAGS[seq & 3];
    }

    private static String keys(int seq) {
        return "OrderID" + seq;
    }

    private static String note(int seq) {
        return "Grüße € 𝄞 #" + (seq % 97);
    }

    /** Printable Java-style rendering, so control characters (\1, \2) in a corrupt value show up. */
    static String escaped(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static long mix(long z) {
        // SplitMix64 finaliser: neighbouring seq values get unrelated streams
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
