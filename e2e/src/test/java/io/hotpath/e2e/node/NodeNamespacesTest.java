package io.hotpath.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.NetMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeNamespacesTest {

    private final ClusterLayout layout = new ClusterLayout(30000, NetMode.REALISTIC);
    /** Holder PIDs as the run's PID namespace would number them. */
    private final Map<String, Long> pids = Map.of("namesrv", 21L, "broker-a", 23L, "broker-a-s", 25L, "broker-b", 27L,
            "broker-b-s", 29L);

    static List<String> commands(List<SetupCommands.Step> steps) {
        return steps.stream().map(SetupCommands.Step::toString).toList();
    }

    @Test
    void bridgeCarriesTheControllersAddress() {
        assertThat(commands(NodeNamespaces.bridgeSteps())).containsExactly(
                "controller: ip link add hp-br type bridge",
                "controller: ip addr add 10.213.0.1/24 dev hp-br",
                "controller: ip link set hp-br up");
    }

    @Test
    void eachNodeGetsAVethEndMovedIntoItsNamespaceByPidWithItsOwnAddress() {
        List<String> steps = commands(NodeNamespaces.nodeSteps(layout, pids));

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
}
