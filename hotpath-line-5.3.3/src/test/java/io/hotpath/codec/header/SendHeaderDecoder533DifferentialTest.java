package io.hotpath.codec.header;

import static io.hotpath.codec.header.SendHeaderParser533.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Ours against upstream 5.3.3 ({@link SendHeaderParser533}) on generated requests: every send and reply code (and
 * others), extFields with 5.3.3's V2 keys (a-n), its V1 names (the RPC-layer ns, nsd, bname, oway, lo included) or
 * both, biased to what breaks decoders (hotpath-codec's {@link SendHeaderArbitraries}). The returned header (every
 * field up the hierarchy and every getter), the exception (type and message) and the lines logged must be equal, for
 * the send and the reply processor. jqwik.tries.default cases per property (>= 100,000 in CI).
 */
class SendHeaderDecoder533DifferentialTest {

    /** 5.3.3's SendMessageRequestHeaderV2 fields in decode order. */
    private static final String[] V2_NAMES = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"};
    private static final SendHeaderArbitraries.Kind[] V2_KINDS = kinds("SSSIIILISIBIBS");
    /** 5.3.3's SendMessageRequestHeader fields, then those of its superclasses TopicRequestHeader and RpcRequestHeader. */
    private static final String[] V1_NAMES = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId", "sysFlag",
        "bornTimestamp", "flag", "properties", "reconsumeTimes", "unitMode", "batch", "maxReconsumeTimes", "lo", "ns", "nsd", "bname",
        "oway"};
    private static final SendHeaderArbitraries.Kind[] V1_KINDS = kinds("SSSIIILISIBBIBSBSB");

    @Property
    void parsesSendAndReplyRequestsLike533(@ForAll("requestCodes") int code, @ForAll("extFields") HashMap<String, String> extFields) {
        for (boolean reply : new boolean[] {false, true}) {
            assertThat(outcome(SendHeaderParser533.candidate(), reply, code, extFields))
                .as(() -> (reply ? "reply" : "send") + " processor, code " + code + ", " + DecodeOutcome.describeExtFields(extFields))
                .isEqualTo(outcome(SendHeaderParser533.UPSTREAM, reply, code, extFields));
        }
    }

    @Provide
    Arbitrary<Integer> requestCodes() {
        return SendHeaderArbitraries.requestCodes();
    }

    @Provide
    Arbitrary<HashMap<String, String>> extFields() {
        return SendHeaderArbitraries.v2OrV1OrBoth(SendHeaderArbitraries.extFields(V2_NAMES, V2_KINDS, V1_NAMES),
            SendHeaderArbitraries.extFields(V1_NAMES, V1_KINDS, V2_NAMES));
    }

    /** S string, I integer, L long, B boolean, one letter per field. */
    private static SendHeaderArbitraries.Kind[] kinds(String letters) {
        SendHeaderArbitraries.Kind[] kinds = new SendHeaderArbitraries.Kind[letters.length()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = switch (letters.charAt(i)) {
                case 'S' -> SendHeaderArbitraries.Kind.STRING;
                case 'I' -> SendHeaderArbitraries.Kind.INTEGER;
                case 'L' -> SendHeaderArbitraries.Kind.LONG;
                case 'B' -> SendHeaderArbitraries.Kind.BOOLEAN;
                default -> throw new IllegalArgumentException("unknown kind letter " + letters.charAt(i));
            };
        }
        return kinds;
    }
}
