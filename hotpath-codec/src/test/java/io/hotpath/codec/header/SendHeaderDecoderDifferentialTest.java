package io.hotpath.codec.header;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The candidate (ours; or 4.9.0 reflection itself with -Dhotpath.candidate=upstream) against
 * 4.9.0 reflection and the 4.9.0 broker processors on generated extFields maps: the returned
 * header (every field up the hierarchy and every getter), the exception (type and message) and
 * the lines logged must be equal. jqwik.tries.default generated maps per property (>= 100,000 in CI).
 */
class SendHeaderDecoderDifferentialTest {

    private final SendHeaderDecoderImpl candidate = SendHeaderDecoderImpl.candidate();
    private final SendHeaderDecoderImpl oracle = SendHeaderDecoderImpl.reflection490();

    @Property
    void decodesV2LikeReflection(@ForAll("v2ExtFields") HashMap<String, String> extFields) {
        assertThat(DecodeOutcome.of(() -> candidate.decodeV2(extFields)))
            .as(() -> candidate + " vs " + oracle + " decoding V2 from " + DecodeOutcome.describeExtFields(extFields))
            .isEqualTo(DecodeOutcome.of(() -> oracle.decodeV2(extFields)));
    }

    @Property
    void decodesV1LikeReflection(@ForAll("v1ExtFields") HashMap<String, String> extFields) {
        assertThat(DecodeOutcome.of(() -> candidate.decodeV1(extFields)))
            .as(() -> candidate + " vs " + oracle + " decoding V1 from " + DecodeOutcome.describeExtFields(extFields))
            .isEqualTo(DecodeOutcome.of(() -> oracle.decodeV1(extFields)));
    }

    @Property
    void parsesSendAndReplyRequestsLikeThe490Broker(@ForAll("requestCodes") int code,
                                                   @ForAll("anyExtFields") HashMap<String, String> extFields) {
        assertThat(DecodeOutcome.of(() -> candidate.parseRequestHeader(SendHeaderDecoderImpl.request(code, extFields))))
            .as(() -> candidate + " vs " + oracle + ": SendMessageProcessor, code " + code + ", " + DecodeOutcome.describeExtFields(extFields))
            .isEqualTo(DecodeOutcome.of(() -> oracle.parseRequestHeader(SendHeaderDecoderImpl.request(code, extFields))));
        assertThat(DecodeOutcome.of(() -> candidate.parseReplyRequestHeader(SendHeaderDecoderImpl.request(code, extFields))))
            .as(() -> candidate + " vs " + oracle + ": ReplyMessageProcessor, code " + code + ", " + DecodeOutcome.describeExtFields(extFields))
            .isEqualTo(DecodeOutcome.of(() -> oracle.parseReplyRequestHeader(SendHeaderDecoderImpl.request(code, extFields))));
    }

    @Provide
    Arbitrary<HashMap<String, String>> v2ExtFields() {
        return SendHeaderArbitraries.v2ExtFields();
    }

    @Provide
    Arbitrary<HashMap<String, String>> v1ExtFields() {
        return SendHeaderArbitraries.v1ExtFields();
    }

    @Provide
    Arbitrary<HashMap<String, String>> anyExtFields() {
        return SendHeaderArbitraries.anyExtFields();
    }

    @Provide
    Arbitrary<Integer> requestCodes() {
        return SendHeaderArbitraries.requestCodes();
    }
}
