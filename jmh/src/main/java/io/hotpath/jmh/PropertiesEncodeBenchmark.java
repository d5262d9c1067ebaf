package io.hotpath.jmh;

import java.util.Map;

import io.hotpath.codec.PropertiesCodec490;
import io.hotpath.codec.PropertiesCodec491;
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
 * {@code upstream498}.
 */
@State(Scope.Thread)
public class PropertiesEncodeBenchmark extends AbstractBenchmark {

    @Param({PropertiesCorpus.SMALL5, PropertiesCorpus.LARGE12})
    public String corpus;

    private Map<String, String>[] maps;
    private int next;
    /** Per map, for {@link #floorCopyOnly}: every key and value is Latin-1. */
    private boolean[] latin1;
    private final EncodeFloor floor = new EncodeFloor();

    @Setup(Level.Trial)
    public void setUp() {
        maps = PropertiesCorpus.persistedMaps(corpus);
        Guards.requireSameStrings("hotpath vs upstream490 messageProperties2String", maps,
            MessageDecoder::messageProperties2String, PropertiesCodec490::messageProperties2String);
        Guards.requireSameStrings("hotpath491 vs upstream498 messageProperties2String", maps,
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            PropertiesCodec491::messageProperties2String);
        // same work: 5.2.0+ writes the 4.9.0 format again
        Guards.requireSameStrings("upstreamLatest vs upstream490 messageProperties2String", maps,
            MessageDecoder::messageProperties2String,
            io.hotpath.upstream.latest.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String);
        latin1 = new boolean[maps.length];
        Integer[] indexes = new Integer[maps.length];
        for (int i = 0; i < maps.length; i++) {
            latin1[i] = EncodeFloor.allCharsBelow(maps[i], 0x100);
            indexes[i] = i;
        }
        Guards.requireSameStrings("floorCopyOnly vs upstream490 messageProperties2String", indexes,
            i -> MessageDecoder.messageProperties2String(maps[i]), this::floorCopyOnly);
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
    public String upstreamLatest() {
        return io.hotpath.upstream.latest.org.apache.rocketmq.common.message.MessageDecoder
            .messageProperties2String(maps[next++ & MASK]);
    }

    @Benchmark
    public String hotpath() {
        return PropertiesCodec490.messageProperties2String(maps[next++ & MASK]);
    }

    /**
     * Not an encoder: given for free that the map is Latin-1, copies each key's and value's own bytes
     * ({@link EncodeFloor#latin1String}) and makes the one String; a map with another char goes to
     * hotpath, as no cheaper correct way is known. What every drop-in must do: iterate, copy every
     * char, allocate the result. The row shows how far the speed-up targets are from it.
     */
    @Benchmark
    public String floorCopyOnly() {
        return floorCopyOnly(next++ & MASK);
    }

    private String floorCopyOnly(int i) {
        return latin1[i] ? floor.latin1String(maps[i]) : PropertiesCodec490.messageProperties2String(maps[i]);
    }

    @Benchmark
    public String hotpath491() {
        return PropertiesCodec491.messageProperties2String(maps[next++ & MASK]);
    }
}
