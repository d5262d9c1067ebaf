package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Committed campaign files judged again: the old words beside the new, from the files' own round records. */
class CampaignRejudgementTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path FILE = ROOT.resolve("docs/results/campaign-5.3.3-2026-11-27.json");

    @Test
    void theFailedRoundThatGaveAnArmItsLowestCpuNoLongerCountsAndItsClaimFalls() {
        CampaignRejudgement.FileJudgement judged = CampaignRejudgement.judge(ROOT, FILE);

        // stock+tuned round 4 failed (4 unexpected failed sends) with the arm's lowest CPU, 299.4 us/msg; round 1 was cold
        assertThat(judged.excluded()).anySatisfy(e -> {
            assertThat(e.arm()).isEqualTo("stock+tuned");
            assertThat(e.round()).isEqualTo(4);
            assertThat(e.why()).containsExactly("the round failed");
        });
        CampaignRejudgement.Row cpu = judged.rows().stream()
                .filter(r -> r.arm().equals("stock+tuned") && r.metric().equals("masterCpuMicrosPerMsg")).findFirst().orElseThrow();
        assertThat(cpu.oldResolved()).isTrue();
        assertThat(cpu.oldVerdict()).startsWith("resolved: -7.8 %");
        assertThat(cpu.resolved()).isFalse();
        assertThat(cpu.countedRounds()).isEqualTo(2);
        assertThat(judged.stillResolved()).isLessThan(judged.oldResolved());
    }

    @Test
    void theReportListsEveryFileWithItsCountedRoundsAndLinksItFromWhereItIsWritten(@TempDir Path out) throws Exception {
        CampaignRejudgement.Judgement judgement = CampaignRejudgement.judge(ROOT, List.of(FILE));

        String markdown = CampaignRejudgement.markdown(judgement, "bin/hotpath verdicts", "2026-11-29", ROOT, ROOT.resolve("docs/results"));

        assertThat(markdown).contains("| [campaign-5.3.3-2026-11-27.json](campaign-5.3.3-2026-11-27.json) |")
                .contains("| w16 s1024 t8 | 4 | stock+tuned | the round failed |");
        assertThat(CampaignRejudgement.json(judgement)).contains("\"oldVerdict\"").contains("\"pHolm\"");
        Path notCampaign = Files.writeString(out.resolve("x.json"), "{\"a\": 1}");
        assertThatThrownBy(() -> CampaignRejudgement.judge(ROOT, notCampaign)).isInstanceOf(UsageException.class)
                .hasMessageContaining("is not a campaign.json");
    }
}
