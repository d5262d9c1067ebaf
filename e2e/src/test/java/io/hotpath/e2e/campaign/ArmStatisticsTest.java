package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rule a campaign judges two arms by: resolved only when the ranges are apart by more than the A/A spread. */
class ArmStatisticsTest {

    @Test
    void callsADifferenceResolvedOnlyWhenRangesSeparateByMoreThanTheAaSpread() {
        assertThat(ArmStatistics.verdict(List.of(100.0, 102.0, 104.0), List.of(80.0, 81.0, 82.0)))
                .startsWith("resolved: -20.6 %");
        assertThat(ArmStatistics.verdict(List.of(100.0, 110.0, 120.0), List.of(105.0, 115.0, 125.0)))
                .startsWith("not resolvable").contains("ranges overlap");
    }

    @Test
    void saysNotResolvableWithOneRoundPerArmWhateverTheDifference() {
        assertThat(ArmStatistics.verdict(List.of(100.0), List.of(50.0))).startsWith("not resolvable (fewer than 2 rounds");
        assertThat(ArmStatistics.verdict(List.of(), List.of(50.0))).isEqualTo("no data");
    }

    @Test
    void exactMetricsWithoutSpreadResolveAnyDifference() {
        assertThat(ArmStatistics.verdict(List.of(1232.0, 1232.0), List.of(1224.0, 1224.0))).startsWith("resolved: -0.6 %");
    }

    @Test
    void aResolvedVerdictGivesTheChanceThatEqualArmsSeparateAsFar() {
        assertThat(ArmStatistics.chanceOfSeparation(2, 2)).isCloseTo(1.0 / 3, offset(1e-9));
        assertThat(ArmStatistics.chanceOfSeparation(3, 3)).isCloseTo(0.1, offset(1e-9));
        assertThat(ArmStatistics.chanceOfSeparation(5, 5)).isCloseTo(2.0 / 252, offset(1e-9));
        assertThat(ArmStatistics.verdict(List.of(100.0, 104.0), List.of(80.0, 81.0))).endsWith("by chance with p = 0.33)");
        // exact metrics (no spread) carry no chance remark
        assertThat(ArmStatistics.verdict(List.of(1232.0, 1232.0), List.of(1224.0, 1224.0))).endsWith("(ranges do not overlap)");
    }

    @Test
    void aDifferenceTooSmallToShowIsNotResolvedEvenWithRangesApart() {
        // two paced arms that both kept up: ranges apart, spread ~0, a difference of 0.02 %
        assertThat(ArmStatistics.verdict(List.of(2499.4, 2499.6), List.of(2500.0, 2500.0)))
            .startsWith("not resolvable: +0.0 % within A/A spread 0.0 %");
        assertThat(ArmStatistics.verdict(List.of(2490.0, 2490.0), List.of(2500.0, 2500.0))).startsWith("resolved: +0.4 %");
    }
}
