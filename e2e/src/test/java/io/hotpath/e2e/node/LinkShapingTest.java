package io.hotpath.e2e.node;

import static io.hotpath.e2e.node.NodeNamespacesTest.commands;
import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.NetMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkShapingTest {

    private final ClusterLayout layout = new ClusterLayout(30000, NetMode.REALISTIC);
    /** Holder PIDs as the run's PID namespace would number them. */
    private final Map<String, Long> pids = Map.of("namesrv", 21L, "broker-a", 23L, "broker-a-s", 25L, "broker-b", 27L,
            "broker-b-s", 29L);

    @Test
    void everySenderDelaysThirtyMicrosecondsAndEveryLinkIsOneGigabit() {
        List<String> steps = commands(LinkShaping.shapingSteps(layout, pids, true));

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
        List<String> steps = commands(LinkShaping.shapingSteps(layout, pids, false));

        assertThat(steps).noneMatch(s -> s.contains("netem"));
        assertThat(steps).hasSize(1 + 5 + 5).allMatch(s -> s.contains("tbf rate 1gbit burst 64kb latency 10ms"));
        assertThat(steps.get(0)).isEqualTo("controller: tc qdisc add dev hp-br root handle 10: tbf rate 1gbit burst 64kb latency 10ms");
    }
}
