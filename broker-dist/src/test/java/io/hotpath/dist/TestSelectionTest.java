package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a full and a targeted run of upstream's tests select, and the builder's --upstream-tests modes. */
class TestSelectionTest {

    private static final String DESCRIPTOR = """
        release=9.9.9
        source.release=org.apache.rocketmq:rocketmq-all:9.9.9:zip:source-release
        oracle=org.apache.rocketmq:9.9.9
        upstream.tests.modules=common,remoting,store
        upstream.tests.ci.store=org.x.store.ATest org.x.store.AddedTest
        upstream.tests.ci.common=org.x.common.CTest
        """;

    @Test
    void aFullRunTakesEveryTestedModuleAndATargetedRunTheListedClasses(@TempDir Path patches) throws IOException {
        ReleaseLine line = line(patches, DESCRIPTOR);
        TestSelection full = TestSelection.of(line, false);
        assertThat(full.modules()).containsExactly("common", "remoting", "store");
        assertThat(full.targeted()).isFalse();
        assertThat(full.classes()).isEmpty();

        TestSelection ci = TestSelection.of(line, true);
        assertThat(ci.modules()).containsExactly("common", "store");
        assertThat(ci.targeted()).isTrue();
        assertThat(ci.classes()).containsExactly("org.x.common.CTest", "org.x.store.ATest", "org.x.store.AddedTest");
    }

    @Test
    void theStockTreeIsAskedOnlyAboutClassesThatDidNotPassOnPatched(@TempDir Path patches) throws IOException {
        ReleaseLine line = line(patches, DESCRIPTOR + """
            stock.failure.org.x.store.ATest#racesTheReput=fails on stock too
            """);
        TestSelection ci = TestSelection.of(line, true);
        Map<String, SurefireReports.Outcome> patched = Map.of(
            "org.x.store.ATest#a", SurefireReports.Outcome.PASSED,
            "org.x.store.ATest#b", SurefireReports.Outcome.FLAKY,
            "org.x.store.AddedTest#a", SurefireReports.Outcome.PASSED,
            "org.x.common.CTest#a", SurefireReports.Outcome.PASSED);
        // a rerun pass, a failure, all skipped or no report at all need stock's answer; a first-try pass does not
        assertThat(BrokerDistBuilder.passedAtFirstTry(patched, "org.x.store.ATest")).isFalse();
        assertThat(BrokerDistBuilder.passedAtFirstTry(patched, "org.x.store.AddedTest")).isTrue();
        assertThat(BrokerDistBuilder.passedAtFirstTry(patched, "org.x.common.CTest")).isTrue();
        assertThat(BrokerDistBuilder.passedAtFirstTry(Map.of("org.x.common.CTest#a", SurefireReports.Outcome.SKIPPED),
            "org.x.common.CTest")).isFalse();
        assertThat(BrokerDistBuilder.passedAtFirstTry(patched, "org.x.common.MissingTest")).isFalse();

        TestSelection stock = ci.only(Map.of("store", List.of("org.x.store.ATest"), "common", List.of()));
        assertThat(stock.modules()).containsExactly("store");
        assertThat(stock.classes()).containsExactly("org.x.store.ATest");
        // the class keeps its descriptor exclusions on stock as on patched
        assertThat(stock.surefireTests()).containsExactly("org.x.store.ATest", "!org.x.store.ATest#racesTheReput");
        assertThat(ci.only(Map.of("store", List.of(), "common", List.of())).classes()).isEmpty();
    }

    @Test
    void aTargetedRunLeavesOutTheStockFailingMethodsOfAListedClassAndAFullRunNone(@TempDir Path patches) throws IOException {
        ReleaseLine line = line(patches, DESCRIPTOR + """
            stock.failure.org.x.store.ATest#racesTheReput=fails on stock too
            stock.failure.org.x.store.ATest#alsoRaces=fails on stock too
            stock.failure.org.x.remoting.RTest#unlisted=its class is not listed
            """);
        TestSelection ci = TestSelection.of(line, true);
        assertThat(ci.surefireTests()).containsExactly("org.x.common.CTest", "org.x.store.ATest", "org.x.store.AddedTest",
            "!org.x.store.ATest#alsoRaces+racesTheReput");
        assertThat(ci.excludedMethods()).isEqualTo(Map.of("org.x.store.ATest", List.of("alsoRaces", "racesTheReput")));

        // the report's "excluded": what the run really left out, with its reason
        assertThat(ci.leftOut(line)).containsOnlyKeys("org.x.store.ATest#racesTheReput", "org.x.store.ATest#alsoRaces");

        TestSelection full = TestSelection.of(line, false);
        assertThat(full.surefireTests()).isEmpty();
        assertThat(full.excludedMethods()).isEmpty();
        assertThat(full.leftOut(line)).isEmpty();

        ReleaseLine noMethod = line(patches.resolve("b"), DESCRIPTOR + "stock.failure.org.x.store.ATest#a+b=two at once\n");
        assertThatThrownBy(() -> TestSelection.of(noMethod, true)).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("stock.failure.org.x.store.ATest#a+b of line 9.9.9 names no method");
    }

