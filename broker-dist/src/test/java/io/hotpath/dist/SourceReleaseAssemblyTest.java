package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree assembled from Maven Central's pieces, on small stand-ins of them (no network): what comes from the skeleton,
 * what from each module's pom and sources jar, the edits, and what is refused.
 */
class SourceReleaseAssemblyTest {

    private static final String SKELETON_ROOT = """
        <project>
            <parent><groupId>org.apache</groupId><artifactId>apache</artifactId><version>18</version></parent>
            <groupId>org.apache.rocketmq</groupId>
            <artifactId>rocketmq-all</artifactId>
            <version>5.3.3</version>
            <modules>
                <module>common</module>
                <module>proxy</module>
            </modules>
            <dependencyManagement><dependencies>
                <dependency><groupId>io.opentelemetry</groupId><artifactId>opentelemetry-sdk</artifactId><version>${otel}</version></dependency>
                <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency>
            </dependencies></dependencyManagement>
            <build><plugins><plugin><artifactId>maven-checkstyle-plugin</artifactId></plugin></plugins></build>
        </project>
        """;
    private static final String SKELETON_COMMON = """
        <project>
            <parent>
                <artifactId>rocketmq-all</artifactId>
                <groupId>org.apache.rocketmq</groupId>
                <version>5.3.3</version>
            </parent>
            <artifactId>rocketmq-common</artifactId>
            <dependencies>
                <dependency><groupId>junit</groupId><artifactId>junit</artifactId></dependency>
            </dependencies>
            <build><plugins><plugin><artifactId>maven-jar-plugin</artifactId>
                <dependencies><dependency><groupId>x</groupId><artifactId>plugin-dep</artifactId></dependency></dependencies>
            </plugin></plugins></build>
        </project>
        """;
    private static final String CENTRAL_COMMON = """
        <project>
          <artifactId>rocketmq-common</artifactId>
          <version>5.5.1</version>
          <dependencies>
            <dependency><groupId>org.apache.rocketmq</groupId><artifactId>rocketmq-remoting</artifactId><version>5.5.1</version></dependency>
            <dependency><groupId>org.apache.rocketmq</groupId><artifactId>rocketmq-proto</artifactId><version>2.1.2</version></dependency>
            <dependency><groupId>io.opentelemetry</groupId><artifactId>opentelemetry-sdk</artifactId><version>1.47.0</version>
              <exclusions><exclusion><groupId>x</groupId><artifactId>y</artifactId><version>9</version></exclusion></exclusions>
            </dependency>
          </dependencies>
        </project>
        """;
    private static final String CENTRAL_REMOTING = """
        <project>
          <artifactId>rocketmq-remoting</artifactId>
          <version>5.5.0</version>
          <dependencies>
            <dependency><groupId>io.opentelemetry</groupId><artifactId>opentelemetry-sdk</artifactId><version>1.40.0</version></dependency>
          </dependencies>
        </project>
        """;
    private static final String EDITS = """
        Why the tree needs this.

        diff --git a/common/src/main/java/org/x/A.java b/common/src/main/java/org/x/A.java
        --- a/common/src/main/java/org/x/A.java
        +++ b/common/src/main/java/org/x/A.java
        @@ -1 +1 @@
        -class A { int v = 551; }
        +class A { int v = 550; }
        """;

    @TempDir
    Path dir;
    private Path fetched;
    private ReleaseLine line;

