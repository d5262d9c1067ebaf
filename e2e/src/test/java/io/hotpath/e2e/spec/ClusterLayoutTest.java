package io.hotpath.e2e.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ClusterLayoutTest {

    private final ClusterLayout layout = new ClusterLayout(30000);

    @Test
    void hasOneNameServerAndTwoSyncMastersWithOneSlaveEach() {
        assertThat(layout.nodes()).extracting(ClusterLayout.Node::name)
                .containsExactly("namesrv", "broker-a", "broker-a-s", "broker-b", "broker-b-s");
        assertThat(layout.masters()).extracting(ClusterLayout.Node::role).containsOnly(ClusterLayout.Role.SYNC_MASTER);
        assertThat(layout.brokerNames()).containsExactly("broker-a", "broker-b");
        assertThat(layout.namesrvAddress()).isEqualTo("127.0.0.1:30000");
    }

    @Test
    void portsOfAllNodesAreDistinctAndWithinBasePlus43() {
        List<Integer> ports = layout.nodes().stream().flatMap(n -> n.ports().stream()).toList();

        assertThat(ports).doesNotHaveDuplicates().allSatisfy(p -> assertThat(p).isBetween(30000, 30043));
        assertThat(ports).hasSize(1 + 4 * 3);
    }

    @Test
    void brokerOwnsVipAndHaPortsNextToItsListenPortLike490() {
        ClusterLayout.Node brokerA = layout.masters().get(0);

        assertThat(brokerA.ports()).containsExactly(brokerA.listenPort() - 2, brokerA.listenPort(), brokerA.listenPort() + 1);
    }

    @Test
    void brokerConfigOverridesDistributionDefaultsWithOurPortsRolesAndStore() {
        Properties defaults = new Properties();
        defaults.setProperty("listenPort", "10911");
        defaults.setProperty("storePathRootDir", "/root/store/broker-a-s");
        defaults.setProperty("haMasterAddress", "10.0.0.1:10912");
        defaults.setProperty("deleteWhen", "04");
        ClusterLayout.Node slave = layout.brokers().get(1);

        Properties config = layout.brokerConfig(slave, defaults, Path.of("/run/broker-a-s"));

        assertThat(config.getProperty("brokerName")).isEqualTo("broker-a");
        assertThat(config.getProperty("brokerId")).isEqualTo("1");
        assertThat(config.getProperty("brokerRole")).isEqualTo("SLAVE");
        assertThat(config.getProperty("flushDiskType")).isEqualTo("ASYNC_FLUSH");
        assertThat(config.getProperty("namesrvAddr")).isEqualTo("127.0.0.1:30000");
        assertThat(config.getProperty("brokerIP1")).isEqualTo("127.0.0.1");
        assertThat(config.getProperty("brokerIP2")).isEqualTo("127.0.0.1");
        assertThat(config.getProperty("listenPort")).isEqualTo(Integer.toString(slave.listenPort()));
        assertThat(config.getProperty("storePathRootDir")).isEqualTo("/run/broker-a-s/store");
        assertThat(config.getProperty("storePathCommitLog")).isEqualTo("/run/broker-a-s/store/commitlog");
        assertThat(config.getProperty("mappedFileSizeCommitLog")).isEqualTo(Integer.toString(64 * 1024 * 1024));
        assertThat(config).doesNotContainKey("haMasterAddress");
        assertThat(config.getProperty("deleteWhen")).isEqualTo("04");
    }

    @Test
    void aSyncMasterWaitsForItsSlaveOnEveryLineMasterAndSlaveCountedAsInSyncReplicas() {
        Properties config = layout.brokerConfig(layout.masters().get(0), new Properties(), Path.of("/run/broker-a"));

        assertThat(config.getProperty("brokerRole")).isEqualTo("SYNC_MASTER");
        assertThat(config.getProperty("totalReplicas")).isEqualTo("2");
        assertThat(config.getProperty("inSyncReplicas")).isEqualTo("2");
    }

    @Test
    void aFloorArmRunsItsMastersAsAsyncMasterAndLeavesTheSlavesFlushAndReplicasAlone() {
        Properties master = layout.brokerConfig(layout.masters().get(0), new Properties(), Path.of("/run/broker-a"), "ASYNC_MASTER");
        Properties slave = layout.brokerConfig(layout.brokers().get(1), new Properties(), Path.of("/run/broker-a-s"), "ASYNC_MASTER");

        assertThat(master.getProperty("brokerRole")).isEqualTo("ASYNC_MASTER");
        assertThat(master.getProperty("flushDiskType")).isEqualTo("ASYNC_FLUSH");
        assertThat(slave.getProperty("brokerRole")).isEqualTo("SLAVE");
        // a distribution's own conf cannot turn a SYNC_MASTER arm into something else
        Properties shipped = new Properties();
        shipped.setProperty("brokerRole", "ASYNC_MASTER");
        assertThat(layout.brokerConfig(layout.masters().get(0), shipped, Path.of("/run/broker-a")).getProperty("brokerRole"))
                .isEqualTo("SYNC_MASTER");
        assertThatThrownBy(() -> layout.brokerConfig(layout.masters().get(0), new Properties(), Path.of("/run/broker-a"), "SLAVE"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsBasePortsOutsideTheUsableRange() {
        assertThatThrownBy(() -> new ClusterLayout(1023)).isInstanceOf(UsageException.class);
        assertThatThrownBy(() -> new ClusterLayout(65500)).isInstanceOf(UsageException.class);
    }

    @Test
    void namesThePortInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();
            // make the taken port broker-a's VIP port (base + 10)
            ClusterLayout clash = new ClusterLayout(port - 10);

            assertThatThrownBy(clash::checkPortsFree)
                    .isInstanceOf(UsageException.class)
                    .hasMessageStartingWith("port " + port + " (broker-a) is in use");
        }
    }

    @Test
    void realisticGivesEveryNodeItsOwnAddressWithTheSamePorts() {
        ClusterLayout realistic = new ClusterLayout(30000, NetMode.REALISTIC);

        assertThat(realistic.nodes()).extracting(ClusterLayout.Node::host)
                .containsExactly("10.213.0.10", "10.213.0.11", "10.213.0.12", "10.213.0.13", "10.213.0.14");
        assertThat(realistic.nodes()).extracting(ClusterLayout.Node::listenPort)
                .isEqualTo(layout.nodes().stream().map(ClusterLayout.Node::listenPort).toList());
        assertThat(realistic.namesrvAddress()).isEqualTo("10.213.0.10:30000");
        assertThat(layout.nodes()).extracting(ClusterLayout.Node::host).containsOnly("127.0.0.1");
    }

    @Test
    void realisticBrokerAdvertisesItsOwnAddressToClientsAndToItsSlaveAndDialsTheNameServersAddress() {
        ClusterLayout realistic = new ClusterLayout(30000, NetMode.REALISTIC);
        ClusterLayout.Node master = realistic.masters().get(1);
        ClusterLayout.Node slave = realistic.brokers().get(3);

        Properties masterConfig = realistic.brokerConfig(master, new Properties(), Path.of("/run/broker-b"));
        Properties slaveConfig = realistic.brokerConfig(slave, new Properties(), Path.of("/run/broker-b-s"));

        assertThat(masterConfig.getProperty("brokerIP1")).isEqualTo("10.213.0.13");
        // the slave's HA client dials its master's brokerIP2, which the name server hands it
        assertThat(masterConfig.getProperty("brokerIP2")).isEqualTo("10.213.0.13");
        assertThat(slaveConfig.getProperty("brokerIP1")).isEqualTo("10.213.0.14");
        assertThat(slaveConfig.getProperty("brokerIP2")).isEqualTo("10.213.0.14");
        assertThat(slaveConfig.getProperty("namesrvAddr")).isEqualTo("10.213.0.10:30000");
        assertThat(slaveConfig).doesNotContainKey("haMasterAddress");
    }

    @Test
    void realisticSkipsThePortCheckAsEveryNodeListensInAFreshNamespace() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();

            new ClusterLayout(port - 10, NetMode.REALISTIC).checkPortsFree();
        }
    }
}
