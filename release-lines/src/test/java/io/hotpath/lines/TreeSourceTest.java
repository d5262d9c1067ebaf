package io.hotpath.lines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a line's tree comes from: upstream's source release, or a tree assembled from Maven Central, with its deviations. */
class TreeSourceTest {

    private static final String ASSEMBLED = "release=5.5.1\n"
        + "oracle=org.apache.rocketmq:5.5.1\n"
        + "tree.skeleton=org.apache.rocketmq:rocketmq-all:5.3.3:zip:source-release\n"
        + "tree.modules=common tieredstore\n"
        + "tree.module.common=rocketmq-common:5.5.1\n"
        + "tree.module.tieredstore=rocketmq-tiered-store:5.5.0\n"
        + "tree.edits=tree-edits.diff\n"
        + "tree.deviation.build=5.3.3's build\n";

    @Test
    void aSourceReleaseLineFetchesItsOwnArchiveOnly(@TempDir Path patches) throws IOException {
        write(patches.resolve("5.3.3"), "release=5.3.3\noracle=org.apache.rocketmq:5.3.3\nupstream.tests.modules=common\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:5.3.3:zip:source-release\n");
        TreeSource tree = ReleaseLine.load(patches.resolve("5.3.3")).tree();
        assertThat(tree.assembled()).isFalse();
        assertThat(tree.artifacts()).containsExactly("org.apache.rocketmq:rocketmq-all:5.3.3:zip:source-release");
        assertThat(tree.deviations()).isEmpty();
        assertThat(tree.archiveVersion()).as("the release's own tests").isEqualTo("5.3.3");
    }

    @Test
    void anAssembledLineListsItsModulesInOrderTheirPomsAndSourcesAndHasNoUpstreamTests(@TempDir Path patches) throws IOException {
        write(patches.resolve("5.5.1"), ASSEMBLED);
        ReleaseLine line = ReleaseLine.load(patches.resolve("5.5.1"));
        TreeSource tree = line.tree();
        assertThat(tree.assembled()).isTrue();
        assertThat(tree.modules()).extracting(TreeSource.CentralModule::dir).containsExactly("common", "tieredstore");
        assertThat(tree.artifacts()).containsExactly("org.apache.rocketmq:rocketmq-all:5.3.3:zip:source-release",
            "org.apache.rocketmq:rocketmq-common:5.5.1:pom", "org.apache.rocketmq:rocketmq-common:5.5.1:jar:sources",
            "org.apache.rocketmq:rocketmq-tiered-store:5.5.0:pom", "org.apache.rocketmq:rocketmq-tiered-store:5.5.0:jar:sources");
        assertThat(tree.edits()).isEqualTo("tree-edits.diff");
        assertThat(tree.deviations()).containsEntry("build", "5.3.3's build");
        assertThat(line.testedModules()).isEmpty();
        assertThat(tree.tests()).isEmpty();
        assertThat(tree.testEdits()).isNull();
        assertThat(tree.archiveVersion()).as("the skeleton's tests, not 5.5.1's").isEqualTo("5.3.3");
    }

    @Test
    void anAssembledLineTestsTheModulesItTakesSkeletonTestsForAndThoseWherePatchesAddTests(@TempDir Path patches)
        throws IOException {
        write(patches.resolve("5.5.1"), ASSEMBLED + "upstream.tests.modules=common\n"
            + "tree.tests.common=org.x.ATest org.x.Helper\ntree.test.edits=t.diff\n"
            + "tree.untested.common/src/main/java/org/x/B.java=its test does not compile\n");
        ReleaseLine line = ReleaseLine.load(patches.resolve("5.5.1"));
        assertThat(line.testedModules()).containsExactly("common");
        assertThat(line.tree().tests()).containsExactly(java.util.Map.entry("common", List.of("org.x.ATest", "org.x.Helper")));
        assertThat(line.tree().testEdits()).isEqualTo("t.diff");
        assertThat(line.tree().untested()).containsEntry("common/src/main/java/org/x/B.java", "its test does not compile");

        // tieredstore has no skeleton tests: tested, it runs what upstream.tests.ci names (the tests a patch adds)
        write(patches.resolve("5.5.1"), ASSEMBLED + "upstream.tests.modules=common,tieredstore\n"
            + "tree.tests.common=org.x.ATest\nupstream.tests.ci.tieredstore=org.x.AddedTest\n");
        ReleaseLine withAdded = ReleaseLine.load(patches.resolve("5.5.1"));
        assertThat(withAdded.testedModules()).containsExactly("common", "tieredstore");
        assertThat(withAdded.ciTests()).containsEntry("tieredstore", List.of("org.x.AddedTest"));
    }

