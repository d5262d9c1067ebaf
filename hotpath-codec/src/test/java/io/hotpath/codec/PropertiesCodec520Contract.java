package io.hotpath.codec;

import static io.hotpath.codec.PropertiesCodec490Contract.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the 5.2.0+ properties codec does (5.3.3 is the oracle): 4.9.0's string on encode, 4.9.1's rules on
 * parse, into a {@code HashMap} of 128 buckets (docs/upstream-behavior.md, section 1.3). Runs against the real
 * 5.3.3 jar ({@link Upstream533ContractTest}) and against {@link PropertiesCodec520}.
 */
public abstract class PropertiesCodec520Contract {

    protected abstract PropertiesCodecImpl codec();

    @Test
    void writesTrailingSeparatorLike520() {
        assertThat(codec().encode(map("k", "v"))).isEqualTo("k\1v\2");
        assertThat(codec().encode(map("a", "x", "b", "y"))).isEqualTo("a\1x\2b\1y\2");
        assertThat(codec().encode(map("k", ""))).isEqualTo("k\1\2");
        assertThat(codec().encode(map("", "v"))).isEqualTo("\1v\2");
    }

    @Test
    void writesNullKeyAsTheWordNullAndSkipsNullValues() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("KEYS", "k");
        m.put("WAIT", "true");
        m.put(null, "v");
        m.put("NULLV", null);
        m.put("", "emptykey");
        m.put("EV", "");
        assertThat(codec().encode(m)).isEqualTo("KEYS\1k\2WAIT\1true\2null\1v\2\1emptykey\2EV\1\2");
    }

    @Test
    void encodesNullEmptyAndAllNullValuesAsEmptyString() {
        assertThat(codec().encode(null)).isEmpty();
        assertThat(codec().encode(new HashMap<>())).isEmpty();
        assertThat(codec().encode(map("a", null, "b", null))).isEmpty();
    }

    @Test
    void writesSeparatorsInsideKeysAndValuesRaw() {
        assertThat(codec().encode(map("a\2b", "c\1d"))).isEqualTo("a\2b\1c\1d\2");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void failsOnNonStringKeyWithClassCastException() {
        Map raw = new HashMap();
        raw.put(7, "v");
        assertThatThrownBy(() -> codec().encode(raw)).isInstanceOf(ClassCastException.class);
    }

    @Test
    void dropsEmptyKeyAndEmptyValueLike491() {
        assertThat(codec().parse("\1b\2")).isEmpty();
        assertThat(codec().parse("a\1\2")).isEmpty();
        assertThat(codec().parse("ab\1")).isEmpty();
    }

    @Test
    void keepsNameValueSeparatorsInsideValuesLike491() {
        assertThat(codec().parse("a\1b\1c\2")).containsExactly(Map.entry("a", "b\1c"));
        assertThat(codec().parse("a\1\1")).containsExactly(Map.entry("a", "\1"));
    }

    @Test
    void skipsSegmentWhoseFirstNameValueSeparatorIsInALaterSegment() {
        assertThat(codec().parse("ab\2c\1d")).containsExactly(Map.entry("c", "d"));
        assertThat(codec().parse("abcd\2x\1y\2")).containsExactly(Map.entry("x", "y"));
    }

    @Test
    void parsesLikeEveryReleaseOnWellFormedInput() {
        for (String s : new String[] {null, "", "\1", "\1\2", "\2\2", "a\2"}) {
            assertThat(codec().parse(s)).as(Escapes.escape(s)).isEmpty();
        }
        assertThat(codec().parse("a\1b")).containsExactly(Map.entry("a", "b"));
        assertThat(codec().parse("a\1b\2a\1c")).containsExactly(Map.entry("a", "c"));
        assertThat(codec().parse("\2\2a\1b\2\2")).containsExactly(Map.entry("a", "b"));
        assertThat(codec().parse("k\1v\2x")).containsExactly(Map.entry("k", "v"));
    }

    @Test
    void parsesIntoAFreshMutableHashMapOf128Buckets() {
        Map<String, String> first = codec().parse("a\1b");
        assertThat(first).isExactlyInstanceOf(HashMap.class).isNotSameAs(codec().parse("a\1b"));
        assertThat(Outcome.capacity(first)).isEqualTo(128);
        first.put("x", "y");
        assertThat(first).hasSize(2);
        // HashMap allocates its table at the first put: an empty result has none yet, as upstream's
        assertThat(Outcome.capacity(codec().parse(null))).isZero();
        assertThat(Outcome.capacity(codec().parse("junk"))).isZero();
    }

    @Test
    void growsTo256BucketsPast96EntriesLikeAHashMapOf128() {
        assertThat(Outcome.capacity(codec().parse(entries(96)))).isEqualTo(128);
        assertThat(Outcome.capacity(codec().parse(entries(97)))).isEqualTo(256);
    }

    private static String entries(int count) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < count; i++) {
            s.append('k').append(i).append('\1').append('v').append('\2');
        }
        return s.toString();
    }

    /** The order every re-serialisation of a parsed map writes: 128 buckets, filled in input order. */
    @Test
    void iteratesAndReencodesInTheOrderOfAHashMapOf128FilledInInputOrder() {
        String stored = "KEYS\1OrderID188\2UNIQ_KEY\1C0A8010100002A9F0000000000000000\2WAIT\1true\2TAGS\1TagA\2"
            + "CLUSTER\1DefaultCluster\2MSG_REGION\1DefaultRegion\2TRACE_ON\1true\2MIN_OFFSET\1" + "0\2MAX_OFFSET\1" + "7\2";
        Map<String, String> expected = new HashMap<>(128);
        for (String segment : stored.split("\2")) {
            String[] kv = segment.split("\1");
            expected.put(kv[0], kv[1]);
        }
        Map<String, String> parsed = codec().parse(stored);
        assertThat(entries(parsed)).isEqualTo(entries(expected));
        assertThat(codec().encode(parsed)).isEqualTo(codec().encode(expected)).hasSize(stored.length());
    }

    private static List<String> entries(Map<String, String> map) {
        List<String> list = new ArrayList<>();
        map.forEach((k, v) -> list.add(k + "=" + v));
        return list;
    }
}
