package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import io.hotpath.e2e.campaign.CampaignVerdicts;
import io.hotpath.e2e.campaign.RoundFigures;
import io.hotpath.e2e.measure.OtherCpu;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class IdleReportTest {

    private static final OtherCpu QUIET = new OtherCpu(null, 2, 120_000_000, 10_000_000, 10_000_000, 0, 9_900_000, 6);
    private static final OtherCpu BUSY = new OtherCpu(null, 2, 120_000_000, 39_900_000, 39_900_000, 0, 9_900_000, 6);
    private static final IdleReport.Setup SETUP = new IdleReport.Setup("bin/hotpath idle --rounds 3", "2026-11-29", "5.5.1",
            List.of("stock", "patched"), List.of("stock: broker-dist/target/rocketmq-5.5.1-stock", "patched: ..."), 3, 60, 300, 60, 2);

    /** A role whose CPU is {@code ms} ms/s: Reput 40 %, TimerFlush 30 %, the rest spread over small groups. */
    private static IdleFigures.Role role(double ms, double wakeups) {
        Map<String, IdleFigures.Group> groups = new LinkedHashMap<>();
        groups.put("ReputMessageSer", new IdleFigures.Group(1, 0.4 * ms, 0.8 * wakeups));
        groups.put("TimerFlushServi", new IdleFigures.Group(1, 0.3 * ms, 0.1 * wakeups));
        for (int i = 0; i < 30; i++) {
            groups.put("Small" + (char) ('A' + i), new IdleFigures.Group(1, 0.3 * ms / 30, 0.1 * wakeups / 30));
        }
        groups.put(ThreadGroupCpu.EXITED, new IdleFigures.Group(0, 0, 0));
        return new IdleFigures.Role(1, ms, 0.7 * ms, 0.3 * ms, wakeups, 0.9 * wakeups, 0.1 * wakeups, groups);
    }

    private static IdleRound round(int round, String arm, double masterMs, OtherCpu other) {
        Map<String, IdleFigures.Role> roles = new LinkedHashMap<>();
        roles.put(IdleFigures.MASTER, role(masterMs, 10 * masterMs));
        roles.put(IdleFigures.SLAVE, role(masterMs / 2, 5 * masterMs));
        roles.put(IdleFigures.NAMESRV, role(1 + masterMs / 100, 20 + masterMs / 10));
        roles.put(IdleFigures.CONTROLLER, role(2, 30));
        IdleFigures figures = new IdleFigures(60, roles, other, 0.01);
        return new IdleRound(round, arm, "5.5.1", arm, "/x/idle-1/r" + round + "-" + arm, other.load().label(), 90, figures);
    }

    /** A quiet round whose masters' compiler used {@code jitShare} of their {@code masterMs}. */
    private static IdleRound jitRound(int round, String arm, double masterMs, double jitShare) {
        IdleRound plain = round(round, arm, masterMs, QUIET);
        IdleFigures f = plain.figures();
        return new IdleRound(round, arm, "5.5.1", arm, plain.runDir(), plain.machine(), 300,
                new IdleFigures(f.seconds(), f.roles(), f.otherCpu(), jitShare));
    }

    private static List<IdleRound> rounds(double[] stock, double[] patched, OtherCpu other) {
        List<IdleRound> rounds = new ArrayList<>();
        for (int i = 0; i < stock.length; i++) {
            rounds.add(round(i + 1, "stock", stock[i], other));
            rounds.add(round(i + 1, "patched", patched[i], other));
        }
        return rounds;
    }

    @Test
    void perRoleFiguresCarryRoundsMedianRangePAndTheCampaignsVerdict() {
        IdleReport report = new IdleReport(SETUP, rounds(new double[] {80, 77, 89}, new double[] {8, 9, 10}, QUIET));

        String md = report.markdown();

        assertThat(md).startsWith("# Idle cost: stock vs patched RocketMQ 5.5.1 (2m-2s, loopback, no load)\n");
        assertThat(md).contains("| master CPU (ms/s per master) | stock | 3 | 80.0 | 77.0 | 89.0 |  |  |  | (baseline) |");
        // 3 vs 3 apart: p = 2 / C(6, 3) = 0.10, Holm over the 6 metrics: 0.60; indicative, never resolved
        assertThat(md).contains("| master CPU (ms/s per master) | patched | 3 | 9.00 | 8.00 | 10.0 | 0.113 | 0.10 | 0.60 | indicative:");
        assertThat(md).contains("| slave wake-ups (context switches/s per slave) | patched | 3 |");
        assertThat(md).contains("Every round counts.");
        assertThat(report.comparisons()).filteredOn(c -> c.verdict() != null).hasSize(IdleReport.METRICS.size())
                .allSatisfy(c -> assertThat(c.resolved()).isFalse());
    }

    @Test
    void fiveRoundsPerArmApartResolveEvenAfterHolmOverTheSixMetrics() {
        IdleReport report = new IdleReport(SETUP, rounds(new double[] {80, 77, 89, 84, 79}, new double[] {8, 9, 10, 9.5, 8.5}, QUIET));

        assertThat(report.comparisons()).filteredOn(c -> c.verdict() != null).hasSize(6)
                .allSatisfy(c -> assertThat(c.verdict()).startsWith("resolved"));
    }

    @Test
    void threadTablesNameTheLargestGroupsFirstAndSumTheRestAsOther() {
        String md = new IdleReport(SETUP, rounds(new double[] {80, 77, 89}, new double[] {8, 9, 10}, QUIET)).markdown();

        String masters = md.substring(md.indexOf("## Masters: CPU per thread group"), md.indexOf("## Masters: wake-ups"));
        assertThat(masters).contains("| thread group | stock | patched |\n|---|---:|---:|\n| ReputMessageSer | 32.00 | 3.60 |\n"
                + "| TimerFlushServi | 24.00 | 2.70 |\n| other | 24.00 | 2.70 |\n| exited threads | 0.00 | 0.00 |\n"
                + "| master, whole process | 80.00 | 9.00 |\n| rounds | 3 | 3 |\n");
        assertThat(md).contains("## Slaves: CPU per thread group, ms/s per slave").contains("## Name server: wake-ups per thread group");
    }

    @Test
    void aBusyRoundIsShownButNotCountedAndWithoutCountedRoundsTheTablesSaySo() {
        List<IdleRound> rounds = new ArrayList<>(rounds(new double[] {80, 77}, new double[] {8, 9}, QUIET));
        rounds.add(round(3, "stock", 300, BUSY));
        String md = new IdleReport(SETUP, rounds).markdown();

        assertThat(md).contains("1 of 5 rounds do not count").contains("| 3 | stock | no: busy machine | 25.0 % of the machine: busy (steal 0.0 %, counted as other) | 90 |");
        assertThat(md).contains("| master CPU (ms/s per master) | stock | 2 | 78.5 |");

        String allBusy = new IdleReport(SETUP, rounds(new double[] {80}, new double[] {8}, BUSY)).markdown();
        assertThat(allBusy).contains("**no round counts: medians over every round, for orientation only, not a result**");
        assertThat(allBusy).contains("| ReputMessageSer | 32.00 | 3.20 |");
    }

    @Test
    void everyArmIsAllowedTheSameJitCpuFivePercentOfTheBaselinesMedian() {
        // stock masters at 100 ms/s with a JIT of 2.5; patched at 50 ms/s with 4 (8 % of its own CPU) and 6 ms/s
        List<IdleRound> rounds = List.of(jitRound(1, "stock", 100, 0.025), jitRound(1, "patched", 50, 0.08),
                jitRound(2, "stock", 100, 0.025), jitRound(2, "patched", 50, 0.12));

        String md = new IdleReport(SETUP, rounds).markdown();

        assertThat(md).contains("(5.00 ms/s per master: the same allowance in every arm");
        assertThat(md).contains("| 1 | patched | yes |").contains("| 4.00 ms/s, 8.0 % |");
        assertThat(md).contains("| 2 | patched | no: not warm (JIT 6.0 % of the baseline's median master CPU, 100 ms/s per master, warm below 5 %) |");
        // the control: a share of each round's own CPU would drop the cheaper arm's round 1 for its compiler alone
        assertThat(rounds.get(1).verdictFigures(IdleReport.METRICS).exclusions())
                .containsExactly("not warm (JIT 8.0 % of master CPU, warm below 5 %)");
        // the basis: the baseline's rounds that count but for the JIT (a busy one does not)
        assertThat(RoundFigures.baselineMedian(Stream.of(jitRound(1, "stock", 90, 0.01), jitRound(2, "stock", 110, 0.01),
                round(3, "stock", 300, BUSY)).map(r -> r.verdictFigures(IdleReport.METRICS)).toList(), "stock", IdleRound.SCENARIO,
                "masterCpuMsPerSec")).isEqualTo(100);
        assertThat(RoundFigures.baselineMedian(List.of(round(1, "stock", 300, BUSY).verdictFigures(IdleReport.METRICS)), "stock",
                IdleRound.SCENARIO, "masterCpuMsPerSec")).isEqualTo(-1);
    }

    @Test
    void theJsonIsTheTypedRecordAndReadsBack() throws IOException {
        IdleReport report = new IdleReport(SETUP, rounds(new double[] {80, 77, 89}, new double[] {8, 9, 10}, QUIET));
        Files.createDirectories(Path.of("target"));
        Path dir = Files.createTempDirectory(Path.of("target"), "idle-report-");

        Path md = report.write(dir);

        assertThat(md.getFileName().toString()).isEqualTo("idle-5.5.1-2026-11-29.md");
        IdleReport.Json json = new Gson().fromJson(Files.readString(dir.resolve("idle-5.5.1-2026-11-29.json")), IdleReport.Json.class);
        assertThat(json.kind()).isEqualTo("idle");
        assertThat(json.setup()).isEqualTo(SETUP);
        assertThat(json.baseline()).isEqualTo("stock");
        assertThat(json.rounds()).hasSize(6);
        assertThat(json.rounds().get(1).figures().cpu(IdleFigures.MASTER)).isEqualTo(8.0);
        assertThat(json.rounds().get(1).figures().roles().get(IdleFigures.MASTER).groups()).containsKey("ReputMessageSer");
        assertThat(json.comparisons()).extracting(CampaignVerdicts.Comparison::metric).contains("masterCpuMsPerSec", "namesrvWakeupsPerSec");
        assertThat(json.verdictRules().keySet()).containsExactly("minRoundsPerArm", "alpha", "test", "counted");
        assertThat(Files.readString(dir.resolve("idle-5.5.1-2026-11-29.json"))).contains("each arm's metrics");
    }
}
