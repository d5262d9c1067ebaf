package io.hotpath.e2e.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.cli.CampaignOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CampaignReportTest {

    @Test
    void callsADifferenceResolvedOnlyWhenRangesSeparateByMoreThanTheAaSpread() {
        assertThat(CampaignReport.verdict(List.of(100.0, 102.0, 104.0), List.of(80.0, 81.0, 82.0)))
                .startsWith("resolved: -20.6 %");
        assertThat(CampaignReport.verdict(List.of(100.0, 110.0, 120.0), List.of(105.0, 115.0, 125.0)))
                .startsWith("not resolvable").contains("ranges overlap");
    }

    @Test
    void saysNotResolvableWithOneRoundPerArmWhateverTheDifference() {
        assertThat(CampaignReport.verdict(List.of(100.0), List.of(50.0))).startsWith("not resolvable (fewer than 2 rounds");
        assertThat(CampaignReport.verdict(List.of(), List.of(50.0))).isEqualTo("no data");
    }

    @Test
    void exactMetricsWithoutSpreadResolveAnyDifference() {
        assertThat(CampaignReport.verdict(List.of(1232.0, 1232.0), List.of(1224.0, 1224.0))).startsWith("resolved: -0.6 %");
    }

    @Test
    void drawsAPngChart() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "test-charts"));
        Path file = dir.resolve("tps.png");
        BarChart.write(file, "TPS", "msg/s", List.of("stock", "patched"), List.of(
                new BarChart.Group("w16 s1024", List.of(new BarChart.Bar("stock", List.of(900.0, 950.0)),
                        new BarChart.Bar("patched", List.of(1000.0, 1010.0))))));

        byte[] png = Files.readAllBytes(file);
        assertThat(png).hasSizeGreaterThan(1000);
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void reportTitleAndJsonNameTheNetwork() {
        CampaignReport empty = new CampaignReport(List.of(), List.of("stock", "patched"));

        assertThat(empty.markdown(CampaignOptions.parse(), "4.9.8", "- header")).startsWith("# Campaign: stock vs patched RocketMQ 4.9.8 (2m-2s, loopback)");
        assertThat(empty.markdown(CampaignOptions.parse("--net", "realistic"), "4.9.0", "- header")).contains("(2m-2s, realistic)");
        assertThat(empty.json(CampaignOptions.parse("--net", "realistic"), "4.9.0")).startsWith("{\n  \"net\": \"realistic\",\n  \"release\": \"4.9.0\",\n");
    }

    @Test
    void aResolvedVerdictGivesTheChanceThatEqualArmsSeparateAsFar() {
        assertThat(CampaignReport.chanceOfSeparation(2, 2)).isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(CampaignReport.chanceOfSeparation(3, 3)).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(CampaignReport.chanceOfSeparation(5, 5)).isCloseTo(2.0 / 252, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(CampaignReport.verdict(List.of(100.0, 104.0), List.of(80.0, 81.0))).endsWith("by chance with p = 0.33)");
        // exact metrics (no spread) carry no chance remark
        assertThat(CampaignReport.verdict(List.of(1232.0, 1232.0), List.of(1224.0, 1224.0))).endsWith("(ranges do not overlap)");
    }
}
