package io.hotpath.dist;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * hotpath-codec's send-header suites (contract, differential properties, field coverage) run
 * against the PATCHED broker: the suites' classes are loaded by {@link PatchedBrokerLoader}, so
 * {@code SendMessageProcessor}/{@code ReplyMessageProcessor} and the {@code SendHeaderDecoder} they
 * call are those of the patched distribution's lib/, with {@code -Dhotpath.candidate=broker}.
 * The oracle is 4.9.0 reflection ({@code RemotingCommand#decodeCommandCustomHeader} of the
 * rocketmq-remoting jar, which no patch touches) with 4.9.0's parseRequestHeader switch restated in
 * the suite, independent of the broker jar. {@link TestedSendHeaderProvenanceTest} pins down which
 * classes ran. jqwik.tries.default generated cases per property (hotpath.dist.tries: 100,000; 2,000 in CI, see the pom).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
class PatchedBrokerSendHeaderSuitesTest {

    /** The suites, as hotpath-codec names them; with candidate=broker each tests the patched processors. */
    static final List<String> SUITES = List.of(
        "io.hotpath.codec.header.SendHeaderDecoderContractTest",
        "io.hotpath.codec.header.BrokerSendHeaderContractTest",
        "io.hotpath.codec.header.SendHeaderDecoderDifferentialTest",
        // ours as the patch put it into the broker jar: it sets every field reflection sets
        "io.hotpath.codec.header.SendHeaderDecoderFieldCoverageTest",
        // the same contract passes on 4.9.0 reflection itself, in this loader too
        "io.hotpath.codec.header.Upstream490SendHeaderContractTest");

    @Test
    void sendHeaderSuitesPassAgainstThePatchedBrokerProcessors() {
        BrokerCandidateSuites.assertPass(PatchedBrokerLoader.get(), SUITES, 50);
    }
}
