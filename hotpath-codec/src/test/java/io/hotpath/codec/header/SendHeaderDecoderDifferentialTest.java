package io.hotpath.codec.header;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The candidate (ours; 4.9.0 reflection itself with -Dhotpath.candidate=upstream; the broker
 * processors on the classpath with -Dhotpath.candidate=broker) against 4.9.0 reflection on
 * generated extFields maps: the returned
 * header (every field up the hierarchy and every getter), the exception (type and message) and
 * the lines logged must be equal. jqwik.tries.default generated maps per property (>= 100,000 in CI).
 */
class SendHeaderDecoderDifferentialTest {

    private final SendHeaderDecoderImpl candidate = SendHeaderDecoderImpl.candidate();
    private final SendHeaderDecoderImpl oracle = SendHeaderDecoderImpl.reflection490();
    private final SendHeaderDecoderImpl broker = SendHeaderDecoderImpl.brokerOnClasspath();

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

    /** Also checks the broker processors on the classpath (stock 4.9.0 here, patched in broker-dist) against the oracle. */
    @Property
    void parsesSendAndReplyRequestsLikeThe490Broker(@ForAll("requestCodes") int code,
                                                   @ForAll("anyExtFields") HashMap<String, String> extFields) {
        DecodeOutcome expectedSend = DecodeOutcome.of(() -> oracle.parseRequestHeader(SendHeaderDecoderImpl.request(code, extFields)));
        DecodeOutcome expectedReply = DecodeOutcome.of(() -> oracle.parseReplyRequestHeader(SendHeaderDecoderImpl.request(code, extFields)));
        for (SendHeaderDecoderImpl impl : new SendHeaderDecoderImpl[] {candidate, broker}) {
            assertThat(DecodeOutcome.of(() -> impl.parseRequestHeader(SendHeaderDecoderImpl.request(code, extFields))))
                .as(() -> impl + " vs " + oracle + ": SendMessageProcessor, code " + code + ", " + DecodeOutcome.describeExtFields(extFields))
                .isEqualTo(expectedSend);
            assertThat(DecodeOutcome.of(() -> impl.parseReplyRequestHeader(SendHeaderDecoderImpl.request(code, extFields))))
                .as(() -> impl + " vs " + oracle + ": ReplyMessageProcessor, code " + code + ", " + DecodeOutcome.describeExtFields(extFields))
                .isEqualTo(expectedReply);
        }
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
