package io.hotpath.jmh.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.StringJoiner;

import io.hotpath.codec.PropertiesCodec490;
import io.hotpath.codec.PropertiesCodec491;
import io.hotpath.codec.PropertiesCodec520;
import io.hotpath.jmh.AbstractBenchmark;
import io.hotpath.jmh.Guards;
import io.hotpath.store.PersistedProperties;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * From the send request's properties header to the bytes stored in the CommitLog record, as the
 * broker's single-message path does it:
 * <ul>
 *   <li>{@code upstream490()}: 4.9.0 {@code string2messageProperties}, put CLUSTER,
 *       {@code messageProperties2String} (WAIT and trailing separator kept), {@code getBytes};</li>
 *   <li>{@code upstream498()}: the same with 4.9.8's codec, removing WAIT before serializing and
 *       putting it back after, as {@code SendMessageProcessor#asyncSendMessage} does;</li>
 *   <li>{@code hotpath()}: the patched 4.9.0 broker: {@link PropertiesCodec490} parse (4.9.0
 *       semantics), put CLUSTER, {@link PersistedProperties#messageProperties2Bytes};</li>
 *   <li>{@code hotpath498()}: the patched 4.9.8 broker (patches 0001 and 0003 of that line):
 *       {@link PropertiesCodec491} parse (4.9.1-4.9.8 semantics), put CLUSTER,
 *       {@link PersistedProperties#messageProperties2Bytes}, against {@code upstream498()};</li>
 *   <li>{@code upstream533()}: stock 5.3.3 (shaded {@code v533} {@code MessageDecoder}), which parses and
 *       encodes twice per send: {@code AbstractSendMessageProcessor#buildMsgContext} parses the header, puts
 *       MSG_REGION and TRACE_ON and writes the header back; {@code SendMessageProcessor#sendMessage} parses
 *       that, checks UNIQ_KEY (present in every corpus header, so never created), puts CLUSTER, and writes the
 *       stored String (WAIT and trailing separator kept, as 5.2.0+ writes them); {@code MessageExtEncoder#encode}
 *       calls {@code getBytes};</li>
 *   <li>{@code hotpath533()}: the patched 5.3.3 broker: the same two rounds with {@link PropertiesCodec520},
 *       then {@link PersistedProperties#clientProperties2Bytes} of the stored String instead of
 *       {@code getBytes} (no WAIT segment, no trailing separator), against {@code upstream533()};</li>
 *   <li>{@code upstream551()}: 5.3.3's steps with 5.5.1's (shaded {@code v551})
 *       {@code MessageDecoder}: its codec on the 5.3.3 path, not a reading of 5.5.1's broker.</li>
 * </ul>
 * Inputs: seeded 4.9.0 producer headers ({@link ProducerPropertiesCorpus}), cycled; a 5.2.0+ producer writes
 * the same String. Broker settings are 5.3.3's defaults (region DefaultRegion, trace on, DefaultCluster).
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=PersistedPropertiesBenchmark} (every method and parameter; or
 * {@code java -jar jmh/target/benchmarks.jar PersistedPropertiesBenchmark -prof gc}).
 */
@State(Scope.Thread)
public class PersistedPropertiesBenchmark extends AbstractBenchmark {

    private static final String WAIT = "WAIT";
    private static final String CLUSTER_KEY = "CLUSTER";
    private static final String UNIQ_KEY = "UNIQ_KEY";
    private static final String MSG_REGION_KEY = "MSG_REGION";
    private static final String TRACE_SWITCH_KEY = "TRACE_ON";
    /** What 5.3.3 stores and hotpath533 drops: each segment starting with this, and the trailing {@code \2}. */
    private static final String WAIT_SEGMENT_PREFIX = "WAIT\1";
    private static final String SEPARATOR = "\2";

    @Param({"small5", "large12"})
    public String shape;

    private String[] headers;
    private String clusterName;
    // 5.3.3 BrokerConfig defaults: getRegionId(), String.valueOf(isTraceOn())
    private String regionId;
    private String traceOn;
    private int next;

    @Setup
    public void setUp() {
        headers = ProducerPropertiesCorpus.headers(shape, 0x4_9_0L);
        clusterName = ProducerPropertiesCorpus.CLUSTER;
        regionId = "DefaultRegion";
        traceOn = String.valueOf(true);
        // guard: both hotpath rows must store 4.9.8's bytes for every input, 11 bytes fewer than 4.9.0
        for (String header : headers) {
            byte[] expected = upstream498(header);
            byte[] actual = hotpath(header);
            if (!Arrays.equals(actual, expected) || !Arrays.equals(hotpath498(header), expected)
                || upstream490(header).length - actual.length != 11) {
                throw new IllegalStateException("hotpath differs from 4.9.8 (or 4.9.0 - 11 bytes) for header "
                    + header.replace('\1', '=').replace('\2', ';'));
            }
        }
        // guard: hotpath533 stores 5.3.3's bytes without WAIT and the trailing separator, the
        // oracle computed from upstream533's bytes alone; upstream551 stores 5.3.3's bytes
        for (String header : headers) {
            byte[] stock = upstream533(header);
            byte[] actual = hotpath533(header);
            String stockString = new String(stock, StandardCharsets.UTF_8);
            if (!stockString.endsWith(SEPARATOR)) {
                throw guard533Failed("5.3.3 stored no trailing separator", header, stock, actual);
            }
            StringJoiner kept = new StringJoiner(SEPARATOR);
            int dropped = 1; // the trailing separator
            for (String segment : stockString.substring(0, stockString.length() - 1).split(SEPARATOR, -1)) {
                if (segment.startsWith(WAIT_SEGMENT_PREFIX)) {
                    dropped += segment.getBytes(StandardCharsets.UTF_8).length + 1; // and its separator
                } else {
                    kept.add(segment);
                }
            }
            if (!Arrays.equals(actual, kept.toString().getBytes(StandardCharsets.UTF_8))
                || stock.length - actual.length != dropped) {
                throw guard533Failed("hotpath533 is not 5.3.3 without WAIT and trailing separator ("
                    + dropped + " bytes fewer)", header, stock, actual);
            }
            if (!Arrays.equals(upstream551(header), stock)) {
                throw guard533Failed("upstream551 differs from upstream533", header, stock, upstream551(header));
            }
        }
    }

    private static IllegalStateException guard533Failed(String what, String header, byte[] stock, byte[] other) {
        return new IllegalStateException("guard failed, " + what + " for header " + Guards.escape(header)
            + "\n  upstream533: " + Guards.escape(new String(stock, StandardCharsets.UTF_8))
            + "\n  other:       " + Guards.escape(new String(other, StandardCharsets.UTF_8)));
    }

    private String nextHeader() {
        return headers[next++ & (ProducerPropertiesCorpus.SIZE - 1)];
    }

    @Benchmark
    public byte[] upstream490() {
        return upstream490(nextHeader());
    }

    @Benchmark
    public byte[] upstream498() {
        return upstream498(nextHeader());
    }

    @Benchmark
    public byte[] hotpath() {
        return hotpath(nextHeader());
    }

    @Benchmark
    public byte[] hotpath498() {
        return hotpath498(nextHeader());
    }

    @Benchmark
    public byte[] upstream533() {
        return upstream533(nextHeader());
    }

    @Benchmark
    public byte[] upstream551() {
        return upstream551(nextHeader());
    }

    @Benchmark
    public byte[] hotpath533() {
        return hotpath533(nextHeader());
    }

    private byte[] upstream490(String header) {
        Map<String, String> properties = org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(header);
        properties.put(CLUSTER_KEY, clusterName);
        return org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(properties)
            .getBytes(StandardCharsets.UTF_8);
    }

    private byte[] upstream498(String header) {
        Map<String, String> properties =
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(header);
        properties.put(CLUSTER_KEY, clusterName);
        String propertiesString;
        if (properties.containsKey(WAIT)) {
            String wait = properties.remove(WAIT);
            propertiesString =
                io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(properties);
            properties.put(WAIT, wait);
        } else {
            propertiesString =
                io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(properties);
        }
        return propertiesString.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] hotpath(String header) {
        Map<String, String> properties = PropertiesCodec490.string2messageProperties(header);
        properties.put(CLUSTER_KEY, clusterName);
        return PersistedProperties.messageProperties2Bytes(properties);
    }

    private byte[] hotpath498(String header) {
        Map<String, String> properties = PropertiesCodec491.string2messageProperties(header);
        properties.put(CLUSTER_KEY, clusterName);
        return PersistedProperties.messageProperties2Bytes(properties);
    }

    private byte[] upstream533(String header) {
        // AbstractSendMessageProcessor#buildMsgContext rewrites the request's properties
        Map<String, String> properties =
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(header);
        properties.put(MSG_REGION_KEY, regionId);
        properties.put(TRACE_SWITCH_KEY, traceOn);
        String rewritten =
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(properties);
        // SendMessageProcessor#sendMessage
        Map<String, String> oriProps =
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(rewritten);
        putUniqKeyIfAbsent(oriProps);
        oriProps.put(CLUSTER_KEY, clusterName);
        String stored =
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(oriProps);
        // MessageExtEncoder#encode
        return stored.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] upstream551(String header) {
        Map<String, String> properties =
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(header);
        properties.put(MSG_REGION_KEY, regionId);
        properties.put(TRACE_SWITCH_KEY, traceOn);
        String rewritten =
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(properties);
        Map<String, String> oriProps =
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(rewritten);
        putUniqKeyIfAbsent(oriProps);
        oriProps.put(CLUSTER_KEY, clusterName);
        String stored =
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(oriProps);
        return stored.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] hotpath533(String header) {
        Map<String, String> properties = PropertiesCodec520.string2messageProperties(header);
        properties.put(MSG_REGION_KEY, regionId);
        properties.put(TRACE_SWITCH_KEY, traceOn);
        String rewritten = PropertiesCodec520.messageProperties2String(properties);
        Map<String, String> oriProps = PropertiesCodec520.string2messageProperties(rewritten);
        putUniqKeyIfAbsent(oriProps);
        oriProps.put(CLUSTER_KEY, clusterName);
        String stored = PropertiesCodec520.messageProperties2String(oriProps);
        return PersistedProperties.clientProperties2Bytes(stored);
    }

    /** 5.3.3's check; every corpus header carries UNIQ_KEY, so only the lookup is on the measured path. */
    private static void putUniqKeyIfAbsent(Map<String, String> properties) {
        String uniqKey = properties.get(UNIQ_KEY);
        if (uniqKey == null || uniqKey.length() <= 0) {
            throw noUniqKey();
        }
    }

    // cold; thrown from @Setup's guard first. 5.3.3 would put MessageClientIDSetter.createUniqID() here, but the
    // shaded jar leaves out the dependencies its static init loads (commons-validator), and an id made per call
    // would differ between rows anyway
    private static IllegalStateException noUniqKey() {
        return new IllegalStateException("corpus header without UNIQ_KEY: the 5.3.3 rows expect producer headers");
    }
}
