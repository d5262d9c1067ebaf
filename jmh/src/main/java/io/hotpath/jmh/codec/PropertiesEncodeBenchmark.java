package io.hotpath.jmh.codec;

import java.util.Map;

import io.hotpath.codec.PropertiesCodec490;
import io.hotpath.codec.PropertiesCodec491;
import io.hotpath.codec.PropertiesCodec520;
import io.hotpath.jmh.AbstractBenchmark;
import io.hotpath.jmh.Guards;
import io.hotpath.jmh.PropertiesCorpus;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code MessageDecoder.messageProperties2String(Map)}: what the broker runs for every message it
 * stores, on the map it holds at that point ({@link PropertiesCorpus}: parsed from the producer's
 * string by 4.9.0, plus CLUSTER, so the iteration order is the real one).
 *
 * <p>{@code hotpath} replaces 4.9.0 ({@code upstream490}); {@code hotpath491} is the 4.9.1-4.9.8
 * format (no trailing separator) that the trimmed store writes, and its like-for-like is
 * {@code upstream498}; {@code hotpath520} is the 5.2.0+ format (4.9.0's string again), and its like-for-like
 * is {@code upstream533}.
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=PropertiesEncodeBenchmark} (every method and parameter; or
 * {@code java -jar jmh/target/benchmarks.jar PropertiesEncodeBenchmark -prof gc}).
 */
@State(Scope.Thread)
public class PropertiesEncodeBenchmark extends AbstractBenchmark {

    @Param({PropertiesCorpus.SMALL5, PropertiesCorpus.LARGE12})
    public String corpus;

    private Map<String, String>[] maps;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        maps = PropertiesCorpus.persistedMaps(corpus);
        Guards.requireSameStrings("hotpath vs upstream490 messageProperties2String", maps,
            MessageDecoder::messageProperties2String, PropertiesCodec490::messageProperties2String);
        Guards.requireSameStrings("hotpath491 vs upstream498 messageProperties2String", maps,
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            PropertiesCodec491::messageProperties2String);
        Guards.requireSameStrings("hotpath520 vs upstream533 messageProperties2String", maps,
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            PropertiesCodec520::messageProperties2String);
        // same work: 5.2.0+ writes the 4.9.0 format again
        Guards.requireSameStrings("upstream551 vs upstream490 messageProperties2String", maps,
            MessageDecoder::messageProperties2String,
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String);
    }

    @Benchmark
    public String upstream490() {
        return MessageDecoder.messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String upstream498() {
        return io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
            .messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String upstream533() {
        return io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder
            .messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String upstream551() {
        return io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder
            .messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String hotpath() {
        return PropertiesCodec490.messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String hotpath491() {
        return PropertiesCodec491.messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String hotpath520() {
        return PropertiesCodec520.messageProperties2String(maps[next++ & MASK]);
    }
}
