package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hotpath.e2e.campaign.CampaignReport.ArmRound;
import io.hotpath.e2e.campaign.CampaignVerdicts.Comparison;
import io.hotpath.e2e.check.DeliveryAudit;
import io.hotpath.e2e.check.DeliveryLateness;
import io.hotpath.e2e.check.WarmupVerdict;
import io.hotpath.e2e.load.TimedSends;
import io.hotpath.e2e.measure.AllocationSites;
import io.hotpath.e2e.run.RoundResult;
import io.hotpath.e2e.run.SyntheticResults.Figures;
import io.hotpath.e2e.run.SyntheticResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignReportTest {

    private static final List<Arm> ONE_LINE_498 = List.of(new Arm("stock", "4.9.8", "stock"), new Arm("patched", "4.9.8", "patched"));
    private static final String SCENARIO = "w16 s1024 t8";
    private static final String MASTER_CPU = "master CPU (user + system) (us/msg)";
    private static final Arm STOCK_490 = new Arm("4.9.0 stock", "4.9.0", "stock");
    private static final Arm PATCHED_490 = new Arm("4.9.0 patched", "4.9.0", "patched");
    private static final Arm STOCK_498 = new Arm("4.9.8 stock", "4.9.8", "stock");
    private static final Arm PATCHED_498 = new Arm("4.9.8 patched", "4.9.8", "patched");
    private static final List<Arm> CROSS_LINE = List.of(STOCK_490, PATCHED_490, STOCK_498, PATCHED_498);

    @TempDir
    Path dir;

    /** Rounds 1, 2, ... of one arm, in the order a campaign would have run them. */
    private List<ArmRound> rounds(Arm arm, Figures... figures) {
        List<ArmRound> rounds = new ArrayList<>();
        for (int i = 0; i < figures.length; i++) {
            Path runDir = dir.resolve("r" + (i + 1) + "-" + arm.label().replace(' ', '-'));
            rounds.add(new ArmRound(SCENARIO, i + 1, arm, SyntheticResults.result(runDir, figures[i])));
        }
        return rounds;
    }

    private static Figures cpu(double masterCpuMicrosPerMsg) {
        return Figures.cpu(masterCpuMicrosPerMsg);
    }

    private CampaignReport crossLineReport() {
        List<ArmRound> rounds = new ArrayList<>();
        rounds.addAll(rounds(STOCK_490, cpu(100), cpu(102), cpu(104)));
        rounds.addAll(rounds(PATCHED_490, cpu(80), cpu(81), cpu(82)));
        rounds.addAll(rounds(STOCK_498, cpu(101), cpu(110), cpu(120)));
        rounds.addAll(rounds(PATCHED_498, cpu(90), cpu(50).busyMachine(), cpu(91)));
        return new CampaignReport(rounds, CROSS_LINE);
    }

    private static Comparison masterCpu(CampaignReport report, Arm arm) {
        return report.comparisons(SCENARIO).stream()
                .filter(c -> c.metric().equals("masterCpuMicrosPerMsg") && c.arm().equals(arm.label())).findFirst().orElseThrow();
    }

    @Test
    void comparesEveryArmWithTheFirstBesideTheLargerSpreadOfTheTwo() {
        CampaignReport report = crossLineReport();

        Comparison baseline = masterCpu(report, STOCK_490);
        assertThat(baseline.median()).isEqualTo(102.0);
        assertThat(baseline.ratioToBaseline()).isNull();
        assertThat(baseline.aaSpread()).isCloseTo(4.0 / 102, Offset.offset(1e-9));
        assertThat(baseline.verdict()).isNull();

        // ranges apart, but 3 rounds per arm: equal arms separate that far with p = 0.10 on each of 15 metrics
        Comparison patched = masterCpu(report, PATCHED_490);
        assertThat(patched.ratioToBaseline()).isCloseTo(81.0 / 102, Offset.offset(1e-9));
        assertThat(patched.aaSpread()).isCloseTo(4.0 / 102, Offset.offset(1e-9));
        assertThat(patched.p()).isCloseTo(0.1, Offset.offset(1e-9));
        assertThat(patched.resolved()).isFalse();
        assertThat(patched.verdict()).startsWith("indicative: -20.6 % (ranges apart; p = 0.10, Holm over 15 metrics 1.00;"
                + " 3 vs 3 rounds, resolved needs 5 per arm)");

        // 4.9.8 stock's own rounds spread 17 %: its +7.8 % stays within that
        Comparison stock498 = masterCpu(report, STOCK_498);
        assertThat(stock498.ratioToBaseline()).isCloseTo(110.0 / 102, Offset.offset(1e-9));
        assertThat(stock498.aaSpread()).isCloseTo(19.0 / 110, Offset.offset(1e-9));
        assertThat(stock498.resolved()).isFalse();
        assertThat(stock498.verdict()).startsWith("not resolvable: +7.8 % (ranges overlap; p = ");

        // the busy round does not count: 2 rounds left against 3
        Comparison patched498 = masterCpu(report, PATCHED_498);
        assertThat(patched498.rounds()).isEqualTo(2);
        assertThat(patched498.median()).isEqualTo(90.5);
        assertThat(patched498.resolved()).isFalse();
        assertThat(patched498.verdict()).startsWith("indicative: -11.3 %").contains("3 vs 2 rounds");
    }

    @Test
    void theCrossLineReportListsArmsInOrderAndRatiosOfEveryOtherArmToTheBaseline() {
        String markdown = crossLineReport().markdown(CampaignOptions.parse("--lines", "4.9.0,4.9.8"), "- header");

        assertThat(markdown).startsWith("# Campaign: RocketMQ 4.9.0 stock vs 4.9.0 patched vs 4.9.8 stock vs 4.9.8 patched (2m-2s, loopback)")
                .contains("in the order of the columns below on odd rounds and in reverse on even ones").contains("Every ratio is to 4.9.0 stock (the baseline).")
                .contains("Each of the 3 arms is corrected over its own metrics").contains("Against 4.9.0 stock: ratio of medians");
        assertThat(markdown).contains("| metric | 4.9.0 stock median [min-max] (n) | 4.9.0 patched median [min-max] (n) | 4.9.8 stock median"
                + " [min-max] (n) | 4.9.8 patched median [min-max] (n) |\n");
        assertThat(markdown).contains("| " + MASTER_CPU + " | 102.0 [100.0-104.0] (3) | 81.0 [80.0-82.0] (3) | 110.0 [101.0-120.0] (3)"
                + " | 90.5 [90.0-91.0] (2) |\n");
        assertThat(markdown).contains("| " + MASTER_CPU + " | 4.9.0 patched | 0.794 | 3.9 % | 0.10 | 1.00 | indicative: -20.6 %");
        assertThat(markdown).contains("| " + MASTER_CPU + " | 4.9.8 stock | 1.078 | 17.3 % | ");
        assertThat(markdown).contains("Rounds not counted:\n\n| round | arm | why |\n|---:|---|---|\n| 2 | 4.9.8 patched | busy machine |\n");
        assertThat(markdown).doesNotContain("| " + MASTER_CPU + " | 4.9.0 stock |");
        assertThat(markdown.indexOf("| " + MASTER_CPU + " | 4.9.0 patched |")).isLessThan(markdown.indexOf("| " + MASTER_CPU + " | 4.9.8 stock |"));
        assertThat(markdown.indexOf("| " + MASTER_CPU + " | 4.9.8 stock |")).isLessThan(markdown.indexOf("| " + MASTER_CPU + " | 4.9.8 patched |"));
        assertThat(markdown).contains("| lost (must be 0) | 0 in 3 rounds | 0 in 3 rounds | 0 in 3 rounds | 0 in 3 rounds |");
        assertThat(markdown).contains("| " + SCENARIO + " | 2 | 4.9.8 patched | PASS |");
    }

    @Test
    void aLostMessageShowsInItsArmsColumn() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(100)));
        rounds.addAll(rounds(PATCHED_490, cpu(90), cpu(90).lost(3)));

        assertThat(new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490)).markdown(CampaignOptions.parse("--lines", "4.9.0"), ""))
                .contains("| lost (must be 0) | 0 in 2 rounds | 3 in 2 rounds (FAIL) |");
    }

    @Test
    void aRoundWhoseOtherProcessesCpuWasNotMeasuredIsUnknownNotQuiet() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(100).unknownMachine()));
        rounds.addAll(rounds(PATCHED_490, cpu(90), cpu(90).unknownMachine()));
        CampaignReport report = new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490));

        String markdown = report.markdown(CampaignOptions.parse("--lines", "4.9.0"), "");
        JsonArray json = JsonParser.parseString(report.json(CampaignOptions.parse("--lines", "4.9.0"))).getAsJsonObject().getAsJsonArray("rounds");

        // before issue 21 this said "Every round ran on a quiet machine"
        assertThat(markdown).doesNotContain("Every round ran on a quiet machine")
                .contains("2 of 4 rounds ran on a machine whose other processes' CPU could not be measured")
                .contains("| " + SCENARIO + " | 2 | 4.9.0 stock | PASS | 100 | 0 (0) | 0 | none | unknown |")
                .contains("| " + SCENARIO + " | 1 | 4.9.0 stock | PASS | 100 | 0 (0) | 0 | none | quiet |");
        assertThat(json.get(1).getAsJsonObject().get("machine").getAsString()).isEqualTo("unknown");
        assertThat(json.get(0).getAsJsonObject().get("machine").getAsString()).isEqualTo("quiet");
    }

    @Test
    void aRoundTheBrokerRejectedFailsAndTheReportListsItsFailedSendsAndRejectionsPerSecond() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(100)));
        rounds.addAll(rounds(PATCHED_490, cpu(90), cpu(90).rejected(4)));
        CampaignReport report = new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490));
        CampaignOptions saturated = CampaignOptions.parse("--lines", "4.9.0", "--rate", "0");

        String markdown = report.markdown(saturated, "");
        JsonObject round = JsonParser.parseString(report.json(saturated)).getAsJsonObject().getAsJsonArray("rounds").get(3).getAsJsonObject();

        assertThat(rounds.get(3).result().verdict()).isEqualTo("FAIL");
        assertThat(markdown).contains("1 of 4 rounds had sends that failed for a reason no fault expects")
                .contains("| failed sends, unexpected (must be 0) | 0 in 2 rounds | 4 in 2 rounds (FAIL) |")
                // 96 acked at 4000/s: 0.024 s of load, 4 rejections in it
                .contains("| rejected by flow control (/s, median [min-max]) | 0.00 [0.00-0.00] (2) | 83.3 [0.00-166.7] (2) |")
                .contains("| " + SCENARIO + " | 2 | 4.9.0 patched | FAIL | 96 | 4 (4) | 0 | none | quiet |")
                .contains("## Failed sends\n\n| scenario | round | arm | phase | reason | sends | verdict |\n|---|---:|---|---|---|---:|---|\n"
                        + "| " + SCENARIO + " | 2 | 4.9.0 patched | load | MQBrokerException code 2 | 4 | UNEXPECTED |\n");
        assertThat(round.get("failedSendsUnexpected").getAsLong()).isEqualTo(4);
        assertThat(round.get("rejectionsPerSecond").getAsDouble()).isCloseTo(4 / 0.024, Offset.offset(1e-3));
        assertThat(round.getAsJsonArray("failedSends").get(0).getAsJsonObject().get("reason").getAsString())
                .isEqualTo("MQBrokerException code 2");
    }

    @Test
    void aCampaignWithoutFailedSendsSaysSo() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100)));
        rounds.addAll(rounds(PATCHED_490, cpu(90)));

        assertThat(new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490)).markdown(CampaignOptions.parse(), ""))
                .contains("Every round ran on a quiet machine").contains("Every send was acknowledged.")
                .contains("## Failed sends\n\nNone: every send of every round was acknowledged.\n")
                .doesNotContain("rejected by flow control");
    }

    @Test
    void theCrossLineJsonNamesLinesArmsAndEveryComparison() throws Exception {
        CampaignReport report = crossLineReport();
        report.write(dir, CampaignOptions.parse("--lines", "4.9.0,4.9.8"), "- header");

        JsonObject json = JsonParser.parseString(Files.readString(dir.resolve("campaign.json"))).getAsJsonObject();
        assertThat(json.has("release")).isFalse();
        assertThat(json.get("lines").toString()).isEqualTo("[\"4.9.0\",\"4.9.8\"]");
        assertThat(json.get("arms").toString()).isEqualTo("[\"4.9.0 stock\",\"4.9.0 patched\",\"4.9.8 stock\",\"4.9.8 patched\"]");
        assertThat(json.get("baseline").getAsString()).isEqualTo("4.9.0 stock");
        JsonArray rounds = json.getAsJsonArray("rounds");
        assertThat(rounds).hasSize(12);
        assertThat(rounds.get(11).getAsJsonObject().get("arm").getAsString()).isEqualTo("4.9.8 patched");
        assertThat(rounds.get(11).getAsJsonObject().get("line").getAsString()).isEqualTo("4.9.8");
        JsonObject patched = StreamSupport.stream(json.getAsJsonArray("comparisons").spliterator(), false).map(JsonElement::getAsJsonObject)
                .filter(c -> c.get("metric").getAsString().equals("masterCpuMicrosPerMsg") && c.get("arm").getAsString().equals("4.9.0 patched"))
                .findFirst().orElseThrow();
        assertThat(patched.get("ratioToBaseline").getAsDouble()).isCloseTo(81.0 / 102, Offset.offset(1e-9));
        assertThat(patched.get("resolved").getAsBoolean()).isFalse();
        assertThat(patched.get("p").getAsDouble()).isCloseTo(0.1, Offset.offset(1e-9));
        assertThat(patched.get("family").getAsInt()).isEqualTo(15);
        assertThat(json.getAsJsonArray("excludedRounds")).hasSize(1);
        assertThat(json.getAsJsonArray("excludedRounds").get(0).getAsJsonObject().get("why").toString()).isEqualTo("[\"busy machine\"]");
        for (String chart : List.of("tps.png", "p99.png", "master-cpu-total.png", "master-cpu.png", "master-cpu-system.png",
                "allocated-bytes.png", "commitlog-bytes.png", "gc-pauses.png")) {
            assertThat(dir.resolve(chart)).isNotEmptyFile();
        }
    }

    @Test
    void gcPausesPerRoundComeWithTheCollectionsBehindThemAndThePauseOfOne() {
        // equal pauses per round, but the patched windows caught half as many collections, each twice as long
        List<ArmRound> rounds = new ArrayList<>(rounds(ONE_LINE_498.get(0), cpu(100).withGc(4, 10), cpu(100).withGc(4, 11),
                cpu(100).withGc(4, 12)));
        rounds.addAll(rounds(ONE_LINE_498.get(1), cpu(100).withGc(2, 10), cpu(100).withGc(2, 11), cpu(100).withGc(2, 12)));
        CampaignReport report = new CampaignReport(rounds, ONE_LINE_498);

        Map<String, Comparison> patched = new LinkedHashMap<>();
        report.comparisons(SCENARIO).stream().filter(c -> c.arm().equals("patched")).forEach(c -> patched.put(c.metric(), c));
        assertThat(patched.get("masterGcPauseMsTotal").ratioToBaseline()).isEqualTo(1.0);
        assertThat(patched.get("masterGcCount").median()).isEqualTo(2.0);
        assertThat(patched.get("masterGcPauseMsPerCollection").median()).isEqualTo(5.5);
        assertThat(patched.get("masterGcPauseMsPerCollection").ratioToBaseline()).isCloseTo(2.0, Offset.offset(1e-9));
        assertThat(report.markdown(CampaignOptions.parse("--line", "4.9.8"), "- header"))
                .contains("| master GC collections (/round) | 4.00 [4.00-4.00] (3) | 2.00 [2.00-2.00] (3) |")
                .contains("| master GC pause per collection (ms) | 2.75 [2.50-3.00] (3) | 5.50 [5.00-6.00] (3) |");
    }

    @Test
    void profiledRoundsGiveTheAllocationBySiteTableAndNoStatistic() {
        List<ArmRound> rounds = new ArrayList<>(rounds(ONE_LINE_498.get(0), cpu(100), cpu(101), cpu(102)));
        rounds.addAll(rounds(ONE_LINE_498.get(1), cpu(90), cpu(91), cpu(92)));
        // the profiled rounds' CPU is far off: were they counted, the medians would move
        List<ArmRound> profiled = List.of(
                new ArmRound(SCENARIO, 0, ONE_LINE_498.get(0), SyntheticResults.profiled(dir.resolve("p-stock"), cpu(500),
                        new AllocationSites(4000, Map.of("RemotingCommand.decode", 600L, "CommitLog.checkMessageAndReturnSize", 300L,
                                "Tiny.site", 10L, "Small.site", 90L)))),
                new ArmRound(SCENARIO, 0, ONE_LINE_498.get(1), SyntheticResults.profiled(dir.resolve("p-patched"), cpu(500),
                        new AllocationSites(3000, Map.of("RemotingCommand.decode", 50L, "CommitLog.checkMessageAndReturnSize", 50L)))));
        CampaignReport report = new CampaignReport(rounds, profiled, ONE_LINE_498);

        assertThat(masterCpu(report, ONE_LINE_498.get(0)).median()).isEqualTo(101.0);
        assertThat(masterCpu(report, ONE_LINE_498.get(1)).rounds()).isEqualTo(3);
        String markdown = report.markdown(CampaignOptions.parse("--line", "4.9.8", "--alloc-sites"), "- header");
        // shares of each arm's samples times its exact 1000 B/msg; the 1 % site goes to "other sites"
        assertThat(markdown).contains("| RemotingCommand.decode | 600.0 | 500.0 |")
                .contains("| CommitLog.checkMessageAndReturnSize | 300.0 | 500.0 |")
                .contains("| Small.site | 90.0 | 0.00 |")
                .contains("| other sites | 10.0 | 0.00 |")
                .contains("| all sites (thread counters, exact) | 1000 | 1000 |")
                .contains("| JFR samples | 4000 | 3000 |")
                .doesNotContain("| Tiny.site");
        JsonObject json = JsonParser.parseString(report.json(CampaignOptions.parse("--line", "4.9.8", "--alloc-sites"))).getAsJsonObject();
        assertThat(json.getAsJsonArray("rounds")).hasSize(6);
        JsonObject stockProfiled = json.getAsJsonArray("profiledRounds").get(0).getAsJsonObject();
        assertThat(stockProfiled.get("arm").getAsString()).isEqualTo("stock");
        assertThat(stockProfiled.getAsJsonObject("masterAllocationSitesBytesPerMsg").get("RemotingCommand.decode").getAsDouble())
                .isEqualTo(600.0);
    }

    @Test
    void aCampaignWithoutProfiledRoundsHasNoAllocationTable() {
        List<ArmRound> rounds = new ArrayList<>(rounds(ONE_LINE_498.get(0), cpu(100), cpu(101)));
        rounds.addAll(rounds(ONE_LINE_498.get(1), cpu(90), cpu(91)));
        CampaignReport report = new CampaignReport(rounds, ONE_LINE_498);

        assertThat(report.markdown(CampaignOptions.parse("--line", "4.9.8"), "")).doesNotContain("allocation by site");
        assertThat(JsonParser.parseString(report.json(CampaignOptions.parse("--line", "4.9.8"))).getAsJsonObject()
                .getAsJsonArray("profiledRounds")).isEmpty();
    }

    @Test
    void aWindowWithoutACollectionHasNoPausePerCollection() {
        List<ArmRound> rounds = new ArrayList<>(rounds(ONE_LINE_498.get(0), cpu(100).withGc(0, 0), cpu(100).withGc(1, 3)));
        rounds.addAll(rounds(ONE_LINE_498.get(1), cpu(100).withGc(0, 0), cpu(100).withGc(0, 0)));
        CampaignReport report = new CampaignReport(rounds, ONE_LINE_498);

        Map<String, Comparison> byArm = new LinkedHashMap<>();
        report.comparisons(SCENARIO).stream().filter(c -> c.metric().equals("masterGcPauseMsPerCollection"))
                .forEach(c -> byArm.put(c.arm(), c));
        assertThat(byArm.get("stock").rounds()).isEqualTo(1);
        assertThat(byArm.get("stock").median()).isEqualTo(3.0);
        assertThat(byArm.get("patched").rounds()).isZero();
    }

    @Test
    void aOneLineReportKeepsStockVsPatchedWithOneRatioPerMetric() {
        List<Arm> arms = List.of(new Arm("stock", "4.9.0", "stock"), new Arm("patched", "4.9.0", "patched"));
        List<ArmRound> rounds = new ArrayList<>(rounds(arms.get(0), cpu(100), cpu(102), cpu(104)));
        rounds.addAll(rounds(arms.get(1), cpu(80), cpu(81), cpu(82)));

        String markdown = new CampaignReport(rounds, arms).markdown(CampaignOptions.parse("--line", "4.9.0"), "- header");

        assertThat(markdown).startsWith("# Campaign: stock vs patched RocketMQ 4.9.0 (2m-2s, loopback)")
                .contains("Rounds per arm: 3, alternating stock / patched;").doesNotContain("arms against one baseline");
        assertThat(markdown).contains("| " + MASTER_CPU + " | patched | 0.794 | 3.9 % | 0.10 | 1.00 | indicative: -20.6 %");
    }

    @Test
    void theSwitchTableShowsEachGroupsWakeUpsPerMessageBesideTheWhole() {
        Arm stock = new Arm("stock", "4.9.0", "stock");
        Arm patched = new Arm("patched", "4.9.0", "patched");
        Map<String, Double> stockSwitches = new LinkedHashMap<>();
        stockSwitches.put("SendMessageThre", 2.0);
        stockSwitches.put("NettyServerCode", 1.0);
        stockSwitches.put("Signal Dispatch", 0.01);
        Map<String, Double> patchedSwitches = new LinkedHashMap<>(stockSwitches);
        patchedSwitches.put("SendMessageThre", 0.5);
        List<ArmRound> rounds = new ArrayList<>(rounds(stock, cpu(3).withThreads(SyntheticResults.switches(stockSwitches)),
                cpu(3).withThreads(SyntheticResults.switches(stockSwitches))));
        rounds.addAll(rounds(patched, cpu(3).withThreads(SyntheticResults.switches(patchedSwitches)),
                cpu(3).withThreads(SyntheticResults.switches(patchedSwitches))));

        String markdown = new CampaignReport(rounds, List.of(stock, patched)).markdown(CampaignOptions.parse(), "");

        assertThat(markdown).contains("Masters' context switches per thread group, per acked message");
        assertThat(markdown).contains("| thread group | stock | patched |\n|---|---:|---:|\n| SendMessageThre | 2.00 | 0.50 |\n"
                + "| NettyServerCode | 1.00 | 1.00 |\n| other | 0.01 | 0.01 |\n"
                + "| masters, all threads (voluntary + involuntary) | 3.01 | 1.51 |\n| rounds | 2 | 2 |\n");
        assertThat(markdown).contains("| master context switches (/msg) | patched | 0.502 | 0.0 % | 0.33 | 1.00 | indicative: -49.8 %");
    }

    @Test
    void eachArmsJitShareIsShownAndARoundAtFivePercentOrMoreIsCountedNotWarm() {
        Arm stock = new Arm("stock", "4.9.0", "stock");
        Arm patched = new Arm("patched", "4.9.0", "patched");
        List<ArmRound> rounds = new ArrayList<>(rounds(stock,
                cpu(50).withThreads(SyntheticResults.threads(50, Map.of("C2 CompilerThre", 3.0, "C1 CompilerThre", 0.5))),
                cpu(50).withThreads(SyntheticResults.threads(50, Map.of("C2 CompilerThre", 1.0)))));
        rounds.addAll(rounds(patched, cpu(40).withThreads(SyntheticResults.threads(40, Map.of("C2 CompilerThre", 0.8))),
                cpu(40).withThreads(SyntheticResults.threads(40, Map.of("C2 CompilerThre", 1.2)))));

        String markdown = new CampaignReport(rounds, List.of(stock, patched)).markdown(CampaignOptions.parse(), "");

        // stock: 3.5 of 50 (7 %, not warm) and 1 of 50 (2 %); patched: 0.8 and 1.2 of 40 (2 % and 3 %)
        assertThat(markdown).contains("| JIT compiler (% of the arm's own master CPU) | 4.50 [2.00-7.00] (2), 1 at or above 5 %"
                + " | 2.50 [2.00-3.00] (2) |\n");
    }

    @Test
    void theThreadTableNamesGroupsAboveTheShareInAnyArmAndFoldsTheRest() {
        Arm stock = new Arm("stock", "4.9.0", "stock");
        Arm patched = new Arm("patched", "4.9.0", "patched");
        List<ArmRound> rounds = new ArrayList<>(rounds(stock,
                cpu(50).withThreads(SyntheticResults.threads(50, groups(29, 10, 0.5, 0.0, 0.4))),
                cpu(50).withThreads(SyntheticResults.threads(50, groups(30, 10, 0.5, 0.0, 0.4))),
                cpu(50).withThreads(SyntheticResults.threads(50, groups(35, 10, 0.5, 0.0, 0.4)))));
        rounds.addAll(rounds(patched,
                cpu(45).withThreads(SyntheticResults.threads(45, groups(26, 10, 0.6, 1.5, 0.0))),
                cpu(45).withThreads(SyntheticResults.threads(45, groups(26, 10, 0.6, 1.5, 0.0)))));

        String markdown = new CampaignReport(rounds, List.of(stock, patched)).markdown(CampaignOptions.parse(), "");

        assertThat(markdown).contains("| thread group | stock | patched |\n|---|---:|---:|\n| SendMessageThre | 30.00 | 26.00 |\n"
                + "| NettyServerCode | 10.00 | 10.00 |\n| G1 Conc | 0.00 | 1.50 |\n| other | 0.90 | 0.60 |\n");
        // stock: 50 - (30 + 10 + 0.9) in the median round; patched: 45 - 38.1
        assertThat(markdown).contains("| exited threads | 9.10 | 6.90 |\n| masters, whole processes | 50.00 | 45.00 |\n| rounds | 3 | 2 |\n");
    }

    @Test
    void theThreadTableSaysWhenNoRoundHasThreadFigures() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100).withoutThreads()));
        rounds.addAll(rounds(PATCHED_490, cpu(90).withoutThreads()));

        assertThat(new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490)).markdown(CampaignOptions.parse(), ""))
                .contains("No round has the masters' thread figures");
    }

    @Test
    void aFailedRoundDoesNotCountEvenWhenItsFiguresLookBest() {
        // as campaign-5.3.3-2026-11-27's stock+tuned round 4: 4 unexpected failed sends, and the arm's lowest CPU
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(320), cpu(322), cpu(324), cpu(321), cpu(323), cpu(325)));
        rounds.addAll(rounds(PATCHED_490, cpu(301), cpu(310), cpu(299.4).rejected(4), cpu(322.9), cpu(305), cpu(312)));
        CampaignReport report = new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490));

        Comparison patched = masterCpu(report, PATCHED_490);
        assertThat(patched.rounds()).isEqualTo(5);
        assertThat(patched.min()).isEqualTo(301.0);
        assertThat(report.markdown(CampaignOptions.parse("--lines", "4.9.0"), ""))
                .contains("| 3 | 4.9.0 patched | the round failed (unexpected failed sends 4 {load: MQBrokerException code 2=4}) |")
                .contains("1 of 12 rounds do not count");
    }

    @Test
    void onlyQuietWarmLosslessRoundsCountAndEachOtherIsListedWithWhy() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(100).busyMachine(), cpu(100).unknownMachine(),
                cpu(100).withoutThreads(), cpu(100).withThreads(SyntheticResults.threads(100, Map.of("C2 CompilerThre", 6.0))),
                cpu(100).lost(1)));
        rounds.addAll(rounds(PATCHED_490, cpu(90), cpu(90)));
        CampaignReport report = new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490));

        assertThat(masterCpu(report, STOCK_490).rounds()).isEqualTo(1);
        assertThat(report.markdown(CampaignOptions.parse("--lines", "4.9.0"), ""))
                .contains("| 2 | 4.9.0 stock | busy machine |\n")
                .contains("| 3 | 4.9.0 stock | machine load not measured |\n")
                .contains("| 4 | 4.9.0 stock | JIT share not measured |\n")
                .contains("| 5 | 4.9.0 stock | not warm (JIT 6.0 % of the baseline's median master CPU, 100 us/msg, warm below 5 %) |\n")
                .contains("| 6 | 4.9.0 stock | the round failed (lost 1, corrupt 0, misplaced 0); 1 acknowledged messages lost |\n");
    }

    @Test
    void sixCountedRoundsPerArmResolveAClearDifferenceAndFiveCannotOverFifteenMetrics() {
        List<ArmRound> five = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(101), cpu(102), cpu(103), cpu(104)));
        five.addAll(rounds(PATCHED_490, cpu(80), cpu(81), cpu(82), cpu(83), cpu(84)));
        List<ArmRound> six = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(101), cpu(102), cpu(103), cpu(104), cpu(105)));
        six.addAll(rounds(PATCHED_490, cpu(80), cpu(81), cpu(82), cpu(83), cpu(84), cpu(85)));

        Comparison atFive = masterCpu(new CampaignReport(five, List.of(STOCK_490, PATCHED_490)), PATCHED_490);
        Comparison atSix = masterCpu(new CampaignReport(six, List.of(STOCK_490, PATCHED_490)), PATCHED_490);

        // 5 vs 5: p = 2/252 at best, 0.119 after Holm over 15 metrics
        assertThat(atFive.p()).isCloseTo(2.0 / 252, Offset.offset(1e-12));
        assertThat(atFive.resolved()).isFalse();
        assertThat(atFive.verdict()).startsWith("indicative: -19.6 %").contains("above 0.05");
        // 6 vs 6: 2/924 = 0.0022, 0.032 after Holm
        assertThat(atSix.pHolm()).isCloseTo(15 * 2.0 / 924, Offset.offset(1e-12));
        assertThat(atSix.resolved()).isTrue();
        assertThat(atSix.verdict()).startsWith("resolved: -19.5 % (p = 0.0022, Holm over 15 metrics 0.0325; 6 vs 6 rounds)");
    }

    @Test
    void aRoundWhoseWarmUpLostAMessageFailsDoesNotCountAndShowsItsWarmUp() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(100)));
        rounds.addAll(rounds(PATCHED_490, cpu(90), cpu(90)));
        RoundResult r = rounds.get(3).result();
        DeliveryAudit.DeliveryReport warmupReadBack = new DeliveryAudit.DeliveryReport(49, 0, 50, 49, 1, 0, 0, 0, 0, 0, 0, List.of());
        WarmupVerdict warmup = WarmupVerdict.judge(List.of(SyntheticResults.ledger(50, 50)), 20, warmupReadBack, 1, "4.9.0");
        rounds.set(3, new ArmRound(SCENARIO, 2, PATCHED_490, new RoundResult(r.flavor(), r.distribution(), r.runDir(), r.options(),
                r.load(), r.delivery(), r.extraReadBacks(), r.failedSends(), r.bootSeconds(), r.totalSeconds(), r.metrics(), r.network(),
                warmup)));
        CampaignReport report = new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490));

        String markdown = report.markdown(CampaignOptions.parse("--lines", "4.9.0"), "");
        assertThat(markdown).contains("| 2 | 4.9.0 patched | the round failed (warm-up: lost 1, corrupt 0, misplaced 0) |")
                .contains("| " + SCENARIO + " | 2 | 4.9.0 patched | FAIL | 100 | 0 (0) | 0 | 50, 1, 0 | quiet |")
                .contains("| " + SCENARIO + " | 1 | 4.9.0 patched | PASS | 100 | 0 (0) | 0 | none | quiet |");
        assertThat(masterCpu(report, PATCHED_490).rounds()).isEqualTo(1);
        JsonObject round = JsonParser.parseString(report.json(CampaignOptions.parse("--lines", "4.9.0"))).getAsJsonObject()
                .getAsJsonArray("rounds").get(3).getAsJsonObject();
        assertThat(round.getAsJsonObject("warmup").get("result").getAsString()).isEqualTo("FAIL");
    }

    @Test
    void eachArmShowsItsTimedPhasesLatenessOverItsRounds() {
        List<ArmRound> rounds = new ArrayList<>(rounds(STOCK_490, cpu(100), cpu(100)));
        rounds.addAll(rounds(PATCHED_490, cpu(90), cpu(90)));
        long t = 1_764_400_000_000L;
        for (int i = 0; i < rounds.size(); i++) {
            ArmRound round = rounds.get(i);
            RoundResult r = round.result();
            // delay level 1: stock 60 and 80 ms late, patched 70 and 90 (its second round 900 at worst)
            long late = (round.arm().equals(STOCK_490) ? 40 : 50) + 20L * round.round();
            List<TimedSends.Observation> seen = List.of(
                    new TimedSends.Observation(0, TimedSends.Kind.DELAY_LEVEL_1, t + 1000, t + 1000, true, t + 1000 + late, 1, 1, -1),
                    new TimedSends.Observation(1, TimedSends.Kind.DELAY_LEVEL_1, t + 1000, t + 1000, true,
                            t + 1000 + (i == 3 ? 900 : late), 1, 1, -1));
            rounds.set(i, new ArmRound(round.scenario(), round.round(), round.arm(), new RoundResult(r.flavor(), r.distribution(),
                    r.runDir(), r.options(), r.load(), r.delivery(), r.extraReadBacks(), r.failedSends(), r.bootSeconds(), r.totalSeconds(),
                    r.metrics(), r.network(), r.warmup(), DeliveryLateness.judge(seen, false, false))));
        }
        CampaignReport report = new CampaignReport(rounds, List.of(STOCK_490, PATCHED_490));

        assertThat(report.markdown(CampaignOptions.parse("--lines", "4.9.0"), ""))
                .contains("| delay level 1 late (ms): p50 / p90 median over rounds, worst max | 70 / 70, 80 (2) | 80 / 485, 900 (2) |")
                .contains("| delay level 1: the latest message, ms after its earliest (round) | seq 0: seen +80 ms (2) | seq 1: seen +900 ms (2) |")
                .doesNotContain("| timer late");
        JsonObject round = JsonParser.parseString(report.json(CampaignOptions.parse("--lines", "4.9.0"))).getAsJsonObject()
                .getAsJsonArray("rounds").get(3).getAsJsonObject();
        assertThat(round.getAsJsonObject("timed").getAsJsonArray("kinds").get(0).getAsJsonObject().get("maxMs").getAsLong()).isEqualTo(900);
    }

    /** Thread groups as a broker has them; a group of 0 did not exist in the round. */
    private static Map<String, Double> groups(double send, double netty, double vm, double g1, double tiny) {
        Map<String, Double> groups = new LinkedHashMap<>();
        groups.put("SendMessageThre", send);
        groups.put("NettyServerCode", netty);
        groups.put("VM Thread", vm);
        if (g1 > 0) {
            groups.put("G1 Conc", g1);
        }
        if (tiny > 0) {
            groups.put("Signal Dispatch", tiny);
        }
        return groups;
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
        CampaignReport empty = new CampaignReport(List.of(), ONE_LINE_498);
        CampaignReport empty490 = new CampaignReport(List.of(), List.of(new Arm("stock", "4.9.0", "stock"), new Arm("patched", "4.9.0", "patched")));

        assertThat(empty.markdown(CampaignOptions.parse(), "- header")).startsWith("# Campaign: stock vs patched RocketMQ 4.9.8 (2m-2s, loopback)");
        assertThat(empty490.markdown(CampaignOptions.parse("--net", "realistic"), "- header")).contains("(2m-2s, realistic)");
        assertThat(empty490.json(CampaignOptions.parse("--net", "realistic"))).startsWith("{\n  \"net\": \"realistic\",\n  \"release\": \"4.9.0\",\n");
    }
}
