package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundFiguresTest {

    private static RoundFigures round(int round, String arm, String machine, double microsPerMessage, double jitShare) {
        return new RoundFigures("w16 s1024 t8", round, arm, true, List.of(), 0, machine, jitShare,
                Map.of("masterCpuMicrosPerMsg", microsPerMessage));
    }

    @Test
    void everyArmIsAllowedTheSameJitCpuFivePercentOfTheBaselinesMedian() {
        // stock at 1200 us/msg compiling 48 (4 %); patched+tuned at 850 compiling 51 (6 % of its own, 4.25 % of stock's)
        // and 68 (8 %, 5.7 % of stock's); a busy stock round at 2000 is no part of the basis
        List<RoundFigures> rounds = List.of(round(1, "stock", "quiet", 1100, 0.04), round(1, "patched+tuned", "quiet", 850, 0.06),
                round(2, "stock", "quiet", 1300, 0.04), round(2, "patched+tuned", "quiet", 850, 0.08),
                round(3, "stock", "busy", 2000, 0.01));

        CampaignVerdicts verdicts = new CampaignVerdicts(rounds, List.of("stock", "patched+tuned"), CampaignReport.METRICS,
                CampaignReport.JIT_BASIS);

        assertThat(RoundFigures.baselineMedian(rounds, "stock", "w16 s1024 t8", "masterCpuMicrosPerMsg")).isEqualTo(1200);
        assertThat(verdicts.counted("w16 s1024 t8", "patched+tuned")).extracting(RoundFigures::round).containsExactly(1);
        assertThat(verdicts.exclusions()).extracting(CampaignVerdicts.Exclusion::why).containsExactly(
                List.of("not warm (JIT 5.7 % of the baseline's median master CPU, 1200 us/msg, warm below 5 %)"), List.of("busy machine"));
        // the control: each round's own CPU as the basis drops the cheaper arm's round 1 for its compiler alone
        CampaignVerdicts own = new CampaignVerdicts(rounds, List.of("stock", "patched+tuned"), CampaignReport.METRICS, null);
        assertThat(own.counted("w16 s1024 t8", "patched+tuned")).isEmpty();
        assertThat(own.exclusions().get(0).why()).containsExactly("not warm (JIT 6.0 % of master CPU, warm below 5 %)");
    }
}
