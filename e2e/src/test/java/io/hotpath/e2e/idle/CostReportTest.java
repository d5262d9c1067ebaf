package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.measure.OtherCpu;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cost models from an idle report written by {@link IdleReport} and a campaign.json of the campaign's round fields: only
 * the rounds the verdict rules count become points (a busy idle round and a failed campaign round would tilt the line).
 */
class CostReportTest {

    private static final OtherCpu QUIET = new OtherCpu(null, 2, 120_000_000, 10_000_000, 10_000_000, 0, 9_900_000, 6);
    private static final OtherCpu BUSY = new OtherCpu(null, 2, 120_000_000, 39_900_000, 39_900_000, 0, 9_900_000, 6);

    private Path root;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "cost-");
    }

    private static IdleRound idleRound(int round, String arm, double masterMs, OtherCpu other) {
        Map<String, IdleFigures.Group> groups = new LinkedHashMap<>();
        groups.put("ReputMessageSer", new IdleFigures.Group(1, masterMs, 800));
        groups.put(ThreadGroupCpu.EXITED, new IdleFigures.Group(0, 0, 0));
        IdleFigures.Role role = new IdleFigures.Role(1, masterMs, masterMs, 0, 800, 800, 0, groups);
        Map<String, IdleFigures.Role> roles = new LinkedHashMap<>();
        roles.put(IdleFigures.MASTER, role);
        roles.put(IdleFigures.SLAVE, role);
        roles.put(IdleFigures.NAMESRV, role);
        return new IdleRound(round, arm, "5.5.1", arm, "r" + round + "-" + arm, other.load().label(), 120,
                new IdleFigures(60, roles, other, 0.01));
    }

    private Path idleFile() throws IOException {
        IdleReport.Setup setup = new IdleReport.Setup("bin/hotpath idle", "2026-11-29", "5.5.1", List.of("stock", "patched"), List.of(),
                2, 60, 300, 60, 2);
        IdleReport report = new IdleReport(setup, List.of(idleRound(1, "stock", 80, QUIET), idleRound(1, "patched", 10, QUIET),
                idleRound(2, "patched", 10, QUIET), idleRound(2, "stock", 80, QUIET), idleRound(3, "stock", 300, BUSY)));
        return report.write(root.resolve("idle")).resolveSibling("idle-5.5.1-2026-11-29.json");
    }

    private static JsonObject campaignRound(int round, String arm, String result, double tps, double microsPerMessage) {
        JsonObject r = new JsonObject();
        r.addProperty("scenario", "w16 s1024 t8");
        r.addProperty("round", round);
        r.addProperty("arm", arm);
        r.addProperty("result", result);
        r.addProperty("lost", 0);
        r.addProperty("machine", "quiet");
        r.addProperty("masterJitShare", 0.02);
        r.addProperty("tps", tps);
        r.addProperty("masterCpuMicrosPerMsg", microsPerMessage);
        return r;
    }

    private Path campaignFile(JsonObject... rounds) throws IOException {
        return campaignFile(2500, rounds);
    }

    private Path campaignFile(int rate, JsonObject... rounds) throws IOException {
        JsonObject campaign = new JsonObject();
        campaign.addProperty("release", "5.5.1");
        campaign.addProperty("rate", rate);
        JsonArray arms = new JsonArray();
        arms.add("stock");
        arms.add("patched");
        campaign.add("arms", arms);
        JsonArray all = new JsonArray();
        for (JsonObject r : rounds) {
            all.add(r);
        }
        campaign.add("rounds", all);
        Path file = root.resolve("campaign.json");
        Files.writeString(file, campaign.toString());
        return file;
    }

    @Test
    void countedRoundsArePointsAndEachArmGetsItsLine() throws IOException {
        // stock: 80 ms/s idle; 400 us/msg at 2500 msg/s = 1250 per master = 500 ms/s; the failed round (900) is no point
        Path campaign = campaignFile(campaignRound(1, "stock", "PASS", 2500, 400), campaignRound(1, "patched", "PASS", 2500, 300),
                campaignRound(2, "patched", "PASS", 2500, 300), campaignRound(2, "stock", "PASS", 2500, 400),
                campaignRound(3, "stock", "FAIL", 2500, 900));

        CostReport.Json report = CostReport.of(root, List.of(idleFile()), List.of(campaign), "bin/hotpath cost", "2026-11-29");

        assertThat(report.release()).isEqualTo("5.5.1");
        assertThat(report.sources()).extracting(CostReport.Source::countedPerArm)
                .containsExactly(Map.of("stock", 2, "patched", 2), Map.of("stock", 2, "patched", 2));
        CostReport.ArmModel stock = report.arms().get(0);
        assertThat(stock.arm()).isEqualTo("stock");
        assertThat(stock.model().fixedMsPerSecond()).isCloseTo(80, offset(1e-9));
        assertThat(stock.model().marginalMicrosPerMessage()).isCloseTo(336, offset(1e-9));
        assertThat(stock.model().degreesOfFreedom()).isEqualTo(2);
        // at 250 msg/s (125 per master): 80 + 0.336 x 125 = 122 ms/s over 125 msg/s = 976 us/msg
        assertThat(stock.predicted().get(250)).isCloseTo(976, offset(1e-9));
        assertThat(stock.predicted().get(2500)).isCloseTo(400, offset(1e-9));
        CostReport.ArmModel patched = report.arms().get(1);
        assertThat(patched.model().fixedMsPerSecond()).isCloseTo(10, offset(1e-9));
        assertThat(patched.model().marginalMicrosPerMessage()).isCloseTo(292, offset(1e-9));
        assertThat(CostReport.markdown(report)).contains("| stock | 2 + 2 | 80.0 | 336.0 | 0.0 | 2 | 976.0 | 400.0 |");
    }

    @Test
    void aReadOffAboveEveryCountedRateSaysItIsExtrapolated() throws IOException {
        Path campaign = campaignFile(250, campaignRound(1, "stock", "PASS", 251, 1000), campaignRound(1, "patched", "PASS", 249, 700),
                campaignRound(2, "patched", "PASS", 250, 700), campaignRound(2, "stock", "PASS", 250, 1000));

        String md = CostReport.markdown(CostReport.of(root, List.of(idleFile()), List.of(campaign), "bin/hotpath cost", "2026-11-29"));

        // the 250 read-off is within the acknowledged rates; 2500 is ten times past them
        assertThat(md).containsPattern("\\| stock \\| 2 \\+ 2 \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.na/]+ \\| 2 \\| [0-9.]+ \\| [0-9.]+ \\(extrapolated\\) \\|");
        // the control: the 2500 campaign's models read off at 2500 are not extrapolated
        Path at2500 = campaignFile(campaignRound(1, "stock", "PASS", 2500, 400), campaignRound(1, "patched", "PASS", 2500, 300));
        assertThat(CostReport.markdown(CostReport.of(root, List.of(idleFile()), List.of(at2500), "c", "d"))).doesNotContain("| 400.0 (extrapolated)")
                .contains("| 400.0 |");
    }

    @Test
    void anArmWithPointsAtOneRateHasNoModelAndMixedLinesAreRefused() throws IOException {
        Path campaign = campaignFile(campaignRound(1, "stock", "PASS", 2500, 400), campaignRound(1, "patched", "FAIL", 2500, 300));

        CostReport.Json report = CostReport.of(root, List.of(), List.of(campaign), "bin/hotpath cost", "2026-11-29");

        assertThat(report.arms()).extracting(CostReport.ArmModel::noModel)
                .containsExactly("counted rounds at one rate only", "no counted round");
        Path other = root.resolve("other.json");
        Files.writeString(other, Files.readString(campaign).replace("\"5.5.1\"", "\"5.3.3\""));
        assertThatThrownBy(() -> CostReport.of(root, List.of(), List.of(campaign, other), "c", "d")).isInstanceOf(UsageException.class)
                .hasMessageContaining("different releases");
        assertThatThrownBy(() -> CostReport.of(root, List.of(campaign), List.of(), "c", "d")).isInstanceOf(UsageException.class)
                .hasMessageContaining("is not an idle report");
    }
}
