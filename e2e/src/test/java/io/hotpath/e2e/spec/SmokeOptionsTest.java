package io.hotpath.e2e.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SmokeOptionsTest {

    @Test
    void defaultsRunAShortPatchedSmokeInAPrivateNamespace() {
        SmokeOptions options = SmokeOptions.parse();

        assertThat(options.distributions()).containsExactly("patched");
        assertThat(options.messages()).isEqualTo(20_000);
        assertThat(options.threads()).isEqualTo(16);
        assertThat(options.bodySize()).isEqualTo(1024);
        assertThat(options.queuesPerMaster()).isEqualTo(8);
        assertThat(options.basePort()).isEqualTo(ClusterLayout.DEFAULT_BASE_PORT);
        assertThat(options.privateNetwork()).isTrue();
        assertThat(options.keepStore()).isFalse();
    }

    @Test
    void readsShortAndLongOptionsLikeProducerSh() {
        SmokeOptions options = SmokeOptions.parse("--dist", "stock", "-n", "5000", "-w", "8", "-s", "128", "-t", "4",
                "--base-port=20000", "--keep-store", "--no-netns");

        assertThat(options).isEqualTo(new SmokeOptions(List.of("stock"), 5000, 8, 128, 4, 20000, false, true, false));
    }

    @Test
    void tunedLaysTheLinesOverlayOnlyWhenAsked() {
        assertThat(SmokeOptions.parse().tuned()).isFalse();
        assertThat(SmokeOptions.parse("--tuned", "--fault", "kill-master").tuned()).isTrue();
    }

    @Test
    void aWarmupIsALoadOfItsSecondsAndNoneByDefault() {
        assertThat(SmokeOptions.parse().warmup()).isEqualTo(Warmup.NONE);
        assertThat(SmokeOptions.parse("--warmup", "20", "--rate", "500").warmup()).isEqualTo(new Warmup(20, 0));
        assertThatThrownBy(() -> SmokeOptions.parse("--warmup", "-1"))
                .isInstanceOf(UsageException.class).hasMessageContaining("--warmup");
    }

    @Test
    void secondsBoundTheLoadByTimeWithACapacityAboveWhatTheMachineTakes() {
        SmokeOptions options = SmokeOptions.parse("--seconds", "30");

        assertThat(options.timed()).isTrue();
        assertThat(options.seconds()).isEqualTo(30);
        assertThat(options.messages()).isEqualTo(30 * RoundSpec.TIMED_CAPACITY_PER_SECOND);
        assertThat(SmokeOptions.parse("--seconds", "30", "-n", "1000").messages()).isEqualTo(1000);
    }

    @Test
    void rateAndBrokerJvmOptionsAreKeptAsGiven() {
        SmokeOptions options = SmokeOptions.parse("--rate", "6000", "--broker-jvm-opts", "-Xms2g  -Xmx2g -XX:+UseParallelGC");

        assertThat(options.rate()).isEqualTo(6000);
        assertThat(options.brokerJvmOptions()).containsExactly("-Xms2g", "-Xmx2g", "-XX:+UseParallelGC");
        assertThat(SmokeOptions.parse("--broker-jvm-opts=-Xmx2g").brokerJvmOptions()).containsExactly("-Xmx2g");
    }

    @Test
    void rejectsBrokerJvmOptionsThatAreNotOptionsInOneLine() {
        assertThatThrownBy(() -> SmokeOptions.parse("--broker-jvm-opts", "-Xmx2g Xms")).isInstanceOf(UsageException.class)
                .hasMessageContaining("'Xms' is not a JVM option");
        assertThatThrownBy(() -> SmokeOptions.parse("--seconds", "0")).isInstanceOf(UsageException.class)
                .hasMessage("--seconds must be between 1 and 86400, got 0");
        assertThatThrownBy(() -> SmokeOptions.parse("--rate")).isInstanceOf(UsageException.class);
    }

    @Test
    void faultIsNamedLikeItsOptionAndNoneByDefault() {
        assertThat(SmokeOptions.parse().fault()).isEqualTo(FaultScenario.NONE);
        assertThat(SmokeOptions.parse("--fault", "kill-master").fault()).isEqualTo(FaultScenario.KILL_MASTER);
        assertThatThrownBy(() -> SmokeOptions.parse("--fault", "kill-all")).isInstanceOf(UsageException.class)
                .hasMessage("--fault must be one of [none, kill-slave, kill-slave-restart, kill-master, restart-cluster], got 'kill-all'");
    }

    @Test
    void bothMeansStockThenPatched() {
        assertThat(SmokeOptions.parse("--dist", "both").distributions()).containsExactly("stock", "patched");
    }

    @Test
    void lastDistWinsSoRunCanBeOverridden() {
        assertThat(SmokeOptions.parse("--dist", "both", "--dist", "stock").distributions()).containsExactly("stock");
    }

    @Test
    void rejectsUnknownOptionInOneLine() {
        assertThatThrownBy(() -> SmokeOptions.parse("--threads-per-queue", "3"))
                .isInstanceOf(UsageException.class)
                .hasMessage("unknown option '--threads-per-queue' for smoke (see bin/hotpath smoke --help)");
    }

    @Test
    void rejectsPositionalArgument() {
        assertThatThrownBy(() -> SmokeOptions.parse("stock"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unexpected argument 'stock'");
    }

    @Test
    void rejectsMissingValueAtTheEndAndBeforeTheNextOption() {
        assertThatThrownBy(() -> SmokeOptions.parse("-n")).hasMessage("option -n needs a value (see bin/hotpath smoke --help)");
        assertThatThrownBy(() -> SmokeOptions.parse("--dist", "--no-netns")).hasMessageContaining("option --dist needs a value");
    }

    @Test
    void rejectsNonNumericAndOutOfRangeNumbers() {
        assertThatThrownBy(() -> SmokeOptions.parse("-n", "5k")).hasMessage("-n must be a whole number, got '5k'");
        assertThatThrownBy(() -> SmokeOptions.parse("-w", "0")).hasMessage("-w must be between 1 and 1024, got 0");
        assertThatThrownBy(() -> SmokeOptions.parse("-n", "-5")).hasMessageContaining("-n must be between 1 and");
        assertThatThrownBy(() -> SmokeOptions.parse("-s", "99999999999")).hasMessageContaining("-s must be between 1 and 4194304");
        assertThatThrownBy(() -> SmokeOptions.parse("--base-port", "80")).hasMessageContaining("--base-port must be between 1024");
    }

    @Test
    void rejectsEmptyDist() {
        assertThatThrownBy(() -> SmokeOptions.parse("--dist=")).isInstanceOf(UsageException.class).hasMessageContaining("--dist needs");
    }

    @Test
    void errorMessagesAreSingleLines() {
        for (String[] args : new String[][] {{"-x"}, {"-n"}, {"-n", "x"}, {"-t", "0"}, {"--dist="}, {"foo"}}) {
            assertThatThrownBy(() -> SmokeOptions.parse(args)).isInstanceOf(UsageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void netIsLoopbackByDefaultAndRealisticOnRequest() {
        assertThat(SmokeOptions.parse().net()).isEqualTo(NetMode.LOOPBACK);
        assertThat(SmokeOptions.parse("--net", "realistic").net()).isEqualTo(NetMode.REALISTIC);
        assertThat(SmokeOptions.parse("--net=loopback").net()).isEqualTo(NetMode.LOOPBACK);
    }

    @Test
    void rejectsAnUnknownNetAndRealisticOnTheHostNetworkInOneLine() {
        assertThatThrownBy(() -> SmokeOptions.parse("--net", "wan")).isInstanceOf(UsageException.class)
                .hasMessage("--net must be one of [loopback, realistic], got 'wan'");
        assertThatThrownBy(() -> SmokeOptions.parse("--net")).isInstanceOf(UsageException.class)
                .hasMessage("option --net needs a value (see bin/hotpath smoke --help)");
        assertThatThrownBy(() -> SmokeOptions.parse("--net", "realistic", "--no-netns")).isInstanceOf(UsageException.class)
                .hasMessageContaining("cannot be combined with --no-netns").satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(SmokeOptions.parse("--net", "loopback", "--no-netns").privateNetwork()).isFalse();
    }

    @Test
    void helpDocumentsNet() {
        assertThat(SmokeOptions.USAGE).contains("[--net loopback|realistic]").contains("--net N").contains("1 Gbit/s");
    }

    @Test
    void lineIsTheNewestUnlessGivenAndTheRunRecordFileIsKeptAbsolute() {
        assertThat(SmokeOptions.parse().line()).isNull();
        assertThat(SmokeOptions.parse("--line", "4.9.10").line()).isEqualTo("4.9.10");
        assertThat(SmokeOptions.parse("--run-record", "target/x.json").runRecord()).isAbsolute().endsWithRaw(java.nio.file.Path.of("target/x.json"));
        assertThatThrownBy(() -> SmokeOptions.parse("--line", "latest")).isInstanceOf(UsageException.class)
                .hasMessage("--line must be a release such as 4.9.0, got 'latest'");
    }
}
