package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.FaultScenario;
import io.hotpath.e2e.spec.NetMode;
import io.hotpath.e2e.spec.RoundSpec;
import io.hotpath.e2e.spec.Warmup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignOptionsTest {

    private static final Arm STOCK = new Arm("stock", "4.9.0", "stock");
    private static final Arm PATCHED = new Arm("patched", "4.9.0", "patched");

    @TempDir
    Path root;

    /** A release line as ReleaseLines reads it: patches/<release>/line.properties. */
    private void line(String release, String extra) throws IOException {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        Files.writeString(dir.resolve("line.properties"), extra + "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\n"
            + "upstream.tests.modules=common\n");
    }

    @Test
    void readsTheMatrixAsCommaSeparatedLists() {
        CampaignOptions options = CampaignOptions.parse("--rounds", "3", "--threads", "16,32", "--sizes=128,1024", "--rate", "6000");

        assertThat(options.rounds()).isEqualTo(3);
        assertThat(options.threads()).containsExactly(16, 32);
        assertThat(options.sizes()).containsExactly(128, 1024);
        assertThat(options.rate()).isEqualTo(6000);
    }

    @Test
    void aRoundIsATimedLoadWithoutFault() {
        RoundSpec round = CampaignOptions.parse("--seconds", "10").round(32, 512);

        assertThat(round.timed()).isTrue();
        assertThat(round.messages()).isEqualTo(10 * RoundSpec.TIMED_CAPACITY_PER_SECOND);
        assertThat(round.seconds()).isEqualTo(10);
        assertThat(round.threads()).isEqualTo(32);
        assertThat(round.bodySize()).isEqualTo(512);
        assertThat(round.fault()).isEqualTo(FaultScenario.NONE);
    }

    @Test
    void aWarmUpUntilTheJitIsBelowAShareIsAskedForWithALimit() {
        assertThat(CampaignOptions.parse().warmup()).isEqualTo(new Warmup(20, 0));
        assertThat(CampaignOptions.parse().warmup().describe()).isEqualTo("20 s");
        Warmup warm = CampaignOptions.parse("--warmup", "180", "--warmup-jit", "5").warmup();
        assertThat(warm.untilWarm()).isTrue();
        assertThat(warm.untilJitBelow()).isEqualTo(0.05);
        assertThat(warm.describe()).isEqualTo("until the masters' JIT is below 5 % of their CPU, at most 180 s");
        assertThatThrownBy(() -> CampaignOptions.parse("--warmup", "0", "--warmup-jit", "5")).isInstanceOf(UsageException.class)
                .hasMessage("--warmup-jit needs a --warmup above 0: it is the warm-up's limit");
        assertThatThrownBy(() -> CampaignOptions.parse("--warmup-jit", "100")).isInstanceOf(UsageException.class);
    }

    @Test
    void aWarmUpMayRunAtARateOfItsOwn() {
        Warmup warm = CampaignOptions.parse("--rate", "250", "--warmup", "180", "--warmup-jit", "5", "--warmup-rate", "2500").warmup();
        assertThat(warm.rateFor(250)).isEqualTo(2500);
        assertThat(warm.describe()).isEqualTo("until the masters' JIT is below 5 % of their CPU, at most 180 s at 2500 msg/s");
        assertThat(CampaignOptions.parse("--warmup-rate", "0").warmup().describe()).isEqualTo("20 s unpaced");
        assertThat(CampaignOptions.parse("--rate", "250").warmup().rateFor(250)).isEqualTo(250);
        assertThatThrownBy(() -> CampaignOptions.parse("--warmup", "0", "--warmup-rate", "2500")).isInstanceOf(UsageException.class)
                .hasMessage("--warmup-rate paces the warm-up: give a --warmup above 0 too");
        assertThatThrownBy(() -> CampaignOptions.parse("--warmup-rate", "-1")).isInstanceOf(UsageException.class);
    }

    @Test
    void rejectsBadListsInOneLine() {
        assertThatThrownBy(() -> CampaignOptions.parse("--threads", "16,x")).isInstanceOf(UsageException.class)
                .hasMessage("--threads must be a whole number, got 'x'");
        assertThatThrownBy(() -> CampaignOptions.parse("--bogus")).hasMessageContaining("unknown option '--bogus' for campaign");
    }

    @Test
    void netIsTheCampaignsAndRealisticNeedsThePrivateNamespace() {
        assertThat(CampaignOptions.parse().net()).isEqualTo(NetMode.LOOPBACK);
        assertThat(CampaignOptions.parse("--net", "realistic").net()).isEqualTo(NetMode.REALISTIC);
        assertThatThrownBy(() -> CampaignOptions.parse("--net", "lan")).isInstanceOf(UsageException.class)
                .hasMessage("--net must be one of [loopback, realistic], got 'lan'");
        assertThatThrownBy(() -> CampaignOptions.parse("--no-netns", "--net=realistic")).isInstanceOf(UsageException.class)
                .hasMessageContaining("cannot be combined with --no-netns");
        assertThat(CampaignOptions.USAGE).contains("[--net loopback|realistic]");
    }

    @Test
    void theLineIsResolvedOnceForEveryArm() throws IOException {
        line("4.9.0", "");
        line("4.9.8", "");

        assertThat(CampaignOptions.parse().line()).isNull();
        assertThat(CampaignOptions.parse().arms(root)).containsExactly(new Arm("stock", "4.9.8", "stock"), new Arm("patched", "4.9.8", "patched"));
        CampaignOptions options = CampaignOptions.parse("--line=4.9.0");
        assertThat(options.arms(root)).containsExactly(STOCK, PATCHED);
        assertThat(options.resolvedLines(root).keySet()).containsExactly("4.9.0");
        assertThat(options.arms(options.resolvedLines(root))).containsExactly(STOCK, PATCHED);
    }

    @Test
    void linesMakeAStockAndAPatchedArmOfEveryLineTheFirstLinesStockTheBaseline() throws IOException {
        line("4.9.0", "");
        line("4.9.8", "");
        CampaignOptions options = CampaignOptions.parse("--lines", "4.9.8, 4.9.0", "--rate", "3000");

        assertThat(options.lines()).containsExactly("4.9.8", "4.9.0");
        assertThat(options.line()).isNull();
        assertThat(options.arms(root)).containsExactly(new Arm("4.9.8 stock", "4.9.8", "stock"), new Arm("4.9.8 patched", "4.9.8", "patched"),
                new Arm("4.9.0 stock", "4.9.0", "stock"), new Arm("4.9.0 patched", "4.9.0", "patched"));
        assertThat(options.resolvedLines(root).keySet()).containsExactly("4.9.8", "4.9.0");
        assertThat(options.round(16, 1024).rate()).isEqualTo(3000);
        assertThat(CampaignOptions.parse("--lines=4.9.0").lines()).containsExactly("4.9.0");
        assertThat(CampaignOptions.USAGE).contains("[--line R | --lines R1,R2,...]").contains("--lines L");
    }

    @Test
    void everyLineOfLinesMustBeKnownAndAPartialOneRunsOnlyWhenNamed() throws IOException {
        line("4.9.0", "");
        line("4.9.8", "complete=false\n");

        assertThatThrownBy(() -> CampaignOptions.parse("--lines", "4.9.0,4.9.9").arms(root)).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("unknown release line '4.9.9'");
        assertThat(CampaignOptions.parse("--lines", "4.9.0,4.9.8").resolvedLines(root).keySet()).containsExactly("4.9.0", "4.9.8");
        assertThat(CampaignOptions.parse("--line", "4.9.8").resolvedLines(root).keySet()).containsExactly("4.9.8");
        // the default is the newest complete line
        assertThat(CampaignOptions.parse().resolvedLines(root).keySet()).containsExactly("4.9.0");
    }

    @Test
    void rejectsMalformedRepeatedOrConflictingLinesInOneLine() {
        assertThatThrownBy(() -> CampaignOptions.parse("--lines", "4.9.0,,4.9.8")).isInstanceOf(UsageException.class)
                .hasMessage("--lines must be comma-separated releases such as 4.9.0,4.9.8, got '4.9.0,,4.9.8'");
        assertThatThrownBy(() -> CampaignOptions.parse("--lines=")).isInstanceOf(UsageException.class)
                .hasMessage("--lines must be comma-separated releases such as 4.9.0,4.9.8, got ''");
        assertThatThrownBy(() -> CampaignOptions.parse("--lines", "4.9.0;4.9.8")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--lines must be comma-separated releases");
        assertThatThrownBy(() -> CampaignOptions.parse("--lines", "4.9.0,4.9.8,4.9.0")).isInstanceOf(UsageException.class)
                .hasMessage("--lines names 4.9.0 twice, got '4.9.0,4.9.8,4.9.0'");
        assertThatThrownBy(() -> CampaignOptions.parse("--lines")).isInstanceOf(UsageException.class)
                .hasMessage("option --lines needs a value (see bin/hotpath campaign --help)");
        assertThatThrownBy(() -> CampaignOptions.parse("--line", "4.9.0", "--lines", "4.9.8")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--line and --lines cannot be combined");
        assertThatThrownBy(() -> CampaignOptions.parse("--ci", "--lines", "4.9.0,4.9.8")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--ci checks one line");
    }

    @Test
    void crossLineRoundsRunEveryArmReversedOnEvenRoundsWhileOneLineKeepsStockFirst() {
        List<Arm> arms = List.of(new Arm("4.9.0 stock", "4.9.0", "stock"), new Arm("4.9.0 patched", "4.9.0", "patched"),
                new Arm("4.9.8 stock", "4.9.8", "stock"), new Arm("4.9.8 patched", "4.9.8", "patched"));
        CampaignOptions crossLine = CampaignOptions.parse("--lines", "4.9.0,4.9.8");

        assertThat(crossLine.roundOrder(arms, 1)).containsExactlyElementsOf(arms);
        assertThat(crossLine.roundOrder(arms, 2)).containsExactly(arms.get(3), arms.get(2), arms.get(1), arms.get(0));
        assertThat(crossLine.roundOrder(arms, 3)).containsExactlyElementsOf(arms);
        assertThat(CampaignOptions.parse("--line", "4.9.0").roundOrder(List.of(STOCK, PATCHED), 2)).containsExactly(STOCK, PATCHED);
    }

    @Test
    void armsNameTunedArmsWhichLayTheLinesTunedConfigurationOverTheBrokers() throws IOException {
        line("4.9.0", "");
        Files.writeString(root.resolve("patches/4.9.0/tuned.properties"), "# a knob\nsendMessageThreadPoolNums=2\n");
        CampaignOptions options = CampaignOptions.parse("--line", "4.9.0", "--arms", "stock,stock+tuned,patched,patched+tuned");

        List<Arm> arms = options.arms(root);
        assertThat(arms).containsExactly(STOCK, new Arm("stock+tuned", "4.9.0", "stock", true), PATCHED,
                new Arm("patched+tuned", "4.9.0", "patched", true));
        assertThat(arms).extracting(Arm::label).containsExactly("stock", "stock+tuned", "patched", "patched+tuned");
        assertThat(options.tuning(options.resolvedLines(root).get("4.9.0")).knobs())
                .containsExactly(java.util.Map.entry("sendMessageThreadPoolNums", "2"));
        assertThat(options.tunings(options.resolvedLines(root))).containsOnlyKeys("4.9.0");
        assertThat(options.hasTuning(options.resolvedLines(root).get("4.9.0"))).isTrue();
        assertThat(CampaignOptions.parse("--line", "4.9.0").tunings(options.resolvedLines(root))).isEmpty();
        // four arms of one line alternate like a cross-line campaign's: a drift must not always favour the same arm
        assertThat(options.roundOrder(arms, 2)).containsExactly(arms.get(3), arms.get(2), arms.get(1), arms.get(0));
        assertThat(CampaignOptions.USAGE).contains("[--arms A1,A2,...] [--tuned FILE]");
    }

    @Test
    void anAsyncArmIsAFloorWhoseMastersRunAsAsyncMasterTunedOrNot() throws IOException {
        line("4.9.0", "");
        Files.writeString(root.resolve("patches/4.9.0/tuned.properties"), "# a knob\nsendMessageThreadPoolNums=2\n");
        CampaignOptions options = CampaignOptions.parse("--line", "4.9.0", "--arms", "stock,patched+tuned,patched+tuned+async,stock+async");

        assertThat(options.arms(root)).containsExactly(STOCK, new Arm("patched+tuned", "4.9.0", "patched", true, false),
                new Arm("patched+tuned+async", "4.9.0", "patched", true, true), new Arm("stock+async", "4.9.0", "stock", false, true));
        assertThat(options.tunings(options.resolvedLines(root))).containsOnlyKeys("4.9.0");
        // a --tuned file needs a tuned arm; a tuned floor arm is one
        Path screen = Files.writeString(root.resolve("screen.properties"), "sendMessageThreadPoolNums=4\n");
        assertThat(CampaignOptions.parse("--line", "4.9.0", "--arms", "stock,patched+tuned+async", "--tuned", screen.toString())
                .arms(root).get(1).tuned()).isTrue();
        assertThatThrownBy(() -> CampaignOptions.parse("--arms", "stock,patched+async+tuned")).isInstanceOf(UsageException.class);
    }

    @Test
    void aTunedArmNeedsATunedConfigurationAndTheTunedFileATunedArm() throws IOException {
        line("4.9.0", "");
        CampaignOptions options = CampaignOptions.parse("--line", "4.9.0", "--arms", "stock,stock+tuned");

        assertThatThrownBy(() -> options.tuning(options.resolvedLines(root).get("4.9.0"))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("release line 4.9.0 has no tuned.properties");
        // campaign --ci then checks the replication promise on the patched build as it is
        assertThat(options.hasTuning(options.resolvedLines(root).get("4.9.0"))).isFalse();
        Path screen = Files.writeString(root.resolve("screen.properties"), "serverNettyWorkerGroupEnable=false\n");
        CampaignOptions screened = CampaignOptions.parse("--line", "4.9.0", "--arms", "stock,stock+tuned", "--tuned", screen.toString());
        assertThat(screened.tuning(screened.resolvedLines(root).get("4.9.0")).describe()).isEqualTo("serverNettyWorkerGroupEnable=false");
        assertThat(screened.hasTuning(screened.resolvedLines(root).get("4.9.0"))).isTrue();
        assertThatThrownBy(() -> CampaignOptions.parse("--tuned", screen.toString())).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--tuned names the configuration of the tuned arms");
    }

    @Test
    void rejectsUnknownRepeatedOrLoneArmsAndArmsWithCiInOneLine() {
        assertThatThrownBy(() -> CampaignOptions.parse("--arms", "stock,fast")).isInstanceOf(UsageException.class)
                .hasMessage("--arms takes comma-separated arms of stock, stock+tuned, patched, patched+tuned, stock+async,"
                        + " stock+tuned+async, patched+async, patched+tuned+async, got 'stock,fast'");
        assertThatThrownBy(() -> CampaignOptions.parse("--arms", "stock,stock")).isInstanceOf(UsageException.class)
                .hasMessage("--arms names stock twice, got 'stock,stock'");
        assertThatThrownBy(() -> CampaignOptions.parse("--arms", "patched")).isInstanceOf(UsageException.class)
                .hasMessage("--arms needs at least two arms to compare, got 'patched'");
        assertThatThrownBy(() -> CampaignOptions.parse("--ci", "--arms", "stock,stock+tuned")).isInstanceOf(UsageException.class)
                .hasMessage("--ci runs its own check of stock and patched: give it no --arms");
    }

    @Test
    void allocationSitesAddProfiledRoundsToACampaignNotToTheCiCheck() {
        assertThat(CampaignOptions.parse().allocationSites()).isFalse();
        assertThat(CampaignOptions.parse("--alloc-sites", "--rounds", "5").allocationSites()).isTrue();
        assertThatThrownBy(() -> CampaignOptions.parse("--ci", "--alloc-sites")).isInstanceOf(UsageException.class)
                .hasMessage("--alloc-sites adds profiled rounds to a campaign: not with --ci");
    }
}
