package io.hotpath.jmh.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Map;

import io.hotpath.jmh.PropertiesCorpus;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/** The parse floors build upstream's map (content and order) on the corpora, and refuse inputs they would get wrong. */
class ParseFloorTest {

    @Test
    void bothFloorsBuildUpstreamsMapOnEveryCorpusString() {
        for (String corpus : new String[] {PropertiesCorpus.SMALL5, PropertiesCorpus.LARGE12}) {
            String[] strings = PropertiesCorpus.persistedStrings(corpus);
            ParseFloor floor = new ParseFloor(strings);
            for (int i = 0; i < strings.length; i++) {
                Map<String, String> upstream = MessageDecoder.string2messageProperties(strings[i]);
                assertSameMap(floor.noScan(i), upstream);
                assertSameMap(floor.findSeparators(i), upstream);
            }
        }
    }

    @Test
    void refusesAJunkSegment() {
        // "junk" has no \1: upstream skips it, and the floors' given-for-free layout cannot describe it
        assertThatThrownBy(() -> new ParseFloor(new String[] {"KEYS\1k\2junk\2TAGS\1t\2"}))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("floor: a junk segment in ");
    }

    @Test
    void refusesAStringWhereFindingSeparatorsIsNotEnough() {
        // 4.9.0 drops a value with an inner \1; findSeparators does not check for it
        assertThatThrownBy(() -> new ParseFloor(new String[] {"KEYS\1k\2TAGS\1a\1b\2"}))
            .isInstanceOf(IllegalStateException.class);
    }

    private static void assertSameMap(Map<String, String> actual, Map<String, String> expected) {
        assertThat(actual).isEqualTo(expected);
        assertThat(new ArrayList<>(actual.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
    }
}