    @Test
    void aClassThePatchAddsIsExpectedOnPatchedOnlyAndOneMissingThereIsAnError(@TempDir Path dir) throws IOException {
        TestSelection ci = TestSelection.of(line(dir.resolve("patches"), DESCRIPTOR), true);
        Path stock = dir.resolve("stock");
        Path patched = dir.resolve("patched");
        for (Path tree : List.of(stock, patched)) {
            touch(tree.resolve("common/src/test/java/org/x/common/CTest.java"));
            touch(tree.resolve("store/src/test/java/org/x/store/ATest.java"));
        }
        touch(patched.resolve("store/src/test/java/org/x/store/AddedTest.java"));
        assertThat(ci.presentIn(stock, "stock")).isEqualTo(Map.of("common", List.of("org.x.common.CTest"),
            "store", List.of("org.x.store.ATest")));
        assertThat(ci.presentIn(patched, "patched")).isEqualTo(Map.of("common", List.of("org.x.common.CTest"),
            "store", List.of("org.x.store.ATest", "org.x.store.AddedTest")));

        Files.delete(patched.resolve("store/src/test/java/org/x/store/AddedTest.java"));
        assertThatThrownBy(() -> ci.presentIn(patched, "patched")).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("upstream.tests.ci.store lists org.x.store.AddedTest, which the patched tree does not have");
    }

    @Test
    void aTargetedRunRefusesALineWithoutListsAndAListedStockFailure(@TempDir Path patches) throws IOException {
        String noLists = DESCRIPTOR.replaceAll("upstream\\.tests\\.ci\\..*\\n", "");
        assertThatThrownBy(() -> TestSelection.of(line(patches.resolve("a"), noLists), true)).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("lists no upstream.tests.ci.<module> classes");
        String listedFailure = DESCRIPTOR + "stock.failure.org.x.store.ATest=fails here\n";
        assertThatThrownBy(() -> TestSelection.of(line(patches.resolve("b"), listedFailure), true))
            .isInstanceOf(DistBuildException.class).hasMessageContaining("org.x.store.ATest is listed in upstream.tests.ci.* and as a"
                + " stock.failure");
    }

    @Test
    void theBuilderTakesFullCiOrFalseAndTrueMeansFull() {
        assertThat(BrokerDistBuilder.parse(args("true", "both")).get("--upstream-tests")).isEqualTo("full");
        assertThat(BrokerDistBuilder.parse(args("ci", "both")).get("--upstream-tests")).isEqualTo("ci");
        assertThat(BrokerDistBuilder.parse(args("false", "stock")).get("--upstream-tests")).isEqualTo("false");
        assertThatThrownBy(() -> BrokerDistBuilder.parse(args("some", "both"))).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("--upstream-tests must be full (or true), ci or false, got 'some'");
        assertThatThrownBy(() -> BrokerDistBuilder.parse(args("ci", "patched"))).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("they need --flavor both");
    }

    @Test
    void testSourcesAreCompiledUnlessTheCallerSaysFalse() {
        assertThat(BrokerDistBuilder.parse(args("false", "both")).get("--compile-tests")).isEqualTo("true");
        assertThat(BrokerDistBuilder.parse(withCompileTests("false")).get("--compile-tests")).isEqualTo("false");
        assertThatThrownBy(() -> BrokerDistBuilder.parse(withCompileTests("maybe"))).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("--compile-tests must be true or false, got 'maybe'");
    }

    private static String[] withCompileTests(String value) {
        return Stream.concat(Arrays.stream(args("false", "both")), Stream.of("--compile-tests", value)).toArray(String[]::new);
    }

    private static String[] args(String upstreamTests, String flavor) {
        return new String[] {"--line", "x", "--flavor", flavor, "--upstream-tests", upstreamTests, "--source-release", "x",
            "--dist-template", "x", "--target", "x", "--maven-home", "x", "--user-repository", "x"};
    }

    /** The folder must be named after the release: each descriptor gets its own parent. */
    private static ReleaseLine line(Path parent, String descriptor) throws IOException {
        Path dir = Files.createDirectories(parent.resolve("9.9.9"));
        Files.writeString(dir.resolve(ReleaseLine.DESCRIPTOR), descriptor, StandardCharsets.UTF_8);
        return ReleaseLine.load(dir);
    }

    private static void touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "class X {}", StandardCharsets.UTF_8);
    }
}
