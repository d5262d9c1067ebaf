package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatenessTest {

    private static final Path CAMPAIGN = Path.of("..", "docs", "results", "campaign-250-5.3.3-2026-11-30.json");

    @Test
    void readsACommittedCampaignAndWritesIntoTargetUnlessToldWhere(@TempDir Path root) throws Exception {
        Files.copy(CAMPAIGN, root.resolve("campaign.json"));

        assertThat(Lateness.run(root, List.of("campaign.json"), "bin/hotpath lateness campaign.json")).isZero();

        Path md = root.resolve("target/lateness/lateness-" + java.time.LocalDate.now(java.time.ZoneOffset.UTC) + ".md");
        assertThat(Files.readString(md)).contains("| campaign.json | stock | 250 |").contains("| timer | p50 | patched+tuned vs stock | 1 |");
    }

    @Test
    void badInputIsOneLine(@TempDir Path root) {
        assertThatThrownBy(() -> Lateness.run(root, List.of("--nope"), "")).isInstanceOf(UsageException.class)
                .hasMessage("unknown option '--nope' for lateness (see bin/hotpath lateness --help)");
        assertThatThrownBy(() -> Lateness.run(root, List.of("missing.json"), "")).isInstanceOf(UsageException.class)
                .hasMessage("no such file: missing.json");
        assertThatThrownBy(() -> Lateness.run(root, List.of("--out"), "")).isInstanceOf(UsageException.class)
                .hasMessage("option --out needs a folder (see bin/hotpath lateness --help)");
        assertThatThrownBy(() -> Lateness.run(root, List.of(), "")).isInstanceOf(UsageException.class)
                .hasMessage("no campaign files given (see bin/hotpath lateness --help)");
    }
}
