package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/**
 * What upstream 4.9.8 persists on its single-message path for a given property map, as examples.
 * Runs against upstream itself ({@link Upstream498PersistedPropertiesContractTest}) to prove the
 * expectations, and against the candidate.
 */
abstract class PersistedPropertiesContract {

    /** 32 hex chars, as MessageClientIDSetter makes them. */
    static final String UNIQ_KEY = "7F0000010B5A18B4AAC27A1D2B4F0000";

    protected abstract PersistedPropertiesImpl impl();

    /** The map a 4.9.0 broker holds for a 4.9.0 producer's plain message: parsed by 4.9.0, plus CLUSTER. */
    static Map<String, String> plainProducerMessage() {
        Map<String, String> map = MessageDecoder.string2messageProperties(
            "KEYS\1OrderID188\2UNIQ_KEY\1" + UNIQ_KEY + "\2WAIT\1true\2TAGS\1TagA\2");
        map.put("CLUSTER", "DefaultCluster");
        return map;
    }

    @Test
    void storesPlainProducerMessageWithoutWaitAndTrailingSeparatorIn90Bytes() {
        byte[] persisted = impl().persist(plainProducerMessage());
        assertThat(new String(persisted, StandardCharsets.UTF_8))
            .isEqualTo("KEYS\1OrderID188\2UNIQ_KEY\1" + UNIQ_KEY + "\2CLUSTER\1DefaultCluster\2TAGS\1TagA");
        assertThat(persisted).hasSize(90);
    }

    @Test
    void isElevenBytesShorterThanWhat490Stores() {
        Map<String, String> map = plainProducerMessage();
        byte[] stock490 = MessageDecoder.messageProperties2String(map).getBytes(StandardCharsets.UTF_8);
        assertThat(stock490).hasSize(101);
        assertThat(impl().persist(map)).hasSize(90);
    }

    @Test
    void leavesWaitWithItsValueInTheMap() {
        Map<String, String> map = plainProducerMessage();
        impl().persist(map);
        assertThat(map).containsEntry("WAIT", "true").hasSize(5);
    }

    @Test
    void skipsWaitWhateverItsValue() {
        assertPersisted(linked("a", "1", "WAIT", "false", "b", "2"), "a\1" + "1\2b\1" + "2");
        assertPersisted(linked("WAIT", "", "b", "2"), "b\1" + "2");
        assertPersisted(linked("a", "1", "WAIT", "x\2y\1z"), "a\1" + "1");
    }

    @Test
    void writesNothingForOnlyWaitOrEmptyMapsOrOnlyNullValues() {
        assertPersisted(linked("WAIT", "true"), "");
        assertPersisted(new HashMap<>(), "");
        assertPersisted(linked("a", null, "b", null), "");
    }

    @Test
    void skipsNullValuesButWritesNullKeyAsTheWordNull() {
        assertPersisted(linked("a", null, null, "v", "b", "2"), "null\1v\2b\1" + "2");
    }

    @Test
    void writesEmptyKeysAndValuesAndNoTrailingSeparatorAfterAnEmptyLastValue() {
        assertPersisted(linked("", "v", "k", ""), "\1v\2k\1");
    }

    @Test
    void writesSeparatorsInsideKeysAndValuesRaw() {
        assertPersisted(linked("a\1b", "c\2d", "e", "\1\2"), "a\1b\1c\2d\2e\1\1\2");
    }

    @Test
    void followsTheMapsIterationOrder() {
        assertPersisted(linked("z", "1", "a", "2", "m", "3"), "z\1" + "1\2a\1" + "2\2m\1" + "3");
        assertPersisted(linked("m", "3", "a", "2", "z", "1"), "m\1" + "3\2a\1" + "2\2z\1" + "1");
    }

    @Test
    void encodesEveryUtf8WidthLikeStringGetBytes() {
        assertBytes(linked("k", "\0\u007f"), 'k', 1, 0x00, 0x7f);
        assertBytes(linked("k", "\u0080\u07ff"), 'k', 1, 0xc2, 0x80, 0xdf, 0xbf);
        assertBytes(linked("k", "\u0800\u4e2d\uffff"), 'k', 1, 0xe0, 0xa0, 0x80, 0xe4, 0xb8, 0xad, 0xef, 0xbf, 0xbf);
        assertBytes(linked("\u00e9", "v"), 0xc3, 0xa9, 1, 'v');
    }

    @Test
    void encodesSurrogatePairsAsFourBytes() {
        assertBytes(linked("k", "\ud83d\ude00"), 'k', 1, 0xf0, 0x9f, 0x98, 0x80);
        assertBytes(linked("k", "\ud800\udc00\udbff\udfff"), 'k', 1, 0xf0, 0x90, 0x80, 0x80, 0xf4, 0x8f, 0xbf, 0xbf);
    }

    @Test
    void writesQuestionMarkForEachUnpairedSurrogate() {
        assertPersisted(linked("k", "a\ud83d"), "k\1a?");                   // high at the very end of the block
        assertPersisted(linked("k\ud83d", "v", "x", "y"), "k?\1v\2x\1y");     // high before \1
        assertPersisted(linked("k", "\ud83d", "x", "y"), "k\1?\2x\1y");       // high before \2
        assertPersisted(linked("k", "\ude00x"), "k\1?x");                     // lone low
        assertPersisted(linked("k", "\ude00\ud83d"), "k\1??");                // reversed pair
        assertBytes(linked("k", "\ud83d\ud83d\ude00"), 'k', 1, '?', 0xf0, 0x9f, 0x98, 0x80);
    }

    @Test
    void neverPairsSurrogatesAcrossKeyAndValue() {
        assertPersisted(linked("\ud83d", "\ude00"), "?\1?");
        assertPersisted(linked("a", "\ud83d", "\ude00", "b"), "a\1?\2?\1b");
    }

    @Test
    void reachesExactly32767BytesWithTwoAndThreeByteChars() {
        // "k\1" + 10921 x 3 bytes + 1 x 2 bytes = 2 + 32763 + 2 = 32767
        Map<String, String> atLimit = linked("k", "\u4e2d".repeat(10921) + "\u00e9");
        assertThat(impl().persist(atLimit)).hasSize(PersistedProperties.MAX_LENGTH);
        Map<String, String> overLimit = linked("k", "\u4e2d".repeat(10921) + "\u00e9" + "x");
        assertThat(impl().persist(overLimit)).hasSize(PersistedProperties.MAX_LENGTH + 1);
    }

    @Test
    void canExceedTheLimitInBytesWhileTheStringFitsInChars() {
        // 4.9.x's String.length() check passes (16386 chars), the byte check does not (32770 bytes)
        Map<String, String> map = linked("k", "\u00e9".repeat(16384));
        assertThat(impl().persist(map)).hasSize(2 + 2 * 16384);
        assertThat(2 + 16384).isLessThanOrEqualTo(Short.MAX_VALUE);
    }

    void assertPersisted(Map<String, String> map, String expected) {
        assertThat(impl().persist(map)).isEqualTo(expected.getBytes(StandardCharsets.UTF_8));
    }

    void assertBytes(Map<String, String> map, int... expected) {
        byte[] bytes = new byte[expected.length];
        for (int i = 0; i < expected.length; i++) {
            bytes[i] = (byte) expected[i];
        }
        byte[] actual = impl().persist(map);
        assertThat(actual).as(Arrays.toString(actual)).isEqualTo(bytes);
    }

    /** An ordered map from alternating keys and values (nulls allowed). */
    static Map<String, String> linked(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
