package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder's record as its reader (module cli's BuildBroker.Outcome) takes it: these four fields, JSON-escaped. */
class BuildOutcomeTest {

    @TempDir
    Path target;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path file) throws Exception {
        return new Gson().fromJson(Files.readString(file), Map.class);
    }

    @Test
    void aBuiltRunNamesEachDistributionAndNoError() throws Exception {
        Map<String, Path> built = new LinkedHashMap<>();
        built.put("stock", Path.of("/t/rocketmq-4.9.0-stock"));
        built.put("patched", Path.of("/t/rocketmq-4.9.0-patched"));
        new BuildOutcome("4.9.0", built, Path.of("/t/upstream/4.9.0/upstream-tests.md"), null).write(target);

        Map<String, Object> json = read(target.resolve("build-outcome-4.9.0.json"));
        assertThat(json).containsOnlyKeys("release", "distributions", "testReport", "error");
        assertThat(json.get("release")).isEqualTo("4.9.0");
        assertThat(json.get("distributions")).isEqualTo(Map.of("stock", "/t/rocketmq-4.9.0-stock", "patched", "/t/rocketmq-4.9.0-patched"));
        assertThat(json.get("testReport")).isEqualTo("/t/upstream/4.9.0/upstream-tests.md");
        assertThat(json.get("error")).isNull();
    }

    @Test
    void aFailedRunCarriesItsReasonWhole() throws Exception {
        String reason = "patch \"0001\" does not apply:\n\tat line 3 \\ here";
        new BuildOutcome("5.3.3", Map.of(), null, reason).write(target);

        Map<String, Object> json = read(BuildOutcome.file(target, "5.3.3"));
        assertThat(json.get("error")).isEqualTo(reason);
        assertThat(json.get("distributions")).isEqualTo(Map.of());
        assertThat(json.get("testReport")).isNull();
    }
}
