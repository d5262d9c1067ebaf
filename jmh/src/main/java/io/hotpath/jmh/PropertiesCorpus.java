package io.hotpath.jmh;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * Seeded message-property corpora, built the way a real 4.9.0 producer and broker build them,
 * with the real 4.9.0 classes, so that names, values and HashMap iteration order are what a
 * 4.9.0 broker persists:
 * <ol>
 *   <li>producer: {@code new Message(topic, tags, keys, body)} puts TAGS, KEYS and WAIT=true;
 *       user properties via {@code putUserProperty}; at send time UNIQ_KEY (32 upper-case hex
 *       chars laid out like {@code MessageClientIDSetter}: IPv4, pid, class-loader hash, ms
 *       since the start of the month, counter); the request carries
 *       {@code messageProperties2String(msg.getProperties())};</li>
 *   <li>broker ({@code SendMessageProcessor.sendMessage}): {@code string2messageProperties} of
 *       that string, then {@code put(CLUSTER, "DefaultCluster")}: the map that
 *       {@code messageProperties2String} serialises for the CommitLog;</li>
 *   <li>the persisted string: what {@code CommitLog.checkMessageAndReturnSize} parses again for
 *       every message it dispatches, and what consumers parse.</li>
 * </ol>
 * Only UNIQ_KEY's time and process parts are synthetic (seeded instead of the clock and the
 * host), so every fork and every run sees the same bytes.
 */
public final class PropertiesCorpus {

    /** KEYS, UNIQ_KEY, CLUSTER, WAIT, TAGS: a plain message. */
    public static final String SMALL5 = "small5";
    /** SMALL5 plus 7 user properties. */
    public static final String LARGE12 = "large12";

    private static final long SEED = 0x4_9_0L;
    private static final String TOPIC = "TopicTest";
    private static final String CLUSTER = "DefaultCluster";
    private static final int PRODUCERS = 8;

    private static final String[] TAGS = {"TagA", "TagA", "TagA", "TagB", "TagB", "TagC", "TagD"};
    private static final String[] ORDER_TYPES = {"NORMAL", "NORMAL", "NORMAL", "PRESALE", "GROUP_BUY", "REFUND"};
    private static final String[] CURRENCIES = {"CNY", "CNY", "CNY", "USD", "EUR", "JPY"};
    private static final String[] CITIES = {"上海", "北京", "深圳", "杭州", "Shanghai", "Berlin", "München", "São Paulo"};

    private final String[] persisted;
    private final Map<String, String>[] maps;

    private PropertiesCorpus(String shape) {
        final boolean large;
        if (SMALL5.equals(shape)) {
            large = false;
        } else if (LARGE12.equals(shape)) {
            large = true;
        } else {
            throw new IllegalArgumentException("unknown corpus '" + shape + "', expected " + SMALL5 + " or " + LARGE12);
        }
        final int expectedSize = large ? 12 : 5;
        final Random random = new Random(SEED ^ shape.hashCode());
        final UniqIds ids = new UniqIds(random);
        persisted = new String[AbstractBenchmark.CORPUS_SIZE];
        maps = newMapArray(AbstractBenchmark.CORPUS_SIZE);
        Set<String> distinct = new HashSet<>();
        for (int i = 0; i < persisted.length; i++) {
            Message msg = new Message(TOPIC, pick(random, TAGS), "OrderID" + random.nextInt(1_000_000),
                new byte[0]);
            if (large) {
                putUserProperties(msg, random);
            }
            MessageAccessor.putProperty(msg, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, ids.next(random));
            String sent = MessageDecoder.messageProperties2String(msg.getProperties());

            Map<String, String> stored = MessageDecoder.string2messageProperties(sent);
            stored.put(MessageConst.PROPERTY_CLUSTER, CLUSTER);
            if (stored.size() != expectedSize) {
                throw new IllegalStateException(shape + " input " + i + " has " + stored.size()
                    + " properties, expected " + expectedSize + ": " + stored.keySet());
            }
            maps[i] = stored;
            persisted[i] = MessageDecoder.messageProperties2String(stored);
            distinct.add(persisted[i]);
        }
        if (distinct.size() != persisted.length) {
            throw new IllegalStateException(shape + ": only " + distinct.size() + " distinct inputs");
        }
    }

