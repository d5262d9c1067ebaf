package io.hotpath.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.ClusterLayout;
import org.junit.jupiter.api.Test;

class ClusterNetworkTest {

    @Test
    void namesTheFirstMissingToolInOneLine() {
        assertThatThrownBy(() -> ClusterNetwork.checkTools("/nonexistent")).isInstanceOf(UsageException.class)
                .hasMessage("--net realistic needs 'ip' (iproute2) on PATH; it is not there. Use --net loopback (the default) instead");
        assertThatThrownBy(() -> ClusterNetwork.checkTools(null)).isInstanceOf(UsageException.class);
    }

    @Test
    void loopbackNetworkSetsNothingUpAndLaunchesServersAsTheyAre() {
        ClusterLayout loopback = new ClusterLayout(30000);
        try (ClusterNetwork network = ClusterNetwork.open(loopback, null)) {
            assertThat(network.launchPrefix(loopback.masters().get(0))).isEmpty();
            assertThat(network.summary()).isEqualTo(NetworkSummary.LOOPBACK);
        }
    }
}
