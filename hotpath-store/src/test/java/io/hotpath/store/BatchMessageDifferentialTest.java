package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.codec.Escapes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The stored block of one message of a batch ({@link PersistedProperties#putBatchMessage}) against
 * what upstream 4.9.8 stores for it with every {@code WAIT\1..} segment removed.
 *
 * <p>The 4.9.8 side: the real 4.9.8 batch encoder ({@link Upstream498BatchEncoder}: rocketmq-store 4.9.8's
 * {@code CommitLog.MessageExtEncoder#encode(MessageExtBatch, ..)}, shaded) stores a batch of one message with this
 * client block and this batch map (WAIT included, as 4.9.8 stores it); from its block every {@code \2}-separated
 * segment starting with {@code WAIT\1} is
 * removed with one separator, and a trailing {@code \2} is dropped. The batch map always encodes to
 * something (the broker always puts CLUSTER with a value). Inner blocks: what a 4.9.0 client encodes (real 4.9.0 jar, trailing separator), what a
 * 4.9.8 client encodes (real 4.9.8 jar, none), and raw junk over {@code WAIT \1 \2} and multi-byte
 * UTF-8. Tries per property: jqwik.tries.default (100,000 in CI).
 */
class BatchMessageDifferentialTest {

    private static final byte SEP = 2;

    @Property
    void storesWhatUpstream498StoresWithoutWait(@ForAll("innerBlocks") byte[] inner, @ForAll("outerMaps") Map<String, String> outer,
        @ForAll("paddings") int padding) {
        byte[] ours = ours(inner, padding, outer);
        byte[] expected = upstream498WithoutWait(inner, outer);
        assertThat(ours).as(() -> "inner " + text(inner) + ", outer " + outer + ": ours " + text(ours) + " vs 4.9.8 without WAIT "
            + text(expected)).isEqualTo(expected);
        assertThat(PersistedProperties.batchMessageLength(padded(inner, padding), padding, inner.length,
            PersistedProperties.messageProperties2Bytes(outer))).isEqualTo(ours.length);
        assertThat(new String(ours, StandardCharsets.ISO_8859_1)).doesNotStartWith("WAIT\1").doesNotContain("\2WAIT\1");
    }

    @Example
    void aMessageOfA490ClientBatch() {
        byte[] inner = "KEYS\1k1\2UNIQ_KEY\0017F00000100002A9F0000000000000000\2WAIT\1true\2TAGS\1TagA\2".getBytes(StandardCharsets.UTF_8);
        Map<String, String> outer = new java.util.HashMap<>(Map.of("WAIT", "true", "CLUSTER", "DefaultCluster"));
        assertThat(new String(ours(inner, 0, outer), StandardCharsets.UTF_8))
            .isEqualTo("KEYS\1k1\2UNIQ_KEY\0017F00000100002A9F0000000000000000\2TAGS\1TagA\2CLUSTER\1DefaultCluster");
    }

    @Example
    void onlyWaitLeavesTheOuterBlock() {
        assertThat(new String(ours("WAIT\1true\2".getBytes(StandardCharsets.UTF_8), 3, Map.of("CLUSTER", "c")), StandardCharsets.UTF_8))
            .isEqualTo("CLUSTER\1c");
        assertThat(ours("WAIT\1true".getBytes(StandardCharsets.UTF_8), 0, Map.of())).isEmpty();
        assertThat(ours(new byte[0], 0, Map.of())).isEmpty();
    }

    private static byte[] ours(byte[] inner, int padding, Map<String, String> outer) {
        byte[] outerBytes = PersistedProperties.messageProperties2Bytes(outer);
        ByteBuffer target = ByteBuffer.allocate(5 + inner.length + outerBytes.length + 1);
        target.position(5);
        int written = PersistedProperties.putBatchMessage(padded(inner, padding), padding, inner.length, outerBytes, target);
        assertThat(target.position()).isEqualTo(5 + written);
        byte[] out = new byte[written];
        System.arraycopy(target.array(), 5, out, 0, written);
        return out;
    }

    /** The inner block inside a larger array, as it sits in the batch body. */
    private static byte[] padded(byte[] inner, int padding) {
        byte[] array = new byte[padding + inner.length + padding];
        java.util.Arrays.fill(array, SEP); // separators around it must not be read
        System.arraycopy(inner, 0, array, padding, inner.length);
        return array;
    }

    private static byte[] upstream498WithoutWait(byte[] inner, Map<String, String> outer) {
        return StoredBlocks.withoutWait(Upstream498BatchEncoder.storedBlock(inner, outer));
    }

    private static String text(byte[] bytes) {
        return Escapes.escape(new String(bytes, StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<byte[]> innerBlocks() {
        Arbitrary<Map<String, String>> maps = PersistedPropertiesArbitraries.separatorFreeMaps();
        Arbitrary<byte[]> client490 = maps.map(map -> org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(map)
            .getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> client498 = maps.map(map -> io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
            .messageProperties2String(map).getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> nasty = PersistedPropertiesArbitraries.nastyMaps().map(map ->
            org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(map).getBytes(StandardCharsets.UTF_8));
        Arbitrary<String> pieces = Arbitraries.of("WAIT", "WAIT\1", "WAIT\1true", "WAI", "\1", "\2", "\2\2", "x", "KEYS\1k", "\u00e9", "\u4e2d",
            "\ud83d\ude00", "WAITS\1x", "wait\1true");
        Arbitrary<byte[]> junk = pieces.list().ofMaxSize(10).map(list -> String.join("", list).getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(Tuple.of(3, client490), Tuple.of(2, client498), Tuple.of(1, nasty), Tuple.of(3, junk));
    }

    /** The batch map as the broker holds it: the client's batch properties (often WAIT) plus CLUSTER, or odd ones. */
    @Provide
    Arbitrary<Map<String, String>> outerMaps() {
        return Arbitraries.frequencyOf(
            Tuple.of(4, Combinators.combine(Arbitraries.of("true", "false"), Arbitraries.of("DefaultCluster", "c\u00e9")).as((wait, cluster) -> {
                Map<String, String> map = new java.util.HashMap<>();
                map.put("WAIT", wait);
                map.put("CLUSTER", cluster);
                return map;
            })),
            // never empty: the broker always puts CLUSTER (for an empty map the rule differs, see putBatchMessage)
            // the broker's map always encodes to something (CLUSTER has a value); for one that encodes to nothing
            // (empty, or only null values) 4.9.8 keeps the inner block's terminator and we do not (see putBatchMessage)
            Tuple.of(3, PersistedPropertiesArbitraries.separatorFreeMaps().filter(map -> map.values().stream().anyMatch(v -> v != null))));
    }

    @Provide
    Arbitrary<Integer> paddings() {
        return Arbitraries.of(0, 1, 9);
    }
}
