package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every committed patch of the line must be what {@code bin/hotpath patches regenerate} makes of today's
 * hotpath-codec and hotpath-store sources and upstream's source release: otherwise the broker would
 * ship a codec, decoder or store encoder other than the one the suites and JMH measured.
 */
class PatchFreshnessTest {

    private static final String REGENERATE = "the committed patch is stale: run bin/hotpath patches regenerate";
    private static final Pattern NEW_FILE_HUNK = Pattern.compile("^@@ -0,0 \\+1(?:,(\\d+))? @@");

    private static ReleaseLine line;
    private static Map<String, String> regenerated;

    @BeforeAll
    static void regenerate() {
        line = BuiltDistributions.line();
        regenerated = PatchGenerator.generate(line, BuiltDistributions.sourceRelease(), BuiltDistributions.projectRoot(),
            BuiltDistributions.target().resolve("patch-freshness"));
    }

    @Test
    void everyPatchOfTheLineIsWhatRegenerationProduces() throws IOException {
        List<PatchSeries.Patch> patches = PatchSeries.read(line.dir()).patches();
        assertThat(regenerated.keySet()).containsExactlyElementsOf(patches.stream().map(PatchSeries.Patch::name).toList());
        for (PatchSeries.Patch patch : patches) {
            assertThat(Files.readString(patch.file(), StandardCharsets.UTF_8)).as("%s: %s", patch.name(), REGENERATE)
                .isEqualTo(regenerated.get(patch.name()));
        }
    }

    @Test
    void everyPatchAddsExactlyTheFilesItCarriesByteForByte() throws IOException {
        for (PatchSeries.Patch patch : PatchSeries.read(line.dir()).patches()) {
            Map<String, String> added = newFiles(Files.readString(patch.file(), StandardCharsets.UTF_8));
            // our code a patch adds (src/main/java/io/hotpath/...) must be carried; a new upstream test it adds is the
            // patch's own text, like its edits of upstream files
            added.keySet().removeIf(path -> !path.contains("/src/main/java/io/hotpath/"));
            ReleaseLine.Carried carried = line.carries().get(patch.name());
            if (carried == null) {
                assertThat(added.keySet()).as("%s adds our code but has no carries.%s in %s", patch.name(), patch.name(),
                    ReleaseLine.DESCRIPTOR).isEmpty();
                continue;
            }
            List<String> expected = new ArrayList<>();
            for (String file : carried.files()) {
                String path = carried.upstreamPath(file);
                expected.add(path);
                String ours = Files.readString(carried.ourSource(BuiltDistributions.projectRoot(), file), StandardCharsets.UTF_8);
                assertThat(added.get(path)).as("%s in %s vs %s/%s; %s", path, patch.name(), carried.ourModule(), file, REGENERATE)
                    .isEqualTo(ours);
            }
            assertThat(added.keySet()).as("files %s adds", patch.name()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void patchesKeepAnUpstreamStyleMessageWithAMeasuredResult() throws IOException {
        for (PatchSeries.Patch patch : PatchSeries.read(line.dir()).patches()) {
            String message = PatchGenerator.messagePart(Files.readString(patch.file(), StandardCharsets.UTF_8));
            assertThat(message).as("%s", patch.name()).startsWith("From ").contains("\nFrom: ", "\nDate: ",
                "\nSubject: [PATCH] ", "\nMotivation:\n", "\nModification:\n").containsAnyOf("\nResult (JMH ", "\n" + QuotedResults.NONE,
                "\nResult (campaign, ", "\n" + QuotedResults.CAMPAIGN_NONE);
        }
    }

    /** Repository path -> content of every file the patch creates (hunk "@@ -0,0 +1,N @@"). */
    static Map<String, String> newFiles(String patch) {
        Map<String, String> files = new LinkedHashMap<>();
        String[] lines = patch.split("\n", -1);
        String path = null;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("diff --git a/")) {
                path = null;
            } else if (lines[i].equals("--- /dev/null") && lines[i + 1].startsWith("+++ b/")) {
                path = lines[i + 1].substring("+++ b/".length());
            } else if (path != null) {
                Matcher hunk = NEW_FILE_HUNK.matcher(lines[i]);
                if (hunk.find()) {
                    int count = hunk.group(1) == null ? 1 : Integer.parseInt(hunk.group(1));
                    StringBuilder content = new StringBuilder();
                    for (int j = 1; j <= count; j++) {
                        content.append(lines[i + j].substring(1)).append('\n');
                    }
                    if (lines[i + count + 1].startsWith("\\ No newline at end of file")) {
                        content.setLength(content.length() - 1);
                    }
                    files.put(path, content.toString());
                    path = null;
                }
            }
        }
        return files;
    }
}
