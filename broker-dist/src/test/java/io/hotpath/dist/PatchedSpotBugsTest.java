package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream's SpotBugs judges the patched tree's modules that the patches change ({@link UpstreamMavenBuild#install}):
 * the build this test runs after left the log of that run, one passed check per patched module.
 */
class PatchedSpotBugsTest {

    @Test
    void the5xBuildRunsSpotBugsAnd49xDoesNot(@TempDir Path dir) throws IOException {
        Path fiveX = Files.createDirectories(dir.resolve("5x"));
        Files.writeString(fiveX.resolve("pom.xml"), "<project><build><plugins><plugin><groupId>com.github.spotbugs</groupId>"
            + "<artifactId>spotbugs-maven-plugin</artifactId></plugin></plugins></build></project>", StandardCharsets.UTF_8);
        Path fourX = Files.createDirectories(dir.resolve("4x"));
        Files.writeString(fourX.resolve("pom.xml"), "<project><build><plugins><plugin>"
            + "<artifactId>maven-checkstyle-plugin</artifactId></plugin></plugins></build></project>", StandardCharsets.UTF_8);

        assertThat(UpstreamMavenBuild.runsSpotBugs(fiveX)).isTrue();
        assertThat(UpstreamMavenBuild.runsSpotBugs(fourX)).isFalse();
    }

    @Test
    void everyPatchedModuleOfThisBuildPassedSpotBugs() throws IOException {
        String release = BuiltDistributions.upstreamVersion();
        Path work = BuiltDistributions.target().resolve("upstream").resolve(release);
        Path tree = work.resolve("patched").resolve("rocketmq-all-" + release);
        assumeThat(tree.resolve("pom.xml")).as("this build built the patched tree").exists();
        Path log = work.resolve("logs").resolve("patched-spotbugs.log");
        if (!UpstreamMavenBuild.runsSpotBugs(tree)) {
            assertThat(log).as("%s's build runs no SpotBugs", release).doesNotExist();
            return;
        }
        String text = Files.readString(log, StandardCharsets.UTF_8);
        for (String module : PatchSeries.read(BuiltDistributions.patchesDir()).modules()) {
            Matcher check = Pattern.compile("spotbugs-maven-plugin:[^:]+:check \\(check\\) @ rocketmq-" + Pattern.quote(module)
                + " ---\\R\\[INFO] BugInstance size is 0").matcher(text);
            assertThat(check.find()).as("SpotBugs' check of %s, passed, in %s", module, log).isTrue();
        }
        assertThat(text).contains("BUILD SUCCESS");
    }
}
