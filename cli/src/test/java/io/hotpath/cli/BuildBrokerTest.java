package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * build-broker reads the builder's record, never Maven's log: the distributions it prints, the reason it fails with,
 * a stale record never taken for this run's; bad input is exit 2 before Maven runs, a failed build exit 1.
 */
class BuildBrokerTest {

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    @Test
    void badInputIsExitTwoBeforeMavenRuns() throws Exception {
        new Checkout(root).line("4.9.0", true);
        StandInMaven maven = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line", "9.9.9")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--flavor", "gold")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--upstream-tests", "some")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--bogus")).isEqualTo(2);
        assertThat(maven.calls()).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8).lines())
            .allMatch(line -> line.startsWith("hotpath: error: "))
            .anyMatch(line -> line.contains("unknown release line '9.9.9'"))
            .anyMatch(line -> line.contains("unknown option '--bogus' for build-broker"));
    }

    @Test
    void printsTheDistributionsTheBuilderRecorded() throws Exception {
        new Checkout(root).line("4.9.0", true);
        StandInMaven maven = new StandInMaven(root, 0, record("4.9.0",
            "{\"stock\": \"/d/rocketmq-4.9.0-stock\", \"patched\": \"/d/rocketmq-4.9.0-patched\"}", "null"));
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line", "4.9.0", "--no-upstream-tests")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines())
            .containsExactly("stock /d/rocketmq-4.9.0-stock", "patched /d/rocketmq-4.9.0-patched");
        assertThat(maven.calls()).singleElement().asString()
            .contains("-pl broker-dist -am verify", "-Dhotpath.line=4.9.0", "-Dhotpath.flavor=both", "-Dhotpath.upstream.tests=false");
    }

    @Test
    void oneFlavorRunsNoUpstreamTestsAndFullMeansTheBuildersTrue() throws Exception {
        new Checkout(root).line("4.9.0", true);
        String built = record("4.9.0", "{\"stock\": \"/d/s\"}", "null");
        StandInMaven maven = new StandInMaven(root, 0, built);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line", "4.9.0", "--flavor=stock")).isZero();
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line", "4.9.0")).isZero();
        assertThat(maven.calls()).hasSize(2);
        assertThat(maven.calls().get(0)).contains("-Dhotpath.flavor=stock", "-Dhotpath.upstream.tests=false");
        assertThat(maven.calls().get(1)).contains("-Dhotpath.flavor=both", "-Dhotpath.upstream.tests=true");
    }

    @Test
    void aFailedBuildIsExitOneWithTheBuildersReason() throws Exception {
        new Checkout(root).line("4.9.0", true);
        StandInMaven maven = new StandInMaven(root, 1, record("4.9.0", "{}", "\"patch 0001 does not apply\""));
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line", "4.9.0")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("hotpath: error: patch 0001 does not apply (full log: ");
    }

    @Test
    void aRecordLeftByAnEarlierRunIsNotTakenForThisOne() throws Exception {
        new Checkout(root).line("4.9.0", true);
        Path target = Files.createDirectories(root.resolve("broker-dist/target"));
        Files.writeString(target.resolve("build-outcome-4.9.0.json"),
            "{\"release\": \"4.9.0\", \"distributions\": {\"stock\": \"/old\"}, \"testReport\": null, \"error\": null}");
        StandInMaven maven = new StandInMaven(root, 1);
        assertThat(Hotpath.run(root, maven.run(), "build-broker", "--line", "4.9.0")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("before broker-dist's builder ran");
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("/old");
    }

    /** A stand-in body that writes the builder's record as io.hotpath.dist.BuildOutcome does. */
    private String record(String release, String distributions, String error) {
        Path file = root.resolve("broker-dist/target/build-outcome-" + release + ".json");
        return "mkdir -p '" + file.getParent() + "'\ncat > '" + file + "' <<'JSON'\n{\"release\": \"" + release
            + "\", \"distributions\": " + distributions + ", \"testReport\": null, \"error\": " + error + "}\nJSON";
    }
}
