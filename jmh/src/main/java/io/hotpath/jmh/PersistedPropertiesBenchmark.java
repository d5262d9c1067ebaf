package io.hotpath.jmh;

import io.hotpath.codec.PropertiesCodec490;
import io.hotpath.codec.PropertiesCodec491;
import io.hotpath.store.PersistedProperties;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
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
 *       {@link PersistedProperties#messageProperties2Bytes}, against {@code upstream498()}.</li>
 * </ul>
 * Inputs: seeded 4.9.0 producer headers ({@link ProducerPropertiesCorpus}), cycled.
 */
@State(Scope.Thread)
public class PersistedPropertiesBenchmark extends AbstractBenchmark {

    private static final String WAIT = "WAIT";
    private static final String CLUSTER_KEY = "CLUSTER";

    @Param({"small5", "large12"})
    public String shape;

    private String[] headers;
    private String clusterName;
    private int next;

    @Setup
    public void setUp() {
        headers = ProducerPropertiesCorpus.headers(shape, 0x4_9_0L);
        clusterName = ProducerPropertiesCorpus.CLUSTER;
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
}
