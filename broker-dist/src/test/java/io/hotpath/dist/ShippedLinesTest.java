package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Properties;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/** The lines this checkout ships: their descriptors load, and name the oracle broker-dist's suites use. */
class ShippedLinesTest {

    @Test
    void theOracleTheSuitesUseIsTheOneTheDescriptorNames() throws IOException {
        // broker-dist's suites compare the patched classes with the stock org.apache.rocketmq jars on this
        // classpath: they must be the release the line's descriptor names as its oracle
        Properties pom = new Properties();
        try (InputStream in = MessageDecoder.class.getResourceAsStream(
            "/META-INF/maven/org.apache.rocketmq/rocketmq-common/pom.properties")) {
            assertThat(in).as("rocketmq-common's pom.properties on the test classpath").isNotNull();
            pom.load(in);
        }
        assertThat(BuiltDistributions.line().oracleVersion()).isEqualTo(pom.getProperty("version"));
    }

    @Test
    void everyShippedLineLoadsAndEveryPatchCarriesOnlyListedFiles() {
        for (ReleaseLine line : ReleaseLine.all(BuiltDistributions.projectRoot().resolve("patches"))) {
            assertThat(PatchSeries.read(line.dir()).patches()).as(line.release()).isNotEmpty();
            assertThat(line.carries().keySet()).as("carries of %s name its patch files", line.release())
                .allMatch(name -> Files.isRegularFile(line.dir().resolve(name)));
            if (line.tree().assembled()) {
                // Central publishes no test sources: the descriptor must say whose tests the tree runs
                assertThat(line.tree().deviations()).as("deviations of the assembled %s tree", line.release()).containsKey("tests");
            }
            assertThat(line.testedModules()).as(line.release()).isNotEmpty();
        }
    }
}
