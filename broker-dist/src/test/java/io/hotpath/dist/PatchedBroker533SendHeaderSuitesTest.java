package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * hotpath-line-5.3.3's send-header suites (the contract cases and the jqwik differential, jqwik.tries.default cases per
 * property: >= 100,000 in CI) run against the PATCHED broker of a line whose 0002 carries {@code SendHeaderDecoder533}
 * (5.3.3, and 5.5.1, which decodes these headers as 5.3.3 does): loaded by {@link PatchedBrokerLoader} over the patched
 * distribution's lib/, with {@code -Dhotpath.candidate=broker}, so that {@code SendMessageProcessor} /
 * {@code ReplyMessageProcessor#parseRequestHeader} and the {@code SendHeaderDecoder533} they call are those patch 0002
 * put into the patched rocketmq-broker jar. The oracle is the line's own decoding ({@code decodeCommandCustomHeader} of
 * its rocketmq-remoting jar, which no patch touches) with the parseRequestHeader switches restated in the suite.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class PatchedBroker533SendHeaderSuitesTest {

    static final List<String> SUITES = List.of(
        "io.hotpath.codec.header.SendHeaderDecoder533ContractTest",
        "io.hotpath.codec.header.SendHeaderDecoder533DifferentialTest");

    @Test
    void theDecoderTheSuitesTestIsThePatchedBrokers() throws Exception {
        PatchedBrokerLoader loader = PatchedBrokerLoader.get();
        for (String name : List.of("io.hotpath.codec.header.SendHeaderDecoder533",
            "org.apache.rocketmq.broker.processor.SendMessageProcessor")) {
            assertThat(loader.load(name).getProtectionDomain().getCodeSource().getLocation().getPath()).as(name)
                .isEqualTo(loader.lib.resolve("rocketmq-broker-" + BuiltDistributions.line().release() + ".jar").toUri().getPath());
        }
    }

    @Test
    void sendHeaderSuitesPassAgainstThePatchedBrokerProcessors() {
        BrokerCandidateSuites.assertPass(PatchedBrokerLoader.get(), SUITES, 10);
    }
}
