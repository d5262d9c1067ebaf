package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostTest {

    private static final Path IDLE = Path.of("..", "docs", "results", "idle-stock-patched-5.5.1-2026-11-29.json");
    private static final Path CAMPAIGN = Path.of("..", "docs", "results", "campaign-stock-patched-5.5.1-2026-11-28.json");

    @Test
    void readsCommittedFilesAndWritesTheModelsIntoTargetUnlessToldWhere(@TempDir Path root) throws Exception {
        Files.copy(IDLE, root.resolve("idle.json"));
        Files.copy(CAMPAIGN, root.resolve("campaign.json"));

        assertThat(Cost.run(root, List.of("--idle", "idle.json", "--campaign", "campaign.json"), "bin/hotpath cost")).isZero();

        Path md = root.resolve("target/cost/cost-5.5.1-" + java.time.LocalDate.now(java.time.ZoneOffset.UTC) + ".md");
        // that idle report counted no round: every arm's points are at 2500 msg/s only
        assertThat(Files.readString(md)).contains("| stock | 0 + ").contains("no model: counted rounds at one rate only");
    }

    @Test
    void badInputIsOneLine(@TempDir Path root) {
        assertThatThrownBy(() -> Cost.run(root, List.of("--nope"), "")).isInstanceOf(UsageException.class)
                .hasMessage("unknown option '--nope' for cost (see bin/hotpath cost --help)");
        assertThatThrownBy(() -> Cost.run(root, List.of("--idle", "missing.json"), "")).isInstanceOf(UsageException.class)
                .hasMessage("no such file: missing.json");
        assertThatThrownBy(() -> Cost.run(root, List.of("--campaign"), "")).isInstanceOf(UsageException.class)
                .hasMessage("option --campaign needs a file (see bin/hotpath cost --help)");
        assertThatThrownBy(() -> Cost.run(root, List.of(), "")).isInstanceOf(UsageException.class)
                .hasMessage("no result files: give --idle and --campaign files");
    }
}
