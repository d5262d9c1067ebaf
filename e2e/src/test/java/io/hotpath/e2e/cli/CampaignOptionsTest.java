package io.hotpath.e2e.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.cluster.FaultScenario;
import io.hotpath.e2e.network.NetMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class CampaignOptionsTest {

    @Test
    void readsTheMatrixAsCommaSeparatedLists() {
        CampaignOptions options = CampaignOptions.parse("--rounds", "3", "--threads", "16,32", "--sizes=128,1024", "--rate", "6000");

        assertThat(options.rounds()).isEqualTo(3);
        assertThat(options.threads()).containsExactly(16, 32);
        assertThat(options.sizes()).containsExactly(128, 1024);
        assertThat(options.rate()).isEqualTo(6000);
    }

    @Test
    void aRoundIsATimedSmokeOfOneDistributionWithoutFault() {
        SmokeOptions round = CampaignOptions.parse("--seconds", "10").round("stock", 32, 512);

        assertThat(round.distributions()).isEqualTo(List.of("stock"));
        assertThat(round.seconds()).isEqualTo(10);
        assertThat(round.threads()).isEqualTo(32);
        assertThat(round.bodySize()).isEqualTo(512);
        assertThat(round.fault()).isEqualTo(FaultScenario.NONE);
    }

    @Test
    void rejectsBadListsInOneLine() {
        assertThatThrownBy(() -> CampaignOptions.parse("--threads", "16,x")).isInstanceOf(UsageException.class)
                .hasMessage("--threads must be a whole number, got 'x'");
        assertThatThrownBy(() -> CampaignOptions.parse("--bogus")).hasMessageContaining("unknown option '--bogus' for campaign");
    }

    @Test
    void netReachesEveryRoundAndRealisticNeedsThePrivateNamespace() {
        assertThat(CampaignOptions.parse().net()).isEqualTo(NetMode.LOOPBACK);
        assertThat(CampaignOptions.parse().round("stock", 16, 1024).net()).isEqualTo(NetMode.LOOPBACK);
        assertThat(CampaignOptions.parse("--net", "realistic").round("patched", 16, 1024).net()).isEqualTo(NetMode.REALISTIC);
        assertThatThrownBy(() -> CampaignOptions.parse("--net", "lan")).isInstanceOf(UsageException.class)
                .hasMessage("--net must be one of [loopback, realistic], got 'lan'");
        assertThatThrownBy(() -> CampaignOptions.parse("--no-netns", "--net=realistic")).isInstanceOf(UsageException.class)
                .hasMessageContaining("cannot be combined with --no-netns");
        assertThat(CampaignOptions.USAGE).contains("[--net loopback|realistic]");
    }

    @Test
    void lineReachesEveryRound() {
        assertThat(CampaignOptions.parse().round("stock", 16, 1024).line()).isNull();
        assertThat(CampaignOptions.parse("--line=4.9.0").round("stock", 16, 1024).line()).isEqualTo("4.9.0");
    }
}
