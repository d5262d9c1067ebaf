package io.hotpath.lines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A release line's descriptor: what the tooling reads from it, and the mistakes it refuses. */
class ReleaseLineTest {

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
        assertThat(ReleaseLine.newest(patches).release()).isEqualTo("5.3.3");
        assertThat(ReleaseLine.resolve(null, patches).release()).isEqualTo("5.3.3");
        assertThat(ReleaseLine.resolve("4.9.10", patches).release()).isEqualTo("4.9.10");
    }

    @Test
    void aPartialLineIsBuiltWhenNamedButNeverTheDefault(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.0"), descriptor("4.9.0"));
        write(patches.resolve("4.9.8"), "complete=false\n" + descriptor("4.9.8"));
        assertThat(ReleaseLine.load(patches.resolve("4.9.0")).complete()).isTrue();
        assertThat(ReleaseLine.load(patches.resolve("4.9.8")).complete()).isFalse();
        assertThat(ReleaseLine.all(patches)).extracting(ReleaseLine::release).containsExactly("4.9.0", "4.9.8");
        assertThat(ReleaseLine.newest(patches).release()).isEqualTo("4.9.0");
        assertThat(ReleaseLine.resolve(null, patches).release()).isEqualTo("4.9.0");
        assertThat(ReleaseLine.resolve("4.9.8", patches).complete()).isFalse();

        write(patches.resolve("4.9.0"), "complete=false\n" + descriptor("4.9.0"));
        assertThatThrownBy(() -> ReleaseLine.newest(patches)).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("no complete release line");
        write(patches.resolve("4.9.0"), "complete=maybe\n" + descriptor("4.9.0"));
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0"))).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("complete must be true or false, got maybe");
    }

    @Test
    void upstreamBuildPropertiesAreReadByName(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.8"), descriptor("4.9.8") + "upstream.build.property.maven.compiler.source=1.8\n"
            + "upstream.build.property.maven.compiler.target = 1.8 \n");
        assertThat(ReleaseLine.load(patches.resolve("4.9.8")).buildProperties())
            .containsExactly(java.util.Map.entry("maven.compiler.source", "1.8"), java.util.Map.entry("maven.compiler.target", "1.8"));
        write(patches.resolve("4.9.0"), descriptor("4.9.0"));
        assertThat(ReleaseLine.load(patches.resolve("4.9.0")).buildProperties()).isEmpty();
    }

    @Test
    void anUnknownLineNamesTheKnownOnes(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.0"), descriptor("4.9.0"));
        assertThatThrownBy(() -> ReleaseLine.resolve("4.9.9", patches)).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("unknown release line '4.9.9'; known lines: 4.9.0");
        assertThatThrownBy(() -> ReleaseLine.newest(patches.resolve("none"))).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("no release line in");
    }

    @Test
    void refusesAKeySetTwice(@TempDir Path patches) throws IOException {
        String key = "upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/config/MessageStoreConfig.java";
        write(patches.resolve("4.9.0"), descriptor("4.9.0") + key + "=a.ATest\n" + key + "=b.BTest\n");
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0"))).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining(key + " is set twice");
    }

    @Test
    void refusesAFolderNamedOtherThanItsRelease(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.8"), descriptor("4.9.0"));
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.8")))
            .isInstanceOf(ReleaseLineException.class).hasMessageContaining("declares release=4.9.0 but lives in folder 4.9.8");
    }

    @Test
    void refusesAMissingKeyOrAMalformedCarriesLine(@TempDir Path patches) throws IOException {
        write(patches.resolve("4.9.0"), descriptor("4.9.0").replace("upstream.tests.modules=common\n", ""));
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0")))
            .isInstanceOf(ReleaseLineException.class).hasMessageContaining("missing upstream.tests.modules");

        write(patches.resolve("4.9.0"), descriptor("4.9.0") + "carries.0001-x.patch=common hotpath-codec io/A.java\n");
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0")))
            .isInstanceOf(ReleaseLineException.class).hasMessageContaining("must read '<upstream module> <- <our module> : <files>'");
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

    @Test
    void readsTheCiTestListsTheTestsOfEachEditedFileAndTheKnownFlakyTests(@TempDir Path patches) throws IOException {
        write(patches.resolve("5.3.3"), descriptor("5.3.3").replace("upstream.tests.modules=common\n",
                "upstream.tests.modules=common,store,broker\n")
            + "upstream.tests.ci.broker=org.x.broker.BTest\n"
            + "upstream.tests.ci.store=\\\n  org.x.store.ATest \\\n  org.x.store.queue.ATest,org.x.store.CTest\n"
            + "upstream.tests.exercising.store/src/main/java/org/x/store/A.java=org.x.store.ATest org.x.store.queue.ATest\n"
            + "upstream.tests.known.flaky.org.x.store.CTest#slow=a 5 ms sleep\n");
        ReleaseLine line = ReleaseLine.load(patches.resolve("5.3.3"));
        // in upstream.tests.modules order; common lists none
        assertThat(line.ciTests()).containsExactly(
            java.util.Map.entry("store", java.util.List.of("org.x.store.ATest", "org.x.store.queue.ATest", "org.x.store.CTest")),
            java.util.Map.entry("broker", java.util.List.of("org.x.broker.BTest")));
        assertThat(line.testsOfEditedFiles()).containsExactly(java.util.Map.entry("store/src/main/java/org/x/store/A.java",
            java.util.List.of("org.x.store.ATest", "org.x.store.queue.ATest")));
        assertThat(line.knownFlaky()).containsExactly(java.util.Map.entry("org.x.store.CTest#slow", "a 5 ms sleep"));

        write(patches.resolve("4.9.0"), descriptor("4.9.0") + "upstream.tests.ci.remoting=org.x.RTest\n");
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0"))).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("upstream.tests.ci.remoting names a module that upstream.tests.modules does not list");
        write(patches.resolve("4.9.0"), descriptor("4.9.0") + "upstream.tests.ci.common=ATest\n");
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0"))).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("'ATest' is not a fully qualified class name");
        write(patches.resolve("4.9.0"), descriptor("4.9.0") + "upstream.tests.known.flaky.org.x.ATest=\n");
        assertThatThrownBy(() -> ReleaseLine.load(patches.resolve("4.9.0"))).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("missing upstream.tests.known.flaky.org.x.ATest");
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
