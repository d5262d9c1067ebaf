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
 * {@code MessageDecoder.string2messageProperties(String)} on the properties strings a 4.9.0
 * broker persists ({@link PropertiesCorpus}): what {@code CommitLog.checkMessageAndReturnSize}
 * parses for every message it dispatches; the send path parses the same minus CLUSTER.
 *
 * <p>{@code hotpath} replaces 4.9.0 ({@code upstream490}); {@code hotpath491} has 4.9.1-4.9.8
 * parse semantics and its like-for-like is {@code upstream498}; {@code hotpath520} has 5.2.0+ semantics (4.9.1's
 * rules into a {@code HashMap} of 128 buckets) and its like-for-like is {@code upstream533}. On this corpus every release
 * yields equal content; {@code upstream551} sizes its map for 128 entries, so its iteration
 * order differs.
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=PropertiesParseBenchmark} (every method and parameter; or
 * {@code java -jar jmh/target/benchmarks.jar PropertiesParseBenchmark -prof gc}).
 */
@State(Scope.Thread)
public class PropertiesParseBenchmark extends AbstractBenchmark {

    @Param({PropertiesCorpus.SMALL5, PropertiesCorpus.LARGE12})
    public String corpus;

    private String[] strings;
    private int next;
    private ParseFloor floor;

    @Setup(Level.Trial)
    public void setUp() {
        strings = PropertiesCorpus.persistedStrings(corpus);
        Guards.requireSameMaps("hotpath vs upstream490 string2messageProperties", strings,
            MessageDecoder::string2messageProperties, PropertiesCodec490::string2messageProperties);
        Guards.requireSameMaps("hotpath491 vs upstream498 string2messageProperties", strings,
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties,
            PropertiesCodec491::string2messageProperties);
        Guards.requireSameMaps("hotpath520 vs upstream533 string2messageProperties", strings,
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties,
            PropertiesCodec520::string2messageProperties);
        // all variants do the same work here: no junk segments that one release would drop
        Guards.requireEqualMaps("upstream551 vs upstream490 string2messageProperties", strings,
            MessageDecoder::string2messageProperties,
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
        floor = new ParseFloor(strings);
    }

    @Benchmark
    public Map<String, String> upstream490() {
        return MessageDecoder.string2messageProperties(strings[next++ & MASK]);
    }

    @Benchmark
    public Map<String, String> upstream498() {
        return io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
            .string2messageProperties(strings[next++ & MASK]);
    }

    @Benchmark
    public Map<String, String> upstream533() {
        return io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder
            .string2messageProperties(strings[next++ & MASK]);
    }

    @Benchmark
    public Map<String, String> upstream551() {
        return io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder
            .string2messageProperties(strings[next++ & MASK]);
    }

    @Benchmark
    public Map<String, String> hotpath() {
        return PropertiesCodec490.string2messageProperties(strings[next++ & MASK]);
    }

    /**
     * Not a parser: the work every drop-in parse must do on this input with nothing else, given the
     * key constants and value positions for free (no scanning, no key identification): a fresh
     * {@code new HashMap()}, one value String per entry (the interned "true"/"false" where hotpath
     * uses them) and the puts ({@link ParseFloor#noScan}). A parse cannot be faster than this.
     */
    @Benchmark
    public Map<String, String> floorNoScan() {
        return floor.noScan(next++ & MASK);
    }

    /**
     * Not a parser: {@link #floorNoScan} plus finding each separator once with {@code indexOf}
     * ({@link ParseFloor#findSeparators}); keys still given for free, no checks for malformed
     * segments. The least a parse that has to locate the values does; the row shows how much of
     * hotpath's time is scanning at all.
     */
    @Benchmark
    public Map<String, String> floorFindSeparators() {
        return floor.findSeparators(next++ & MASK);
    }

    @Benchmark
    public Map<String, String> hotpath491() {
        return PropertiesCodec491.string2messageProperties(strings[next++ & MASK]);
    }

    @Benchmark
    public Map<String, String> hotpath520() {
        return PropertiesCodec520.string2messageProperties(strings[next++ & MASK]);
    }
}
