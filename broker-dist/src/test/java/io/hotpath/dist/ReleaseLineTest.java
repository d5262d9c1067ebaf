package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A release line's descriptor: what the tooling reads from it, and the mistakes it refuses. */
class ReleaseLineTest {

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
            assertThat(line.patches().patches()).as(line.release()).isNotEmpty();
            assertThat(line.carries().keySet()).as("carries of %s name its patch files", line.release())
                .allMatch(name -> Files.isRegularFile(line.dir().resolve(name)));
            assertThat(line.testedModules()).as(line.release()).isNotEmpty();
        }
    }

    @Test
    void versionsCompareNumericallyPartByPart() {
        assertThat(ReleaseLine.compareVersions("4.9.10", "4.9.8")).isPositive();
        assertThat(ReleaseLine.compareVersions("5.3.3", "4.9.8")).isPositive();
        assertThat(ReleaseLine.compareVersions("4.9.0", "4.9.0")).isZero();
        assertThat(ReleaseLine.compareVersions("4.9", "4.9.0")).isZero();
    }

    @Test
    void linesAreListedOldestFirst(@TempDir Path patches) throws IOException {
        for (String release : new String[] {"5.3.3", "4.9.10", "4.9.8"}) {
            write(patches.resolve(release), descriptor(release));
        }
        assertThat(ReleaseLine.all(patches)).extracting(ReleaseLine::release).containsExactly("4.9.8", "4.9.10", "5.3.3");
    }

    @Test
    void refusesAFolderNamedOtherThanItsRelease(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.8"), descriptor("4.9.0"));
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.8")))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("declares release=4.9.0 but lives in folder 4.9.8");
    }

    @Test
    void refusesAMissingKeyOrAMalformedCarriesLine(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.0"), descriptor("4.9.0").replace("upstream.tests.modules=common\n", ""));
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0")))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("missing upstream.tests.modules");

        write(patches.resolve("4.9.0"), descriptor("4.9.0") + "carries.0001-x.patch=common hotpath-codec io/A.java\n");
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0")))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("must read '<upstream module> <- <our module> : <files>'");
    }

    @Test
    void readsCarriesAndStockFailures(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.0"), descriptor("4.9.0")
            + "carries.0001-x.patch=common <- hotpath-codec : io/hotpath/codec/A.java io/hotpath/codec/B.java\n"
            + "stock.failure.org.example.SomeTest=fails here because of X\n");
        ReleaseLine line = ReleaseLine.load(patches.resolve("4.9.0"));
        ReleaseLine.Carried carried = line.carries().get("0001-x.patch");
        assertThat(carried.upstreamModule()).isEqualTo("common");
        assertThat(carried.ourModule()).isEqualTo("hotpath-codec");
        assertThat(carried.upstreamPath("io/hotpath/codec/A.java")).isEqualTo("common/src/main/java/io/hotpath/codec/A.java");
        assertThat(carried.files()).containsExactly("io/hotpath/codec/A.java", "io/hotpath/codec/B.java");
        assertThat(line.stockFailures()).containsEntry("org.example.SomeTest", "fails here because of X");
        assertThat(line.oracleVersion()).isEqualTo("4.9.0");
    }

    private static String descriptor(String release) {
        return "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\n"
            + "upstream.tests.modules=common\n";
    }

    private static void write(Path dir, String descriptor) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), descriptor, StandardCharsets.UTF_8);
    }
}