    @BeforeEach
    void pieces() throws IOException {
        Path lineDir = dir.resolve("patches/5.5.1");
        Files.createDirectories(lineDir);
        Files.writeString(lineDir.resolve(ReleaseLine.DESCRIPTOR), "release=5.5.1\noracle=org.apache.rocketmq:5.5.1\n"
            + "tree.skeleton=org.apache.rocketmq:rocketmq-all:5.3.3:zip:source-release\n"
            + "tree.modules=common remoting\n"
            + "tree.module.common=rocketmq-common:5.5.1\n"
            + "tree.module.remoting=rocketmq-remoting:5.5.0\n"
            + "tree.edits=tree-edits.diff\n"
            + "tree.deviation.build=5.3.3's\n");
        Files.writeString(lineDir.resolve("tree-edits.diff"), EDITS);
        line = ReleaseLine.load(lineDir);
        fetched = dir.resolve("central");
        Files.createDirectories(fetched);
        Map<String, String> skeleton = new LinkedHashMap<>();
        skeleton.put("rocketmq-all-5.3.3/pom.xml", SKELETON_ROOT);
        skeleton.put("rocketmq-all-5.3.3/style/rmq_checkstyle.xml", "<module/>");
        skeleton.put("rocketmq-all-5.3.3/common/pom.xml", SKELETON_COMMON);
        skeleton.put("rocketmq-all-5.3.3/common/src/main/java/org/x/Old.java", "class Old {}");
        skeleton.put("rocketmq-all-5.3.3/remoting/pom.xml", SKELETON_COMMON.replace("rocketmq-common", "rocketmq-remoting"));
        zip(fetched.resolve("rocketmq-all-5.3.3-source-release.zip"), skeleton);
        Files.writeString(fetched.resolve("rocketmq-common-5.5.1.pom"), CENTRAL_COMMON);
        Files.writeString(fetched.resolve("rocketmq-remoting-5.5.0.pom"), CENTRAL_REMOTING);
        zip(fetched.resolve("rocketmq-common-5.5.1-sources.jar"), Map.of(
            "org/x/A.java", "class A { int v = 551; }\n",
            "rmq.common.logback.xml", "<configuration/>",
            "META-INF/services/org.x.Spi", "org.x.A",
            "META-INF/MANIFEST.MF", "Manifest-Version: 1.0",
            "META-INF/DEPENDENCIES", "5.5.1's build",
            "META-INF/maven/org.apache.rocketmq/rocketmq-common/pom.xml", "<project/>"));
        zip(fetched.resolve("rocketmq-remoting-5.5.0-sources.jar"), Map.of("org/x/R.java", "class R {}"));
    }

    @Test
    void theSkeletonGivesTheBuildCentralTheDependenciesAndTheSources() throws IOException {
        Path root = SourceReleaseAssembly.assemble(line, fetched, dir.resolve("work"));

        String rootPom = Files.readString(root.resolve("pom.xml"));
        assertThat(rootPom).contains("<artifactId>rocketmq-all</artifactId>\n    <version>5.5.1</version>")
            .contains("<version>18</version>")
            .contains("<module>common</module>").contains("<module>remoting</module>").doesNotContain("<module>proxy</module>")
            // the release's own module wins over the older module's version, and only what the poms declare changes
            .contains("<artifactId>opentelemetry-sdk</artifactId><version>1.47.0</version>")
            .contains("<artifactId>junit</artifactId><version>4.13.2</version>")
            .contains("maven-checkstyle-plugin");
        assertThat(root.resolve("style/rmq_checkstyle.xml")).hasContent("<module/>");

        String common = Files.readString(root.resolve("common/pom.xml"));
        assertThat(common).contains("<groupId>org.apache.rocketmq</groupId>\n        <version>5.5.1</version>")
            .contains("<artifactId>rocketmq-remoting</artifactId><version>${project.version}</version>")
            .contains("<artifactId>rocketmq-proto</artifactId><version>2.1.2</version>")
            .contains("<exclusion><groupId>x</groupId><artifactId>y</artifactId><version>9</version></exclusion>")
            // the skeleton's own dependency list is gone, its build's plugin dependencies are not
            .doesNotContain("<artifactId>junit</artifactId>").contains("<artifactId>plugin-dep</artifactId>");

        assertThat(root.resolve("common/src/main/java/org/x/A.java")).hasContent("class A { int v = 550; }");
        assertThat(root.resolve("common/src/main/resources/rmq.common.logback.xml")).exists();
        assertThat(root.resolve("common/src/main/resources/META-INF/services/org.x.Spi")).exists();
        assertThat(root.resolve("common/src/main/resources/META-INF/DEPENDENCIES")).doesNotExist();
        assertThat(root.resolve("common/src/main/resources/META-INF/MANIFEST.MF")).doesNotExist();
        assertThat(root.resolve("common/src/main/resources/META-INF/maven")).doesNotExist();
        assertThat(root.resolve("common/src/main/java/org/x/Old.java")).doesNotExist();
        assertThat(root.resolve("remoting/src/main/java/org/x/R.java")).exists();
        assertThat(root.resolve(".git")).doesNotExist();
    }