    /** The maps a 4.9.0 broker serialises into the CommitLog, one per message (do not mutate). */
    public static Map<String, String>[] persistedMaps(String shape) {
        return new PropertiesCorpus(shape).maps;
    }

    /** The properties strings a 4.9.0 broker stores, one per message. */
    public static String[] persistedStrings(String shape) {
        return new PropertiesCorpus(shape).persisted;
    }

    private static void putUserProperties(Message msg, Random random) {
        msg.putUserProperty("orderType", pick(random, ORDER_TYPES));
        msg.putUserProperty("userId", "u" + (10_000_000 + random.nextInt(90_000_000)));
        msg.putUserProperty("shopId", Integer.toString(1000 + random.nextInt(50_000)));
        msg.putUserProperty("amount", (1 + random.nextInt(99_999)) / 100 + "." + String.format("%02d", random.nextInt(100)));
        msg.putUserProperty("currency", pick(random, CURRENCIES));
        msg.putUserProperty("city", pick(random, CITIES));
        // W3C trace-context trace-id, as a tracing layer adds it
        msg.putUserProperty("traceId", hex(random, 16).toLowerCase());
    }

    private static String pick(Random random, String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String hex(Random random, int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return UtilAll.bytes2string(b);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String>[] newMapArray(int n) {
        return (Map<String, String>[]) new Map[n];
    }

    /**
     * UNIQ_KEY as 4.9.0's {@code MessageClientIDSetter.createUniqID()} lays it out: a fixed
     * per-producer prefix (IPv4 4 bytes, pid 2, class-loader hash 4) then ms since the start of
     * the month (4) and a per-producer counter (2), upper-case hex; several producers interleave.
     */
    private static final class UniqIds {
        private final String[] prefixes = new String[PRODUCERS];
        private final int[] counters = new int[PRODUCERS];
        private int millisInMonth;

        UniqIds(Random random) {
            for (int p = 0; p < PRODUCERS; p++) {
                ByteBuffer fixed = ByteBuffer.allocate(4 + 2 + 4);
                fixed.put((byte) 10).put((byte) random.nextInt(256)).put((byte) random.nextInt(256))
                    .put((byte) (1 + random.nextInt(254)));
                fixed.putShort((short) (1000 + random.nextInt(60_000)));
                fixed.putInt(random.nextInt());
                prefixes[p] = UtilAll.bytes2string(fixed.array());
                counters[p] = random.nextInt(65_536);
            }
            millisInMonth = random.nextInt(28 * 24 * 3600) * 1000 + random.nextInt(1000);
        }

        String next(Random random) {
            int p = random.nextInt(PRODUCERS);
            millisInMonth += random.nextInt(3);
            ByteBuffer tail = ByteBuffer.allocate(4 + 2);
            tail.putInt(millisInMonth);
            tail.putShort((short) counters[p]++);
            String id = prefixes[p] + UtilAll.bytes2string(tail.array());
            if (id.length() != 32) {
                throw new IllegalStateException("UNIQ_KEY must have 32 hex chars: " + id);
            }
            return id;
        }
    }

    /** Prints a few inputs of each corpus, escaped, to eyeball them. */
    public static void main(String[] args) {
        for (String shape : new String[] {SMALL5, LARGE12}) {
            String[] strings = persistedStrings(shape);
            for (int i = 0; i < 3; i++) {
                System.out.println(shape + " " + strings[i].getBytes(StandardCharsets.UTF_8).length + " B: "
                    + Guards.escape(strings[i]));
            }
        }
    }
}
