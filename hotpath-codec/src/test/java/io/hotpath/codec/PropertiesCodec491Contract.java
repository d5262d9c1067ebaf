package io.hotpath.codec;

import static io.hotpath.codec.PropertiesCodec490Contract.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the 4.9.1 - 4.9.8 properties codec does where it differs from 4.9.0 (and where it does
 * not). Runs against the real 4.9.8 jar and against {@link PropertiesCodec491}.
 */
public abstract class PropertiesCodec491Contract {

    protected abstract PropertiesCodecImpl codec();

    @Test
    void writesNoTrailingSeparatorLike491() {
        assertThat(codec().encode(map("k", "v"))).isEqualTo("k\1v");
        assertThat(codec().encode(map("a", "x", "b", "y"))).isEqualTo("a\1x\2b\1y");
        assertThat(codec().encode(map(null, "v"))).isEqualTo("null\1v");
        assertThat(codec().encode(map("k", ""))).isEqualTo("k\1");
        assertThat(codec().encode(map("", "v"))).isEqualTo("\1v");
        assertThat(codec().encode(map("a", null))).isEmpty();
        assertThat(codec().encode(null)).isEmpty();
    }

    @Test
    void dropsEmptyKeyLike491() {
        assertThat(codec().parse("\1b\2")).isEmpty();
    }

    @Test
    void keepsNameValueSeparatorsInsideValuesLike491() {
        assertThat(codec().parse("a\1b\1c\2")).containsExactly(Map.entry("a", "b\1c"));
        assertThat(codec().parse("a\1\1b\2")).containsExactly(Map.entry("a", "\1b"));
        assertThat(codec().parse("a\1b\1\2")).containsExactly(Map.entry("a", "b\1"));
    }

    @Test
    void skipsSegmentWhoseFirstNameValueSeparatorIsInALaterSegment() {
        assertThat(codec().parse("abc\2d\1e")).containsExactly(Map.entry("d", "e"));
        assertThat(codec().parse("abcd\2x\1y\2")).containsExactly(Map.entry("x", "y"));
    }

    @Test
    void parsesLikeEveryReleaseOnWellFormedInput() {
        for (String s : new String[] {null, "", "\1", "\1\2", "\2\2", "a\1\2", "a\2"}) {
            assertThat(codec().parse(s)).as(Escapes.escape(s)).isEmpty();
        }
        assertThat(codec().parse("a\1b")).containsExactly(Map.entry("a", "b"));
        assertThat(codec().parse("a\1b\2a\1c\2")).containsExactly(Map.entry("a", "c"));
        assertThat(codec().parse("a\1b\2\2c\1d\2")).containsOnly(Map.entry("a", "b"), Map.entry("c", "d"));
        assertThat(codec().parse("k\1v\2x")).containsExactly(Map.entry("k", "v"));
    }

    @Test
    void returnsAFreshMutableHashMapEveryCall() {
        Map<String, String> first = codec().parse("a\1b");
        assertThat(first).isExactlyInstanceOf(HashMap.class).isNotSameAs(codec().parse("a\1b"));
        first.put("x", "y");
        assertThat(first).hasSize(2);
    }
}
