package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CI runs, for every shipped line, upstream's test classes that exercise each upstream file its patches edit, and the
 * tests its patches edit or add ({@link UpstreamTestCoverage}); fast and offline, for every line whatever line the
 * build assembled. The controls build a line whose descriptor misses each of these, and show the check names it.
 */
class UpstreamTestCoverageTest {

    static Stream<String> shippedLines() {
        return ReleaseLine.all(BuiltDistributions.projectRoot().resolve("patches")).stream().map(ReleaseLine::release);
    }

    private static ReleaseLine shipped(String release) {
        return ReleaseLine.load(BuiltDistributions.projectRoot().resolve("patches").resolve(release));
    }

    @ParameterizedTest(name = "line {0}")
    @MethodSource("shippedLines")
    void everyEditedUpstreamFileHasListedTestsInCiAndEveryPatchedTestIsListed(String release) {
        ReleaseLine line = shipped(release);
        assertThat(line.ciTests()).as("upstream.tests.ci.* of %s", release).isNotEmpty();
        assertThat(UpstreamTestCoverage.problems(line)).as(release).isEmpty();
    }

    @ParameterizedTest(name = "line {0}")
    @MethodSource("shippedLines")
    void everyListedClassExistsAndNamesWhatItExercises(String release) {
        ReleaseLine line = shipped(release);
        Path zip = sourceRelease(release);
        Assumptions.assumeTrue(zip != null, "no source release of " + release + " at hand (Maven copies it in a build of the line)");
        assertThat(UpstreamTestCoverage.problems(line, zip)).as(release).isEmpty();
    }

    @Test
    void readsWhichUpstreamFilesThePatchesEditAndWhichTheyAdd() {
        List<UpstreamTestCoverage.Touched> touched = UpstreamTestCoverage.touched(shipped("5.3.3"));
        assertThat(touched).filteredOn(t -> t.main() && !t.added()).extracting(UpstreamTestCoverage.Touched::className)
            .contains("org.apache.rocketmq.common.message.MessageDecoder", "org.apache.rocketmq.store.MessageExtEncoder",
                "org.apache.rocketmq.broker.metrics.BrokerMetricsManager")
            .doesNotContain("io.hotpath.store.PersistedProperties");
        assertThat(touched).filteredOn(t -> !t.main() && t.added()).extracting(UpstreamTestCoverage.Touched::className)
            .containsExactly("org.apache.rocketmq.broker.processor.HeaderPropertiesTest",
                "org.apache.rocketmq.store.ha.GroupTransferServiceIdleWaitTest",
                "org.apache.rocketmq.store.ha.GroupTransferServiceAckFrontierTest",
                "org.apache.rocketmq.store.ha.HAServerAckFrontierTest",
                "org.apache.rocketmq.broker.processor.SendMessageProcessorInlineAnswerTest");
        assertThat(touched).filteredOn(t -> !t.main() && !t.added()).extracting(UpstreamTestCoverage.Touched::className)
            .contains("org.apache.rocketmq.store.BatchPutMessageTest", "org.apache.rocketmq.broker.metrics.BrokerMetricsManagerTest");
    }