    @Test
    void refusesWhatDoesNotDescribeOneTree(@TempDir Path patches) throws IOException {
        Path dir = patches.resolve("5.5.1");
        for (List<String> c : List.of(
            List.of(ASSEMBLED.replace("tree.skeleton", "skeleton"), "exactly one of source.release"),
            List.of(ASSEMBLED + "source.release=org.apache.rocketmq:rocketmq-all:5.5.1:zip:source-release\n", "exactly one of"),
            List.of(ASSEMBLED.replace("tree.deviation.build=5.3.3's build\n", ""), "list how (tree.deviation.<name>=...)"),
            List.of(ASSEMBLED + "upstream.tests.modules=common\n",
                "lists common, which has no skeleton tests (tree.tests.common): upstream.tests.ci.common must name"),
            List.of(ASSEMBLED + "tree.tests.common=org.x.ATest\n", "must list every module tree.tests.<dir> gives test classes for"),
            List.of(ASSEMBLED + "upstream.tests.modules=store\ntree.tests.store=org.x.ATest\n",
                "tree.tests.store names a module that tree.modules does not list"),
            List.of(ASSEMBLED + "upstream.tests.modules=common\ntree.tests.common=ATest\n", "lists test classes by fully qualified name"),
            List.of(ASSEMBLED + "tree.test.edits=t.diff\n", "tree.test.edits edits skeleton tests, but no tree.tests.<dir> lists any"),
            List.of(ASSEMBLED + "upstream.tests.modules=common\ntree.tests.common=org.x.ATest\ntree.test.edits=0009-t.patch\n",
                "tree.test.edits must name a file of the line folder that is not a *.patch"),
            List.of(ASSEMBLED + "tree.untested.common/A.java=why\n", "must name <module>/src/main/java/<class>.java and say why"),
            List.of(ASSEMBLED.replace("tree.modules=common tieredstore", "tree.modules=common"),
                "tree.module.tieredstore names a module that tree.modules does not list"),
            List.of(ASSEMBLED.replace("rocketmq-common:5.5.1", "rocketmq-common"), "tree.module.common must be <artifactId>:<version>"),
            List.of(ASSEMBLED.replace("tree-edits.diff", "0000-x.patch"), "tree.edits must name a file of the line folder"),
            List.of(ASSEMBLED.replace("rocketmq-all:5.3.3:zip", "rocketmq-all:5.3.3:jar"), "tree.skeleton must be"))) {
            write(dir, c.get(0));
            assertThatThrownBy(() -> ReleaseLine.load(dir)).as(c.get(1)).isInstanceOf(ReleaseLineException.class)
                .hasMessageContaining(c.get(1));
        }
        write(dir, "release=5.5.1\noracle=org.apache.rocketmq:5.5.1\nupstream.tests.modules=common\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:5.5.0:zip:source-release\n" + "tree.modules=common\n");
        assertThatThrownBy(() -> ReleaseLine.load(dir)).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("source.release must be org.apache.rocketmq:rocketmq-all:5.5.1:zip:source-release");
        write(dir, "release=5.5.1\noracle=org.apache.rocketmq:5.5.1\nupstream.tests.modules=common\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:5.5.1:zip:source-release\n" + "tree.modules=common\n");
        assertThatThrownBy(() -> ReleaseLine.load(dir)).isInstanceOf(ReleaseLineException.class)
            .hasMessageContaining("tree.modules describes an assembled tree");
    }

    private static void write(Path dir, String descriptor) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), descriptor, StandardCharsets.UTF_8);
    }
}
