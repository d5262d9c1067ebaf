package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * hotpath-line-4.9.8's send-header suites (the contract cases and the jqwik differential, jqwik.tries.default cases per
 * property: >= 100,000 in CI) run against the PATCHED 4.9.8 broker: loaded by {@link PatchedBrokerLoader} over the
 * patched distribution's lib/, with {@code -Dhotpath.candidate=broker}, so that {@code SendMessageProcessor} /
 * {@code ReplyMessageProcessor#parseRequestHeader} and the {@code SendHeaderDecoder498} they call are those patch 0002
 * put into the patched rocketmq-broker jar. The oracle is 4.9.8's own decoding ({@code decodeCommandCustomHeader} of the
 * rocketmq-remoting jar, which no patch touches) with 4.9.8's parseRequestHeader switch restated in the suite.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.8")
class PatchedBroker498SendHeaderSuitesTest {

    static final List<String> SUITES = List.of(
        "io.hotpath.codec.header.SendHeaderDecoder498ContractTest",
        "io.hotpath.codec.header.SendHeaderDecoder498DifferentialTest");

    @Test
    void theDecoderTheSuitesTestIsThePatchedBrokers() throws Exception {
        PatchedBrokerLoader loader = PatchedBrokerLoader.get();
        for (String name : List.of("io.hotpath.codec.header.SendHeaderDecoder498",
            "org.apache.rocketmq.broker.processor.SendMessageProcessor")) {
            assertThat(loader.load(name).getProtectionDomain().getCodeSource().getLocation().getPath()).as(name)
                .isEqualTo(loader.lib.resolve("rocketmq-broker-4.9.8.jar").toUri().getPath());
        }
    }

    @Test
    void sendHeaderSuitesPassAgainstThePatchedBrokerProcessors() {
        BrokerCandidateSuites.assertPass(PatchedBrokerLoader.get(), SUITES, 10);
    }
}
