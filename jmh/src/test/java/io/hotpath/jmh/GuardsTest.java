package io.hotpath.jmh;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.codec.PropertiesCodec490;
import io.hotpath.codec.PropertiesCodec491;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/** The guards catch what would make a benchmark compare unequal work; the corpora pass them. */
class GuardsTest {

    private static final String[] LARGE = PropertiesCorpus.persistedStrings(PropertiesCorpus.LARGE12);

    @Test
    void catchesADifferentIterationOrderWithEqualContent() {
        // 5.1.0+ parses into new HashMap<>(128): equal maps, other order than 4.9.0's new HashMap()
        assertThatCode(() -> Guards.requireEqualMaps("5.5.1", LARGE, MessageDecoder::string2messageProperties,
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties))
            .doesNotThrowAnyException();
        assertThatThrownBy(() -> Guards.requireSameMaps("5.5.1", LARGE, MessageDecoder::string2messageProperties,
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("guard failed, 5.5.1 differ on input 0 ");
    }

    @Test
    void catchesADifferentString() {
        assertThatThrownBy(() -> Guards.requireSameStrings("format", PropertiesCorpus.persistedMaps(PropertiesCorpus.SMALL5),
            MessageDecoder::messageProperties2String, PropertiesCodec491::messageProperties2String))
            .hasMessageContaining("\\u0002\n  candidate: ");
    }

    @Test
    void passesHotpathOnBothCorpora() {
        for (String corpus : new String[] {PropertiesCorpus.SMALL5, PropertiesCorpus.LARGE12}) {
            assertThatCode(() -> {
                Guards.requireSameMaps("parse", PropertiesCorpus.persistedStrings(corpus),
                    MessageDecoder::string2messageProperties, PropertiesCodec490::string2messageProperties);
                Guards.requireSameStrings("encode", PropertiesCorpus.persistedMaps(corpus),
                    MessageDecoder::messageProperties2String, PropertiesCodec490::messageProperties2String);
            }).doesNotThrowAnyException();
        }
    }
}
