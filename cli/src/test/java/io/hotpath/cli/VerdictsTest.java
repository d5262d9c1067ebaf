package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerdictsTest {

    private static final Path COMMITTED = Path.of("..", "docs", "results", "campaign-stock-patched-5.3.3-2026-11-27.json");
    private static final Path IDLE = Path.of("..", "docs", "results", "idle-5.5.1-2026-11-29.json");

    @Test
    void judgesEveryCampaignFileOfTheResultsFolderIntoTargetUnlessToldWhere(@TempDir Path root) throws Exception {
        Path results = Files.createDirectories(root.resolve("docs/results"));
        Files.copy(COMMITTED, results.resolve(COMMITTED.getFileName()));
        Files.writeString(results.resolve("jmh-x.json"), "[]");

        assertThat(Verdicts.run(root, List.of(), "bin/hotpath verdicts")).isZero();

        try (var written = Files.list(root.resolve("target/verdicts"))) {
            assertThat(written.map(p -> p.getFileName().toString()).toList()).hasSize(2)
                    .allMatch(name -> name.matches("verdicts-campaigns-\\d{4}-\\d{2}-\\d{2}\\.(md|json)"));
        }
        assertThat(Verdicts.committedCampaigns(results)).hasSize(1);
    }

    @Test
    void anIdleReportIsWrittenAgainUnderItsOwnNameAndIsNoCampaign(@TempDir Path root) throws Exception {
        Path results = Files.createDirectories(root.resolve("docs/results"));
        Path idle = results.resolve(IDLE.getFileName());
        Files.copy(IDLE, idle);

        assertThat(Verdicts.committedCampaigns(results)).isEmpty();
        assertThat(Verdicts.run(root, List.of("docs/results/" + IDLE.getFileName()), "bin/hotpath verdicts x")).isZero();

        Path md = root.resolve("target/verdicts/idle-5.5.1-2026-11-29.md");
        assertThat(Files.readString(md)).contains("Judged again on ").contains("by `bin/hotpath verdicts x`")
                .contains("of the baseline's median master CPU");
        assertThat(root.resolve("target/verdicts/idle-5.5.1-2026-11-29.json")).exists();
    }

    @Test
    void badInputIsOneLine(@TempDir Path root) {
        assertThatThrownBy(() -> Verdicts.run(root, List.of("--nope"), "")).isInstanceOf(UsageException.class)
                .hasMessage("unknown option '--nope' for verdicts (see bin/hotpath verdicts --help)");
        assertThatThrownBy(() -> Verdicts.run(root, List.of("missing.json"), "")).isInstanceOf(UsageException.class)
                .hasMessage("no such file: missing.json");
        assertThatThrownBy(() -> Verdicts.run(root, List.of("--out"), "")).isInstanceOf(UsageException.class);
    }
}
