package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A line's patch series: the order comes from {@code series}, never from file names; every patch file is listed once;
 * every patch states its upstream status (DEP-3 {@code Forwarded:}), and patches/README shows the same status.
 */
class PatchSeriesTest {

    /** DEP-3's "no", or the apache/rocketmq issue or pull request that corresponds to the patch. */
    private static final Pattern STATUS = Pattern.compile("no|https://github\\.com/apache/rocketmq/(pull|issues)/\\d+");

    /** Ours, beside DEP-3's fields: the apache/rocketmq issue or pull request that corresponds to the patch. */
    private static final Pattern COUNTERPART = Pattern.compile(
        "^Upstream-Counterpart: (https://github\\.com/apache/rocketmq/(?:pull|issues)/\\d+|none found)", Pattern.MULTILINE);

    @Test
    void theSeriesFileGivesTheOrder(@TempDir Path dir) throws IOException {
        patch(dir, "0001-common-a.patch", "no");
        patch(dir, "0002-store-b.patch", "https://github.com/apache/rocketmq/pull/1");
        Files.writeString(dir.resolve("series"), "# comment\n0002-store-b.patch\n\n0001-common-a.patch  # first in name order\n");
        List<PatchSeries.Patch> patches = PatchSeries.read(dir).patches();
        assertThat(patches).extracting(PatchSeries.Patch::name).containsExactly("0002-store-b.patch", "0001-common-a.patch");
        assertThat(patches).extracting(PatchSeries.Patch::forwarded).containsExactly("https://github.com/apache/rocketmq/pull/1", "no");
    }

    @Test
    void aPatchFileTheSeriesDoesNotListIsRefused(@TempDir Path dir) throws IOException {
        patch(dir, "0001-common-a.patch", "no");
        patch(dir, "0002-store-b.patch", "no");
        Files.writeString(dir.resolve("series"), "0001-common-a.patch\n");
        assertThatThrownBy(() -> PatchSeries.read(dir)).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("0002-store-b.patch is not in").hasMessageContaining("series");
    }

    @Test
    void aListedFileThatIsMissingOrListedTwiceIsRefused(@TempDir Path dir) throws IOException {
        patch(dir, "0001-common-a.patch", "no");
        Files.writeString(dir.resolve("series"), "0001-common-a.patch\n0002-store-b.patch\n");
        assertThatThrownBy(() -> PatchSeries.read(dir)).hasMessageContaining("names 0002-store-b.patch, which is not in");
        Files.writeString(dir.resolve("series"), "0001-common-a.patch\n0001-common-a.patch\n");
        assertThatThrownBy(() -> PatchSeries.read(dir)).hasMessageContaining("lists 0001-common-a.patch twice");
    }

    @Test
    void aLineWithoutSeriesFileIsRefused(@TempDir Path dir) throws IOException {
        patch(dir, "0001-common-a.patch", "no");
        assertThatThrownBy(() -> PatchSeries.read(dir)).hasMessageContaining("series is missing");
    }

    @Test
    void aPatchWithoutForwardedLineIsRefused(@TempDir Path dir) throws IOException {
        // the status must be in the message: a "Forwarded:" in the diff below "---" does not count
        Files.writeString(dir.resolve("0001-common-a.patch"), "Subject: [PATCH] a\n\nMotivation: x\n---\n"
            + "diff --git a/common/src/main/java/A.java b/common/src/main/java/A.java\n+Forwarded: no\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("series"), "0001-common-a.patch\n");
        assertThatThrownBy(() -> PatchSeries.read(dir)).hasMessageContaining("has no 'Forwarded:");
    }

    @Test
    void everyShippedPatchStatesItsUpstreamStatusAndPatchesReadmeShowsIt() throws IOException {
        Path root = BuiltDistributions.projectRoot();
        String readme = Files.readString(root.resolve("patches/README.md"), StandardCharsets.UTF_8);
        for (ReleaseLine line : ReleaseLine.all(root.resolve("patches"))) {
            for (PatchSeries.Patch patch : PatchSeries.read(line.dir()).patches()) {
                String what = line.release() + "/" + patch.name();
                assertThat(patch.forwarded()).as(what).matches(STATUS);
                Matcher counterpart = COUNTERPART.matcher(Files.readString(patch.file(), StandardCharsets.UTF_8));
                assertThat(counterpart.find()).as(what + " names its upstream counterpart, or 'none found'").isTrue();
                Matcher row = Pattern.compile("^\\| " + Pattern.quote(line.release()) + " \\| `" + Pattern.quote(patch.name())
                    + "` \\| (.+?) \\| (.+?) \\|$", Pattern.MULTILINE).matcher(readme);
                assertThat(row.find()).as("patches/README.md has a row for " + what).isTrue();
                assertThat(row.group(1)).as("patches/README.md's Forwarded of " + what).isEqualTo(patch.forwarded());
                String url = counterpart.group(1);
                assertThat(row.group(2)).as("patches/README.md's upstream counterpart of " + what)
                    .contains(url.startsWith("https://") ? url.substring(url.lastIndexOf('/') + 1) : "none found");
            }
        }
    }

    private static void patch(Path dir, String name, String forwarded) throws IOException {
        String module = name.split("-")[1];
        Files.writeString(dir.resolve(name), "Subject: [PATCH] " + name + "\n\nMotivation: x\n\nForwarded: " + forwarded
            + "\n---\ndiff --git a/" + module + "/src/main/java/A.java b/" + module + "/src/main/java/A.java\n",
            StandardCharsets.UTF_8);
    }
}
