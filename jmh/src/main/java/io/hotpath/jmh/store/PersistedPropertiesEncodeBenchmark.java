package io.hotpath.jmh.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import io.hotpath.jmh.AbstractBenchmark;
import io.hotpath.store.PersistedProperties;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The encode step alone, on the broker's already-parsed maps (4.9.0 parse + CLUSTER): isolates
 * {@link PersistedProperties} from the parse that {@link PersistedPropertiesBenchmark} includes.
 * {@code upstream490()}: {@code messageProperties2String(map).getBytes}; {@code upstream498()}:
 * 4.9.8's WAIT remove, serialize, re-put, {@code getBytes}; {@code hotpath()}: ours.
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=PersistedPropertiesEncodeBenchmark} (every method and parameter; or
 * {@code java -jar jmh/target/benchmarks.jar PersistedPropertiesEncodeBenchmark -prof gc}).
 */
@State(Scope.Thread)
public class PersistedPropertiesEncodeBenchmark extends AbstractBenchmark {

    private static final String WAIT = "WAIT";

    @Param({"small5", "large12"})
    public String shape;

    private Map<String, String>[] maps;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        String[] headers = ProducerPropertiesCorpus.headers(shape, 0x4_9_0L);
        maps = new Map[headers.length];
        for (int i = 0; i < headers.length; i++) {
            maps[i] = org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(headers[i]);
            maps[i].put("CLUSTER", ProducerPropertiesCorpus.CLUSTER);
        }
        for (Map<String, String> map : maps) {
            if (!Arrays.equals(hotpath(map), upstream498(map))) {
                throw new IllegalStateException("hotpath differs from 4.9.8 for " + map);
            }
        }
    }

    private Map<String, String> nextMap() {
        return maps[next++ & (ProducerPropertiesCorpus.SIZE - 1)];
    }

    @Benchmark
    public byte[] upstream490() {
        return org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(nextMap())
            .getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public byte[] upstream498() {
        return upstream498(nextMap());
    }

    @Benchmark
    public byte[] hotpath() {
        return hotpath(nextMap());
    }

    private static byte[] upstream498(Map<String, String> properties) {
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

    private static byte[] hotpath(Map<String, String> properties) {
        return PersistedProperties.messageProperties2Bytes(properties);
    }
}
