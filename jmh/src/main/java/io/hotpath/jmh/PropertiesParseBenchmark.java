package io.hotpath.jmh;

import java.util.HashMap;
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
 * {@code MessageDecoder.string2messageProperties(String)} on the properties strings a 4.9.0
 * broker persists ({@link PropertiesCorpus}): what {@code CommitLog.checkMessageAndReturnSize}
 * parses for every message it dispatches; the send path parses the same minus CLUSTER.
 *
 * <p>{@code hotpath} replaces 4.9.0 ({@code upstream490}); {@code hotpath491} has 4.9.1-4.9.8
 * parse semantics and its like-for-like is {@code upstream498}. On this corpus every release
 * yields equal content; {@code upstreamLatest} sizes its map for 128 entries, so its iteration
 * order differs.
 */
@State(Scope.Thread)
public class PropertiesParseBenchmark extends AbstractBenchmark {

    @Param({PropertiesCorpus.SMALL5, PropertiesCorpus.LARGE12})
    public String corpus;

    private String[] strings;
    private int next;
    /** Per string, for {@link #floorNoScan}: each entry's key constant and value region (or constant). */
    private String[][] floorKeys;
    private int[][] floorValueBounds;
    private String[][] floorValueConstants;

    @Setup(Level.Trial)
    public void setUp() {
        strings = PropertiesCorpus.persistedStrings(corpus);
        Guards.requireSameMaps("hotpath vs upstream490 string2messageProperties", strings,
            MessageDecoder::string2messageProperties, PropertiesCodec490::string2messageProperties);
        Guards.requireSameMaps("hotpath491 vs upstream498 string2messageProperties", strings,
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties,
            PropertiesCodec491::string2messageProperties);
        // all variants do the same work here: no junk segments that one release would drop
        Guards.requireEqualMaps("upstreamLatest vs upstream490 string2messageProperties", strings,
            MessageDecoder::string2messageProperties,
            io.hotpath.upstream.latest.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
        floorKeys = new String[strings.length][];
        floorValueBounds = new int[strings.length][];
        floorValueConstants = new String[strings.length][];
        for (int i = 0; i < strings.length; i++) {
            Map<String, String> parsed = PropertiesCodec490.string2messageProperties(strings[i]);
            String[] segments = strings[i].split("\2");
            floorKeys[i] = new String[segments.length];
            floorValueBounds[i] = new int[2 * segments.length];
            floorValueConstants[i] = new String[segments.length];
            int at = 0;
            for (int k = 0; k < segments.length; k++) {
                int nv = segments[k].indexOf('\1');
                String key = segments[k].substring(0, nv);
                // the map's own key object: the interned constant for system names, as hotpath returns it
                floorKeys[i][k] = parsed.keySet().stream().filter(key::equals).findFirst().orElseThrow();
                floorValueBounds[i][2 * k] = at + nv + 1;
                floorValueBounds[i][2 * k + 1] = at + segments[k].length();
                String value = parsed.get(key);
                floorValueConstants[i][k] = "true".equals(value) || "false".equals(value) ? value : null;
                at += segments[k].length() + 1;
            }
            Map<String, String> floor = floorNoScan(i);
            if (!floor.equals(parsed) || !new java.util.ArrayList<>(floor.keySet()).equals(new java.util.ArrayList<>(parsed.keySet()))) {
                throw new IllegalStateException("floorNoScan builds another map than hotpath for " + strings[i]);
            }
        }
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
    public Map<String, String> upstreamLatest() {
        return io.hotpath.upstream.latest.org.apache.rocketmq.common.message.MessageDecoder
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
     * uses them) and the puts. A parse cannot be faster than this; the row shows how far the
     * release-ratio targets are from it.
     */
    @Benchmark
    public Map<String, String> floorNoScan() {
        return floorNoScan(next++ & MASK);
    }

    private Map<String, String> floorNoScan(int i) {
        final String s = strings[i];
        final String[] keys = floorKeys[i];
        final int[] bounds = floorValueBounds[i];
        final String[] constants = floorValueConstants[i];
        final Map<String, String> map = new HashMap<String, String>();
        for (int k = 0; k < keys.length; k++) {
            final String constant = constants[k];
            map.put(keys[k], constant != null ? constant : s.substring(bounds[2 * k], bounds[2 * k + 1]));
        }
        return map;
    }

    @Benchmark
    public Map<String, String> hotpath491() {
        return PropertiesCodec491.string2messageProperties(strings[next++ & MASK]);
    }
}