    @Test
    void namesAnEditedFileWithoutTestsAMappedClassOutsideCiAndAPatchedTestOutsideCi(@TempDir Path patches) throws IOException {
        Path dir = Files.createDirectories(patches.resolve("9.9.9"));
        Files.writeString(dir.resolve("0001-store-x.patch"), PATCH, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ReleaseLine.SERIES), "0001-store-x.patch\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), DESCRIPTOR
            + "upstream.tests.ci.store=org.apache.rocketmq.store.CommitLogTest\n"
            + "upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/CommitLog.java="
            + "org.apache.rocketmq.store.CommitLogTest org.apache.rocketmq.store.OtherTest\n"
            + "upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/Gone.java=org.apache.rocketmq.store.CommitLogTest\n",
            StandardCharsets.UTF_8);
        assertThat(UpstreamTestCoverage.problems(ReleaseLine.load(dir))).containsExactlyInAnyOrder(
            "org.apache.rocketmq.store.OtherTest exercises store/src/main/java/org/apache/rocketmq/store/CommitLog.java but is not in"
                + " upstream.tests.ci.store",
            "store/src/main/java/org/apache/rocketmq/store/Encoder.java is edited by a patch, and upstream.tests.exercising."
                + "store/src/main/java/org/apache/rocketmq/store/Encoder.java names no test",
            "org.apache.rocketmq.store.AddedTest is added by a patch but is not in upstream.tests.ci.store",
            "org.apache.rocketmq.store.EditedTest is edited by a patch but is not in upstream.tests.ci.store",
            "upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/Gone.java names a file no patch edits");
    }

    @Test
    void anAssembledTreeMaySayWhyAnEditedFileHasNoTestButOnlyOfAnEditedFile(@TempDir Path patches) throws IOException {
        Path dir = Files.createDirectories(patches.resolve("9.9.9"));
        Files.writeString(dir.resolve("0001-store-x.patch"), PATCH, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ReleaseLine.SERIES), "0001-store-x.patch\n", StandardCharsets.UTF_8);
        String assembled = """
            release=9.9.9
            oracle=org.apache.rocketmq:9.9.9
            tree.skeleton=org.apache.rocketmq:rocketmq-all:5.3.3:zip:source-release
            tree.modules=store
            tree.module.store=rocketmq-store:9.9.9
            tree.deviation.tests=the skeleton's
            upstream.tests.modules=store
            tree.tests.store=org.apache.rocketmq.store.CommitLogTest
            upstream.tests.ci.store=org.apache.rocketmq.store.CommitLogTest org.apache.rocketmq.store.AddedTest \
              org.apache.rocketmq.store.EditedTest
            upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/CommitLog.java=org.apache.rocketmq.store.CommitLogTest
            """;
        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), assembled, StandardCharsets.UTF_8);
        // the control: without a reason, the edited Encoder is a file without tests
        assertThat(UpstreamTestCoverage.problems(ReleaseLine.load(dir))).containsExactly(
            "store/src/main/java/org/apache/rocketmq/store/Encoder.java is edited by a patch, and upstream.tests.exercising."
                + "store/src/main/java/org/apache/rocketmq/store/Encoder.java names no test");

        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), assembled
            + "tree.untested.store/src/main/java/org/apache/rocketmq/store/Encoder.java=its skeleton test does not compile\n"
            + "tree.untested.store/src/main/java/org/apache/rocketmq/store/Gone.java=nothing\n", StandardCharsets.UTF_8);
        assertThat(UpstreamTestCoverage.problems(ReleaseLine.load(dir))).containsExactly(
            "tree.untested.store/src/main/java/org/apache/rocketmq/store/Gone.java names a file no patch edits");
    }

    @Test
    void namesAListedClassUpstreamDoesNotHaveAndOneThatDoesNotNameWhatItExercises(@TempDir Path patches) throws IOException {
        Path dir = Files.createDirectories(patches.resolve("9.9.9"));
        Files.writeString(dir.resolve("0001-store-x.patch"), PATCH, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ReleaseLine.SERIES), "0001-store-x.patch\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), DESCRIPTOR
            + "upstream.tests.ci.store=org.apache.rocketmq.store.CommitLogTest org.apache.rocketmq.store.UnrelatedTest"
            + " org.apache.rocketmq.store.MissingTest org.apache.rocketmq.store.AddedTest org.apache.rocketmq.store.EditedTest\n"
            + "upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/CommitLog.java="
            + "org.apache.rocketmq.store.CommitLogTest org.apache.rocketmq.store.UnrelatedTest\n"
            + "upstream.tests.exercising.store/src/main/java/org/apache/rocketmq/store/Encoder.java="
            + "org.apache.rocketmq.store.AddedTest org.apache.rocketmq.store.EditedTest\n", StandardCharsets.UTF_8);
        Path zip = patches.resolve("source-release.zip");
        String root = "rocketmq-all-9.9.9/store/src/";
        writeZip(zip, Map.of(
            root + "main/java/org/apache/rocketmq/store/CommitLog.java", "public class CommitLog {}",
            root + "main/java/org/apache/rocketmq/store/Encoder.java", "public class Encoder {}",
            // a subclass counts: a test that names it exercises the edited class
            root + "main/java/org/apache/rocketmq/store/FastEncoder.java", "public class FastEncoder extends Encoder {}",
            root + "test/java/org/apache/rocketmq/store/CommitLogTest.java", "class CommitLogTest { CommitLog log; }",
            root + "test/java/org/apache/rocketmq/store/UnrelatedTest.java", "class UnrelatedTest { CommitLogger notIt; }",
            root + "test/java/org/apache/rocketmq/store/EditedTest.java", "class EditedTest { FastEncoder e; }"));
        ReleaseLine line = ReleaseLine.load(dir);
        assertThat(UpstreamTestCoverage.problems(line)).isEmpty();
        assertThat(UpstreamTestCoverage.problems(line, zip)).containsExactlyInAnyOrder(
            "org.apache.rocketmq.store.MissingTest (upstream.tests.ci.store) is neither in source-release.zip nor added by a patch",
            "org.apache.rocketmq.store.UnrelatedTest is said to exercise store/src/main/java/org/apache/rocketmq/store/CommitLog.java"
                + " but its source names none of [CommitLog]");
    }

    /** The line's source release: the copy this build made, else the one in the local Maven repository. */
    private static Path sourceRelease(String release) {
        Path copied = BuiltDistributions.target().resolve("upstream").resolve(release).resolve("source-release.zip");
        if (Files.isRegularFile(copied)) {
            return copied;
        }
        String repo = System.getProperty("hotpath.maven.repo");
        if (repo == null) {
            return null;
        }
        Path inRepo = Path.of(repo, "org/apache/rocketmq/rocketmq-all", release, "rocketmq-all-" + release + "-source-release.zip");
        return Files.isRegularFile(inRepo) ? inRepo : null;
    }

    private static void writeZip(Path zip, Map<String, String> files) throws IOException {
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(out)) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                z.putNextEntry(new ZipEntry(f.getKey()));
                z.write(f.getValue().getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
        }
    }

    private static final String DESCRIPTOR = """
        release=9.9.9
        source.release=org.apache.rocketmq:rocketmq-all:9.9.9:zip:source-release
        oracle=org.apache.rocketmq:9.9.9
        upstream.tests.modules=store
        """;

    /** Edits CommitLog and Encoder, adds one of our files and AddedTest, edits EditedTest. */
    private static final String PATCH = """
        From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
        Subject: [PATCH] x

        Forwarded: no
        ---
        diff --git a/store/src/main/java/io/hotpath/store/Ours.java b/store/src/main/java/io/hotpath/store/Ours.java
        new file mode 100644
        index 0000000..1111111
        --- /dev/null
        +++ b/store/src/main/java/io/hotpath/store/Ours.java
        @@ -0,0 +1 @@
        +class Ours {}
        diff --git a/store/src/main/java/org/apache/rocketmq/store/CommitLog.java b/store/src/main/java/org/apache/rocketmq/store/CommitLog.java
        index 1111111..2222222 100644
        --- a/store/src/main/java/org/apache/rocketmq/store/CommitLog.java
        +++ b/store/src/main/java/org/apache/rocketmq/store/CommitLog.java
        @@ -1 +1 @@
        -class CommitLog {}
        +class CommitLog { }
        diff --git a/store/src/main/java/org/apache/rocketmq/store/Encoder.java b/store/src/main/java/org/apache/rocketmq/store/Encoder.java
        index 1111111..2222222 100644
        --- a/store/src/main/java/org/apache/rocketmq/store/Encoder.java
        +++ b/store/src/main/java/org/apache/rocketmq/store/Encoder.java
        @@ -1 +1 @@
        -class Encoder {}
        +class Encoder { }
        diff --git a/store/src/test/java/org/apache/rocketmq/store/AddedTest.java b/store/src/test/java/org/apache/rocketmq/store/AddedTest.java
        new file mode 100644
        index 0000000..3333333
        --- /dev/null
        +++ b/store/src/test/java/org/apache/rocketmq/store/AddedTest.java
        @@ -0,0 +1 @@
        +class AddedTest { Encoder e; }
        diff --git a/store/src/test/java/org/apache/rocketmq/store/EditedTest.java b/store/src/test/java/org/apache/rocketmq/store/EditedTest.java
        index 1111111..2222222 100644
        --- a/store/src/test/java/org/apache/rocketmq/store/EditedTest.java
        +++ b/store/src/test/java/org/apache/rocketmq/store/EditedTest.java
        @@ -1 +1 @@
        -class EditedTest {}
        +class EditedTest { }
        """;
}