    @Test
    void aModuleWithListedSkeletonTestsGetsThoseClassesAndItsTestResourcesOnly() throws IOException {
        Files.writeString(line.dir().resolve(ReleaseLine.DESCRIPTOR), Files.readString(line.dir().resolve(ReleaseLine.DESCRIPTOR))
            + "upstream.tests.modules=common\ntree.tests.common=org.x.ATest org.x.Helper\n");
        ReleaseLine tested = ReleaseLine.load(line.dir());
        Map<String, String> skeleton = new LinkedHashMap<>();
        skeleton.put("rocketmq-all-5.3.3/pom.xml", SKELETON_ROOT);
        skeleton.put("rocketmq-all-5.3.3/common/pom.xml", SKELETON_COMMON);
        skeleton.put("rocketmq-all-5.3.3/remoting/pom.xml", SKELETON_COMMON.replace("rocketmq-common", "rocketmq-remoting"));
        skeleton.put("rocketmq-all-5.3.3/common/src/test/java/org/x/ATest.java", "class ATest { Helper h; }");
        skeleton.put("rocketmq-all-5.3.3/common/src/test/java/org/x/Helper.java", "class Helper {}");
        skeleton.put("rocketmq-all-5.3.3/common/src/test/java/org/x/BrokenTest.java", "class BrokenTest { Gone g; }");
        skeleton.put("rocketmq-all-5.3.3/common/src/test/resources/logback-test.xml", "<configuration/>");
        skeleton.put("rocketmq-all-5.3.3/remoting/src/test/java/org/x/RTest.java", "class RTest {}");
        zip(fetched.resolve("rocketmq-all-5.3.3-source-release.zip"), skeleton);

        Path root = SourceReleaseAssembly.assemble(tested, fetched, dir.resolve("work"));

        assertThat(root.resolve("common/src/test/java/org/x/ATest.java")).hasContent("class ATest { Helper h; }");
        assertThat(root.resolve("common/src/test/java/org/x/Helper.java")).exists();
        assertThat(root.resolve("common/src/test/java/org/x/BrokenTest.java")).doesNotExist();
        assertThat(root.resolve("common/src/test/resources/logback-test.xml")).exists();
        assertThat(root.resolve("remoting/src/test")).doesNotExist();

        Files.writeString(line.dir().resolve(ReleaseLine.DESCRIPTOR), Files.readString(line.dir().resolve(ReleaseLine.DESCRIPTOR))
            .replace("org.x.Helper", "org.x.Missing"));
        assertThatThrownBy(() -> SourceReleaseAssembly.assemble(ReleaseLine.load(line.dir()), fetched, dir.resolve("work")))
            .isInstanceOf(DistBuildException.class)
            .hasMessageContaining("tree.tests.common lists org.x.Missing, which the skeleton does not have");
    }

    @Test
    void theArchiveIsTheTreeUnderItsReleaseFolderAndTheSameTreeMakesTheSameBytes() throws IOException {
        Path first = SourceReleaseAssembly.make(line, fetched, dir.resolve("w1"), dir.resolve("a.zip"));
        Path second = SourceReleaseAssembly.make(line, fetched, dir.resolve("w2"), dir.resolve("b.zip"));
        assertThat(Files.readAllBytes(first)).isEqualTo(Files.readAllBytes(second));
        UpstreamTree tree = UpstreamTree.unpack(first, "5.5.1", dir.resolve("unpacked"));
        assertThat(tree.root().resolve("common/src/main/java/org/x/A.java")).hasContent("class A { int v = 550; }");
    }

