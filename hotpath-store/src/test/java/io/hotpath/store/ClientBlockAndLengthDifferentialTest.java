package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.codec.Escapes;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The two helpers the 4.9.8 line's store patch needs beyond the map encoder:
 * <ul>
 *   <li>{@link PersistedProperties#clientProperties2Bytes}: 4.9.8's reply path stores the request's
 *       properties String verbatim ({@code ReplyMessageProcessor}: {@code setPropertiesString(requestHeader
 *       .getProperties())}); ours must be those UTF-8 bytes with each {@code WAIT\1..} segment and one
 *       separator removed, and no trailing separator. For a block a real client encoded from a map, that is
 *       also the real 4.9.8 {@code messageProperties2String} of the same map without WAIT.</li>
 *   <li>{@link PersistedProperties#utf16Length}: the {@code String.length()} 4.9.8's
 *       {@code DefaultMessageStore#checkMessage} tests against 32767, recovered from our bytes: for every
 *       String (lone surrogates included, which UTF-8 encodes as one {@code '?'}) it equals the length of the
 *       String those bytes were made from.</li>
 * </ul>
 * Tries per property: jqwik.tries.default (100,000 in CI).
 */
class ClientBlockAndLengthDifferentialTest {

    @Property
    void aClientBlockIsStoredAs498StoresItWithoutWait(@ForAll("clientBlocks") String block) {
        byte[] ours = PersistedProperties.clientProperties2Bytes(block);
        byte[] expected = verbatimWithoutWait(block);
        assertThat(ours).as(() -> "client block " + Escapes.escape(block) + ": ours " + text(ours) + " vs 4.9.8's verbatim bytes without WAIT "
            + text(expected)).isEqualTo(expected);
    }

    @Property
    void aBlockAClientEncodedIsStoredLike498EncodesTheMapWithoutWait(@ForAll("separatorFreeMaps") Map<String, String> map) {
        List<String> clientBlocks = List.of(org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(map),
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(map));
        // WAIT removed from the same map (a copy could iterate in another order): the others keep their order
        map.remove("WAIT");
        byte[] expected = io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
            .messageProperties2String(map).getBytes(StandardCharsets.UTF_8);
        for (String clientBlock : clientBlocks) {
            assertThat(PersistedProperties.clientProperties2Bytes(clientBlock)).as(() -> "client block " + Escapes.escape(clientBlock))
                .isEqualTo(expected);
        }
    }

    @Property
    void theStringLengthIsRecoveredFromTheBytes(@ForAll("strings") String string) {
        assertThat(PersistedProperties.utf16Length(string.getBytes(StandardCharsets.UTF_8)))
            .as(() -> Escapes.escape(string)).isEqualTo(string.length());
    }

    @Property
    void theLengthOfOurBlockIsThatOf498sString(@ForAll("nastyMaps") Map<String, String> map) {
        Map<String, String> withoutWait = new HashMap<>(map);
        withoutWait.remove("WAIT");
        String upstream;
        try {
            upstream = io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String(withoutWait);
        } catch (RuntimeException hostile) {
            return; // a map upstream cannot encode has no String to measure (the differential suites compare the exception)
        }
        assertThat(PersistedProperties.utf16Length(PersistedProperties.messageProperties2Bytes(map))).isEqualTo(upstream.length());
    }

    @Example
    void examples() {
        assertThat(new String(PersistedProperties.clientProperties2Bytes("KEYS\1k\2WAIT\1true\2TAGS\1a\2"), StandardCharsets.UTF_8))
            .isEqualTo("KEYS\1k\2TAGS\1a");
        assertThat(PersistedProperties.clientProperties2Bytes("WAIT\1false")).isEmpty();
        assertThat(PersistedProperties.clientProperties2Bytes(null)).isEmpty();
        assertThat(PersistedProperties.clientProperties2Bytes("")).isEmpty();
        assertThat(PersistedProperties.utf16Length("\ud83d\ude00\u00e9a".getBytes(StandardCharsets.UTF_8))).isEqualTo(4);
        assertThat(PersistedProperties.utf16Length("\ud800".getBytes(StandardCharsets.UTF_8))).isEqualTo(1);
    }

    /** 4.9.8's reply record (the String's UTF-8 bytes), then every WAIT segment and a trailing separator removed. */
    private static byte[] verbatimWithoutWait(String block) {
        return block == null ? new byte[0] : StoredBlocks.withoutWait(block.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(byte[] bytes) {
        return Escapes.escape(new String(bytes, StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> clientBlocks() {
        Arbitrary<String> client490 = PersistedPropertiesArbitraries.nastyMaps()
            .map(org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String);
        Arbitrary<String> client498 = PersistedPropertiesArbitraries.unicodeMaps()
            .map(io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String);
        Arbitrary<String> pieces = Arbitraries.of("WAIT", "WAIT\1", "WAIT\1true", "WAI", "\1", "\2", "\2\2", "x", "KEYS\1k", "\u00e9",
            "\u4e2d", "\ud83d\ude00", "\ud800", "WAITS\1x", "wait\1true");
        Arbitrary<String> junk = pieces.list().ofMaxSize(10).map(list -> String.join("", list));
        return Arbitraries.frequencyOf(Tuple.of(3, client490), Tuple.of(2, client498), Tuple.of(3, junk)).injectNull(0.01);
    }

    @Provide
    Arbitrary<Map<String, String>> separatorFreeMaps() {
        return PersistedPropertiesArbitraries.separatorFreeMaps();
    }

    @Provide
    Arbitrary<Map<String, String>> nastyMaps() {
        return PersistedPropertiesArbitraries.nastyMaps();
    }

    @Provide
    Arbitrary<String> strings() {
        return Arbitraries.frequencyOf(Tuple.of(3, PersistedPropertiesArbitraries.unicodeStrings()),
            Tuple.of(1, Arbitraries.strings().all().ofMaxLength(20)));
    }
}
