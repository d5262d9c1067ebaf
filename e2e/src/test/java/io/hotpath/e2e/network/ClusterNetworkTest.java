package io.hotpath.e2e.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.cluster.ClusterLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterNetworkTest {

    private final ClusterLayout layout = new ClusterLayout(30000, NetMode.REALISTIC);
    /** Holder PIDs as the run's PID namespace would number them. */
    private final Map<String, Long> pids = Map.of("namesrv", 21L, "broker-a", 23L, "broker-a-s", 25L, "broker-b", 27L,
            "broker-b-s", 29L);

    private static List<String> commands(List<ClusterNetwork.Step> steps) {
        return steps.stream().map(ClusterNetwork.Step::toString).toList();
    }

    @Test
    void bridgeCarriesTheControllersAddress() {
        assertThat(commands(ClusterNetwork.bridgeSteps())).containsExactly(
                "controller: ip link add hp-br type bridge",
                "controller: ip addr add 10.213.0.1/24 dev hp-br",
                "controller: ip link set hp-br up");
    }

    @Test
    void eachNodeGetsAVethEndMovedIntoItsNamespaceByPidWithItsOwnAddress() {
        List<String> steps = commands(ClusterNetwork.nodeSteps(layout, pids));

        assertThat(steps).hasSize(5 * 8);
        assertThat(steps.subList(8, 16)).containsExactly(
                "controller: ip link add hp1 type veth peer name hp1n",
                "controller: ip link set hp1n netns 23",
                "controller: ip link set hp1 master hp-br",
                "controller: ip link set hp1 up",
                "broker-a: nsenter --net=/proc/23/ns/net -- ip link set lo up",
                "broker-a: nsenter --net=/proc/23/ns/net -- ip link set hp1n name eth0",
                "broker-a: nsenter --net=/proc/23/ns/net -- ip addr add 10.213.0.11/24 dev eth0",
                "broker-a: nsenter --net=/proc/23/ns/net -- ip link set eth0 up");
        assertThat(steps).filteredOn(s -> s.contains("ip addr add") && s.contains("dev eth0"))
                .extracting(s -> s.replaceAll(".* add (\\S+) dev.*", "$1"))
                .containsExactly("10.213.0.10/24", "10.213.0.11/24", "10.213.0.12/24", "10.213.0.13/24", "10.213.0.14/24");
    }

    @Test
    void everySenderDelaysThirtyMicrosecondsAndEveryLinkIsOneGigabit() {
        List<String> steps = commands(ClusterNetwork.shapingSteps(layout, pids, true));

        assertThat(steps).startsWith(
                "controller: tc qdisc add dev hp-br root handle 1: netem delay 30us",
                "controller: tc qdisc add dev hp-br parent 1:1 handle 10: tbf rate 1gbit burst 64kb latency 10ms",
                "namesrv: nsenter --net=/proc/21/ns/net -- tc qdisc add dev eth0 root handle 1: netem delay 30us",
                "namesrv: nsenter --net=/proc/21/ns/net -- tc qdisc add dev eth0 parent 1:1 handle 10: tbf rate 1gbit burst 64kb latency 10ms",
                "controller: tc qdisc add dev hp0 root tbf rate 1gbit burst 64kb latency 10ms");
        // one delay per direction on every path: the controller's bridge and each node's eth0, never a bridge port
        assertThat(steps).filteredOn(s -> s.contains("netem")).hasSize(1 + 5)
                .noneMatch(s -> s.matches(".* dev hp\\d .*"));
        assertThat(steps).filteredOn(s -> s.contains("tbf rate 1gbit")).hasSize(1 + 5 + 5);
    }

    @Test
    void withoutNetemTheLinksKeepTheirRateAndGetNoDelay() {
        List<String> steps = commands(ClusterNetwork.shapingSteps(layout, pids, false));

        assertThat(steps).noneMatch(s -> s.contains("netem"));
        assertThat(steps).hasSize(1 + 5 + 5).allMatch(s -> s.contains("tbf rate 1gbit burst 64kb latency 10ms"));
        assertThat(steps.get(0)).isEqualTo("controller: tc qdisc add dev hp-br root handle 10: tbf rate 1gbit burst 64kb latency 10ms");
    }

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
            assertThat(network.summary()).isEqualTo(ClusterNetwork.Summary.LOOPBACK);
        }
    }

    @Test
    void loopbackRecordsOnlyItsMode() {
        assertThat(ClusterNetwork.Summary.LOOPBACK.jsonFields()).containsExactly("\"net\": \"loopback\"");
        assertThat(ClusterNetwork.Summary.LOOPBACK.describe()).startsWith("loopback");
    }

    @Test
    void realisticRecordsAddressesShapingAndWhatWasMeasured() {
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("controller", "10.213.0.1");
        addresses.put("broker-a", "10.213.0.11");
        ClusterNetwork.Summary summary = new ClusterNetwork.Summary(NetMode.REALISTIC, addresses, 30, 1000, 0.081, 0.095, 0.031, 941.4);

        assertThat(summary.jsonFields()).containsExactly(
                "\"net\": \"realistic\"",
                "\"netAddresses\": {\"controller\": \"10.213.0.1\", \"broker-a\": \"10.213.0.11\"}",
                "\"netShaping\": \"netem 30 us each way + tbf 1000 Mbit/s per link\"",
                "\"netDelayUsEachWay\": 30",
                "\"netRateMbit\": 1000",
                "\"netRttMs\": 0.081",
                "\"netRttMaxMs\": 0.095",
                "\"netLoopbackRttMs\": 0.031",
                "\"netThroughputMbit\": 941");
        assertThat(summary.describe()).contains("controller 10.213.0.1, broker-a 10.213.0.11")
                .contains("controller -> broker-a 0.081 ms").contains("941 Mbit/s").doesNotContain("\n");
    }

    @Test
    void realisticWithoutNetemSaysSo() {
        ClusterNetwork.Summary summary = new ClusterNetwork.Summary(NetMode.REALISTIC, Map.of(), 0, 1000, 0.1, 0.1, 0.1, 900);

        assertThat(summary.shaping()).isEqualTo("tbf 1000 Mbit/s per link, no added delay (kernel without sch_netem)");
    }
}
