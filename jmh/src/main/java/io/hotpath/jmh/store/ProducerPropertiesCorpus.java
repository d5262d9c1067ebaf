package io.hotpath.jmh.store;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * Seeded properties strings exactly as a 4.9.0 producer puts them into the send request header:
 * built with the real 4.9.0 {@code Message} (its constructor adds TAGS, KEYS and WAIT=true),
 * user properties through {@code putUserProperty}, UNIQ_KEY (32 hex chars, seeded here instead
 * of time-based) as {@code sendKernelImpl} adds it, serialized by 4.9.0's
 * {@code messageProperties2String} (trailing separator included).
 */
final class ProducerPropertiesCorpus {

    static final int SIZE = 1024; // power of two: benchmarks cycle with next & (SIZE - 1)
    static final String CLUSTER = "DefaultCluster";

    private static final String[] CHANNELS = {"app", "web", "mini-program", "pos"};
    private static final String[] CITIES = {"Hangzhou", "Beijing", "\u676d\u5dde", "\u4e0a\u6d77"}; // half ASCII, half CJK

    private ProducerPropertiesCorpus() {
    }

    /**
     * small5: TAGS, KEYS, WAIT, UNIQ_KEY (+ CLUSTER on the broker) — the plain message of the
     * quick-start producer. large12: the same plus 7 user properties (+ CLUSTER) — an order event
     * with trace and routing attributes, a quarter of them with a CJK value.
     */
    static String[] headers(String shape, long seed) {
        Random random = new Random(seed);
        String[] headers = new String[SIZE];
        for (int i = 0; i < SIZE; i++) {
            Message msg = new Message("TopicTest", "Tag" + (char) ('A' + random.nextInt(5)),
                "OrderID" + random.nextInt(1_000_000), "body".getBytes(StandardCharsets.UTF_8));
            if ("large12".equals(shape)) {
                msg.putUserProperty("orderId", "ORD-" + (20_230_000_000L + random.nextInt(1_000_000_000)));
                msg.putUserProperty("userId", String.valueOf(random.nextInt(100_000_000)));
                msg.putUserProperty("channel", CHANNELS[random.nextInt(CHANNELS.length)]);
                msg.putUserProperty("amount", random.nextInt(100_000) + "." + random.nextInt(100));
                msg.putUserProperty("currency", "CNY");
                msg.putUserProperty("traceId", hex(random, 16));
                msg.putUserProperty("city", CITIES[random.nextInt(CITIES.length)]);
            } else if (!"small5".equals(shape)) {
                throw new IllegalArgumentException("unknown shape " + shape);
            }
            MessageAccessor.putProperty(msg, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, hex(random, 16));
            headers[i] = MessageDecoder.messageProperties2String(msg.getProperties());
        }
        return headers;
    }

    private static String hex(Random random, int bytes) {
        StringBuilder sb = new StringBuilder(bytes * 2);
        for (int i = 0; i < bytes; i++) {
            int b = random.nextInt(256);
            sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
        return sb.toString().toUpperCase();
    }
}