    @Test
    void thePatchedTreesTestEditsApplyAfterTheSeriesOrSayWhyNot() throws IOException {
        Path zip = SourceReleaseAssembly.make(line, fetched, dir.resolve("w"), dir.resolve("t.zip"));
        UpstreamTree tree = UpstreamTree.unpack(zip, "5.5.1", dir.resolve("tree"));
        Path edits = line.dir().resolve("t.diff");
        assertThatThrownBy(() -> tree.applyTestEdits(edits)).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("tree.test.edits=t.diff, which is not in");
        Files.writeString(edits, EDITS.replace("551; }\n+", "549; }\n+"));
        assertThatThrownBy(() -> tree.applyTestEdits(edits)).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("t.diff does not apply to");
        Files.writeString(edits, EDITS.replace("v = 551", "v = 550").replace("+class A { int v = 550; }", "+class A { int v = 1; }"));
        tree.applyTestEdits(edits);
        assertThat(tree.root().resolve("common/src/main/java/org/x/A.java")).hasContent("class A { int v = 1; }");
    }

    @Test
    void refusesWhatItCannotAssembleFaithfully() throws IOException {
        Files.writeString(fetched.resolve("rocketmq-remoting-5.5.0.pom"), CENTRAL_REMOTING.replace("<project>",
            "<project><parent><artifactId>rocketmq-all</artifactId></parent>"));
        assertThatThrownBy(() -> SourceReleaseAssembly.assemble(line, fetched, dir.resolve("work")))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("rocketmq-remoting-5.5.0.pom is not a flattened pom");

        Files.writeString(fetched.resolve("rocketmq-remoting-5.5.0.pom"), CENTRAL_REMOTING);
        Files.writeString(line.dir().resolve("tree-edits.diff"), EDITS.replace("551; }\n+", "549; }\n+"));
        assertThatThrownBy(() -> SourceReleaseAssembly.assemble(line, fetched, dir.resolve("work")))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("tree-edits.diff does not apply to the assembled 5.5.1 tree");

        Files.writeString(line.dir().resolve("tree-edits.diff"), EDITS);
        zip(fetched.resolve("rocketmq-all-5.3.3-source-release.zip"), Map.of("rocketmq-all-5.3.3/pom.xml", SKELETON_ROOT,
            "rocketmq-all-5.3.3/common/pom.xml", SKELETON_COMMON));
        assertThatThrownBy(() -> SourceReleaseAssembly.assemble(line, fetched, dir.resolve("work")))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("the skeleton archive has no rocketmq-all-5.3.3/remoting/pom.xml");
    }

    @Test
    void theFetchPomListsEveryPieceAndTheFileNamesAreDependencyCopys() throws IOException {
        String pom = Files.readString(SourceReleaseAssembly.writeFetchPom(line.tree(), dir.resolve("work")));
        assertThat(pom).contains("<artifactId>rocketmq-all</artifactId><version>5.3.3</version><type>zip</type><classifier>source-release</classifier>")
            .contains("<artifactId>rocketmq-common</artifactId><version>5.5.1</version><type>pom</type></artifactItem>")
            .contains("<artifactId>rocketmq-remoting</artifactId><version>5.5.0</version><type>jar</type><classifier>sources</classifier>");
        assertThat(SourceReleaseAssembly.fileName("org.apache.rocketmq:rocketmq-common:5.5.1:jar:sources"))
            .isEqualTo("rocketmq-common-5.5.1-sources.jar");
        assertThat(SourceReleaseAssembly.fileName("org.apache.rocketmq:rocketmq-common:5.5.1:pom")).isEqualTo("rocketmq-common-5.5.1.pom");
    }

    private static void zip(Path file, Map<String, String> entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
    }
}
