package io.hotpath.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What Apache RocketMQ 4.9.0's {@code MessageDecoder} properties codec does, case by case
 * (docs/upstream-behavior.md, section 1.1). Subclasses bind it to one implementation; it runs
 * against the upstream 4.9.0 jar too, which proves the expectations are upstream's.
 */
public abstract class PropertiesCodec490Contract {

    protected abstract PropertiesCodecImpl codec();

    private String encode(Map<String, String> m) {
        return codec().encode(m);
    }

    private Map<String, String> parse(String s) {
        return codec().parse(s);
    }

    static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void encodesNullEmptyAndAllNullValuesAsEmptyString() {
        assertThat(encode(null)).isEmpty();
        assertThat(encode(new HashMap<>())).isEmpty();
        assertThat(encode(map("a", null, "b", null))).isEmpty();
    }

    @Test
    void shouldKeepTrailingSeparatorLike490() {
        assertThat(encode(map("k", "v"))).isEqualTo("k\1v\2");
        assertThat(encode(map("a", "x", "b", "y"))).isEqualTo("a\1x\2b\1y\2");
    }

    @Test
    void writesNullKeyAsTheWordNull() {
        assertThat(encode(map(null, "v"))).isEqualTo("null\1v\2");
    }

    @Test
    void skipsNullValuesButWritesEmptyOnes() {
        assertThat(encode(map("a", null, "k", ""))).isEqualTo("k\1\2");
        assertThat(encode(map("", "v"))).isEqualTo("\1v\2");
    }

    @Test
    void writesSeparatorsInsideKeysAndValuesRaw() {
        assertThat(encode(map("a\2b", "c\1d"))).isEqualTo("a\2b\1c\1d\2");
    }

    @Test
    void followsTheMapsIterationOrder() {
        Map<String, String> hash = new HashMap<>();
        hash.put("UNIQ_KEY", "u");
        hash.put("KEYS", "k");
        hash.put("WAIT", "true");
        StringBuilder expected = new StringBuilder();
        hash.forEach((k, v) -> expected.append(k).append('\1').append(v).append('\2'));
        assertThat(encode(hash)).isEqualTo(expected.toString());
    }

    @Test
    void encodesNonAsciiAndSurrogatesUnchanged() {
        assertThat(encode(map("k\u00e9", "\ud83d\ude00\u4e2d"))).isEqualTo("k\u00e9\1\ud83d\ude00\u4e2d\2");
        assertThat(encode(map("lone", "\ud800"))).isEqualTo("lone\1\ud800\2");
    }

    @Test
    void encodesLongValuesPastAnyBuffer() {
        String big = "x".repeat(100_000);
        assertThat(encode(map("k", big))).isEqualTo("k\1" + big + "\2");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void failsOnNonStringKeyWithClassCastException() {
        Map raw = new HashMap();
        raw.put(7, "v");
        assertThatThrownBy(() -> encode(raw)).isInstanceOf(ClassCastException.class);
    }

    @Test
    void parsesNothingFromNullEmptyAndSeparatorOnlyStrings() {
        for (String s : new String[] {null, "", "\1", "\1\2", "\2\2", "\2", "\1\1"}) {
            assertThat(parse(s)).as(Escapes.escape(s)).isEmpty();
        }
    }

    @Test
    void parsesOnePairWithOrWithoutTrailingSeparator() {
        assertThat(parse("a\1b")).containsExactly(Map.entry("a", "b"));
        assertThat(parse("a\1b\2")).containsExactly(Map.entry("a", "b"));
    }

    @Test
    void acceptsEmptyKeyLike490() {
        assertThat(parse("\1b\2")).containsExactly(Map.entry("", "b"));
    }

    @Test
    void dropsEmptyValue() {
        assertThat(parse("a\1\2")).isEmpty();
        assertThat(parse("a\2")).isEmpty();
    }

    @Test
    void dropsValueContainingNameValueSeparatorLike490() {
        assertThat(parse("a\1b\1c\2")).isEmpty();
        assertThat(parse("a\1\1b\2")).isEmpty();
    }

    @Test
    void keepsValueFollowedOnlyByNameValueSeparatorsBecauseSplitDropsTrailingEmptyParts() {
        assertThat(parse("a\1b\1\2")).containsExactly(Map.entry("a", "b"));
        assertThat(parse("a\1b\1\1")).containsExactly(Map.entry("a", "b"));
    }

    @Test
    void lastDuplicateWins() {
        assertThat(parse("a\1b\2a\1c\2")).containsExactly(Map.entry("a", "c"));
    }

    @Test
    void skipsJunkSegments() {
        assertThat(parse("a\1b\2\2c\1d\2")).containsOnly(Map.entry("a", "b"), Map.entry("c", "d"));
        assertThat(parse("\2a\1b")).containsExactly(Map.entry("a", "b"));
        assertThat(parse("k\1v\2x")).containsExactly(Map.entry("k", "v"));
        assertThat(parse("abc\2d\1e\2")).containsExactly(Map.entry("d", "e"));
    }

    @Test
    void returnsAFreshMutableHashMapEveryCall() {
        Map<String, String> first = parse("a\1b\2");
        Map<String, String> second = parse("a\1b\2");
        assertThat(first).isExactlyInstanceOf(HashMap.class).isNotSameAs(second);
        first.put("CLUSTER", "DefaultCluster");
        assertThat(second).doesNotContainKey("CLUSTER");
        assertThat(parse(null)).isExactlyInstanceOf(HashMap.class);
    }

    @Test
    void roundTripsWhatA490BrokerPersists() {
        String stored = "KEYS\1OrderID188\2UNIQ_KEY\1" + "7F0000010B5718B4AAC2170C8D500000"
            + "\2CLUSTER\1DefaultCluster\2WAIT\1true\2TAGS\1TagA\2";
        Map<String, String> parsed = parse(stored);
        assertThat(parsed).containsOnly(Map.entry("KEYS", "OrderID188"),
            Map.entry("UNIQ_KEY", "7F0000010B5718B4AAC2170C8D500000"), Map.entry("CLUSTER", "DefaultCluster"),
            Map.entry("WAIT", "true"), Map.entry("TAGS", "TagA"));
        assertThat(encode(parsed).length()).isEqualTo(stored.length());
    }
}
