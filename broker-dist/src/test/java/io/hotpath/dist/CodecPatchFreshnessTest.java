package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/**
 * The committed {@code 0001-common-message-properties-codec.patch},
 * {@code 0002-broker-send-header-direct-decode.patch} and {@code 0003-store-trim-persisted-properties.patch}
 * must be what {@code patches/regenerate.sh} makes of today's hotpath-codec and hotpath-store sources: otherwise the broker would ship a codec or decoder other
 * than the one hotpath-codec's suites and JMH measured.
 */
class CodecPatchFreshnessTest {

    private static final String REGENERATE = "the committed patch is stale: run patches/regenerate.sh";
    private static final Pattern NEW_FILE_HUNK = Pattern.compile("^@@ -0,0 \\+1(?:,(\\d+))? @@");

    private static Path committedPatch() {
        return BuiltDistributions.patchesDir().resolve(CodecPatchGenerator.PATCH_NAME);
    }

    @Test
    void patchAddsExactlyThe490CodecFilesByteForByte() throws IOException {
        Map<String, String> added = newFiles(Files.readString(committedPatch(), StandardCharsets.UTF_8));
        List<String> expectedPaths = new ArrayList<>();
        for (String file : CodecPatchGenerator.CODEC_FILES) {
            String path = CodecPatchGenerator.CODEC_DIR + file;
            expectedPaths.add(path);
            String module = Files.readString(BuiltDistributions.codecSources().resolve("io/hotpath/codec").resolve(file),
                StandardCharsets.UTF_8);
            assertThat(added.get(path)).as("%s in the patch vs hotpath-codec's %s; %s", path, file, REGENERATE)
                .isEqualTo(module);
        }
        assertThat(added.keySet()).as("files the patch adds").containsExactlyInAnyOrderElementsOf(expectedPaths);
    }

    @Test
    void committedPatchIsWhatRegenerationProduces() throws IOException {
        String committed = Files.readString(committedPatch(), StandardCharsets.UTF_8);
        String regenerated = CodecPatchGenerator.generate(BuiltDistributions.upstreamSourcesJar("common"),
            BuiltDistributions.codecSources(), committed, BuiltDistributions.target().resolve("patch-freshness"));
        assertThat(committed).as(REGENERATE).isEqualTo(regenerated);
    }

    @Test
    void sendHeaderPatchAddsExactlyTheDecoderFilesByteForByte() throws IOException {
        Map<String, String> added = newFiles(Files.readString(committedSendHeaderPatch(), StandardCharsets.UTF_8));
        List<String> expectedPaths = new ArrayList<>();
        for (String file : SendHeaderPatchGenerator.HEADER_FILES) {
            String path = SendHeaderPatchGenerator.HEADER_DIR + file;
            expectedPaths.add(path);
            String module = Files.readString(BuiltDistributions.codecSources().resolve("io/hotpath/codec/header").resolve(file),
                StandardCharsets.UTF_8);
            assertThat(added.get(path)).as("%s in the patch vs hotpath-codec's header/%s; %s", path, file, REGENERATE)
                .isEqualTo(module);
        }
        assertThat(added.keySet()).as("files the patch adds").containsExactlyInAnyOrderElementsOf(expectedPaths);
    }

    @Test
    void committedSendHeaderPatchIsWhatRegenerationProduces() throws IOException {
        String committed = Files.readString(committedSendHeaderPatch(), StandardCharsets.UTF_8);
        String regenerated = SendHeaderPatchGenerator.generate(BuiltDistributions.upstreamSourcesJar("broker"),
            BuiltDistributions.codecSources(), committed, BuiltDistributions.target().resolve("patch-freshness"));
        assertThat(committed).as(REGENERATE).isEqualTo(regenerated);
    }

    @Test
    void storePatchAddsExactlyThePersistedPropertiesFilesByteForByte() throws IOException {
        Map<String, String> added = newFiles(Files.readString(committedStorePatch(), StandardCharsets.UTF_8));
        List<String> expectedPaths = new ArrayList<>();
        for (String file : StorePatchGenerator.STORE_FILES) {
            String path = StorePatchGenerator.STORE_DIR + file;
            expectedPaths.add(path);
            String module = Files.readString(BuiltDistributions.storeSources().resolve("io/hotpath/store").resolve(file),
                StandardCharsets.UTF_8);
            assertThat(added.get(path)).as("%s in the patch vs hotpath-store's %s; %s", path, file, REGENERATE)
                .isEqualTo(module);
        }
        assertThat(added.keySet()).as("files the patch adds").containsExactlyInAnyOrderElementsOf(expectedPaths);
    }

    @Test
    void committedStorePatchIsWhatRegenerationProduces() throws IOException {
        String committed = Files.readString(committedStorePatch(), StandardCharsets.UTF_8);
        String regenerated = StorePatchGenerator.generate(BuiltDistributions.upstreamSourcesJar("store"),
            BuiltDistributions.upstreamSourcesJar("broker"), BuiltDistributions.storeSources(), committed,
            BuiltDistributions.target().resolve("patch-freshness"));
        assertThat(committed).as(REGENERATE).isEqualTo(regenerated);
    }

    private static Path committedStorePatch() {
        return BuiltDistributions.patchesDir().resolve(StorePatchGenerator.PATCH_NAME);
    }

    @Test
    void patchesKeepAnUpstreamStyleMessageWithAMeasuredResult() throws IOException {
        for (Path patch : List.of(committedPatch(), committedSendHeaderPatch(), committedStorePatch())) {
            String message = CodecPatchGenerator.messagePart(Files.readString(patch, StandardCharsets.UTF_8));
            assertThat(message).as("%s", patch.getFileName()).startsWith("From ").contains("\nFrom: ", "\nDate: ",
                "\nSubject: [PATCH] ", "\nMotivation:\n", "\nModification:\n", "\nResult (JMH ")
                // the Result quotes a measured before -> after, with allocation (STYLE.md 16)
                .contains(" -> ", "ns/op", "B/op");
        }
    }

    private static Path committedSendHeaderPatch() {
        return BuiltDistributions.patchesDir().resolve(SendHeaderPatchGenerator.PATCH_NAME);
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
