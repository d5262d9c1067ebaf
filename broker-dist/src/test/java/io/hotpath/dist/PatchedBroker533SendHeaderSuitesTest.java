package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * hotpath-line-5.3.3's send-header suites (the contract cases and the jqwik differential, jqwik.tries.default cases per
 * property: >= 100,000 in CI) run against the PATCHED broker of a line whose 0002 carries {@code SendHeaderDecoder533}
 * (5.3.3, and 5.5.1, which decodes these headers as 5.3.3 does): loaded by {@link PatchedBrokerLoader} over the patched
 * distribution's lib/, with {@code -Dhotpath.candidate=broker}, so that {@code SendMessageProcessor} /
 * {@code ReplyMessageProcessor#parseRequestHeader} and the {@code SendHeaderDecoder533} they call are those patch 0002
 * put into the patched rocketmq-broker jar. The oracle is the STOCK distribution's own processors: the suites load its
 * rocketmq-broker jar (upstream's build of the unpatched tree) in a class loader of their own, child-first for the broker's
 * classes, over this loader's remoting (which no patch touches), so upstream's {@code parseRequestHeader} switches run as
 * upstream's bytecode.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class PatchedBroker533SendHeaderSuitesTest {

    static final String STOCK_BROKER_JAR = "hotpath.upstream.broker.jar";

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
    void theOracleIsTheStockDistributionsBrokerJar() throws Exception {
        Path stock = stockBrokerJar();
        Path patched = PatchedBrokerLoader.get().lib.resolve(stock.getFileName());
        assertThat(stock).isRegularFile();
        assertThat(Files.mismatch(stock, patched)).as("the stock and the patched rocketmq-broker jar differ").isNotEqualTo(-1L);
    }

    /** The stock distribution's rocketmq-broker jar, the suites' oracle (SendHeaderParser533.STOCK_BROKER_JAR). */
    static Path stockBrokerJar() {
        return BuiltDistributions.stock().resolve("lib").resolve("rocketmq-broker-" + BuiltDistributions.line().release() + ".jar");
    }

    @Test
    void sendHeaderSuitesPassAgainstThePatchedBrokerProcessors() {
        BrokerCandidateSuites.assertPass(PatchedBrokerLoader.get(), SUITES, 10, Map.of(STOCK_BROKER_JAR, stockBrokerJar().toString()));
    }
}
