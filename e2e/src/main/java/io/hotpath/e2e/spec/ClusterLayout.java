package io.hotpath.e2e.spec;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The 2m-2s topology of upstream's {@code conf/2m-2s-sync}: one name server, broker-a and broker-b,
 * each a SYNC_MASTER with one SLAVE, ASYNC_FLUSH. On {@link NetMode#LOOPBACK} every address is
 * 127.0.0.1; on {@link NetMode#REALISTIC} each node has its own address in {@link #REALISTIC_SUBNET}
 * (name server .10, brokers .11 to .14, the controller .1), which exists only inside the run's private
 * network namespace ({@code ClusterNetwork} puts it there).
 *
 * <p>Ports derive from one base port so that several clusters (or other engineers' services) can
 * coexist: name server {@code base}; broker {@code i} (1..4) listens on {@code base + 10*i + 2}.
 * A 4.9.0 broker also opens {@code listenPort - 2} (the "VIP" channel) and forces its HA port to
 * {@code listenPort + 1} whatever the config says, so each broker owns three ports.
 */
public final class ClusterLayout {

    public static final String CLUSTER_NAME = "DefaultCluster";
    public static final String LOOPBACK = "127.0.0.1";
    /** A private range the host is unlikely to route: it only ever exists inside the run's namespace. */
    public static final String REALISTIC_SUBNET = "10.213.0.0/24";
    public static final int REALISTIC_PREFIX_LENGTH = 24;
    /** The controller's address on the bridge: where the load generator and the verifier run. */
    public static final String REALISTIC_CONTROLLER = "10.213.0.1";
    private static final String REALISTIC_NODE_PREFIX = "10.213.0.";
    private static final int REALISTIC_FIRST_NODE = 10;
    public static final int DEFAULT_BASE_PORT = 19876;
    public static final int MIN_BASE_PORT = 1024;
    public static final int MAX_BASE_PORT = 65535 - 50;
    /**
     * 64 MiB CommitLog files instead of 1 GiB: smaller mappings boot faster, and a loaded round's warm-up rolls to a second
     * file early. A master's first roll takes a branch of CommitLog.asyncPutMessage (END_OF_FILE) that C2 compiled without,
     * and its deoptimization and recompile (2-10 s of compile time on 5.5.1) must land in the warm-up, not in the measured
     * window: with 256 MiB files the first roll came ~160 s into a 2500 msg/s load, in the window of most rounds
     * (bin/hotpath campaign --line 5.5.1 --rate 2500 --warmup 180 --warmup-jit 5, 2026-11-30); 64 MiB roll after ~40 s.
     */
    static final int COMMIT_LOG_FILE_BYTES = 64 * 1024 * 1024;

    public enum Role { NAMESRV, SYNC_MASTER, SLAVE }

    /**
     * One JVM of the cluster. {@code brokerName}/{@code brokerId} are null/-1 for the name server;
     * {@code host} is the address it listens on and advertises (brokerIP1 and brokerIP2).
     */
    public record Node(String name, Role role, String brokerName, int brokerId, String host, int listenPort) {

        public boolean isBroker() {
            return role != Role.NAMESRV;
        }

        public boolean isMaster() {
            return role == Role.SYNC_MASTER;
        }

        public int haPort() {
            return listenPort + 1;
        }

        public int vipPort() {
            return listenPort - 2;
        }

        public String address() {
            return host + ":" + listenPort;
        }

        /** Every port the node will listen on. */
        public List<Integer> ports() {
            return isBroker() ? List.of(vipPort(), listenPort, haPort()) : List.of(listenPort);
        }
    }

    private final int basePort;
    private final NetMode net;
    private final List<Node> nodes;

    public ClusterLayout(int basePort) {
        this(basePort, NetMode.LOOPBACK);
    }

    /**
     * Ports are the same in both modes: on {@link NetMode#REALISTIC} each node could use upstream's
     * defaults in its own namespace, but one scheme keeps logs and confs of both modes comparable.
     */
    public ClusterLayout(int basePort, NetMode net) {
        if (basePort < MIN_BASE_PORT || basePort > MAX_BASE_PORT) {
            throw new UsageException("--base-port must be between " + MIN_BASE_PORT + " and " + MAX_BASE_PORT
                    + " (the cluster uses base .. base+43), got " + basePort);
        }
        this.basePort = basePort;
        this.net = net;
        List<Node> list = new ArrayList<>();
        list.add(new Node("namesrv", Role.NAMESRV, null, -1, host(net, 0), basePort));
        list.add(new Node("broker-a", Role.SYNC_MASTER, "broker-a", 0, host(net, 1), basePort + 12));
        list.add(new Node("broker-a-s", Role.SLAVE, "broker-a", 1, host(net, 2), basePort + 22));
        list.add(new Node("broker-b", Role.SYNC_MASTER, "broker-b", 0, host(net, 3), basePort + 32));
        list.add(new Node("broker-b-s", Role.SLAVE, "broker-b", 1, host(net, 4), basePort + 42));
        this.nodes = List.copyOf(list);
    }

    private static String host(NetMode net, int index) {
        return net == NetMode.LOOPBACK ? LOOPBACK : REALISTIC_NODE_PREFIX + (REALISTIC_FIRST_NODE + index);
    }

    public int basePort() {
        return basePort;
    }

    public NetMode net() {
        return net;
    }

    public List<Node> nodes() {
        return nodes;
    }

    public Node namesrv() {
        return nodes.get(0);
    }

    public List<Node> brokers() {
        return nodes.stream().filter(Node::isBroker).toList();
    }

    public List<Node> masters() {
        return nodes.stream().filter(Node::isMaster).toList();
    }

    public List<String> brokerNames() {
        return masters().stream().map(Node::brokerName).toList();
    }

    public String namesrvAddress() {
        return namesrv().address();
    }

    /**
     * Fails with one line naming the first port that cannot be bound. Binds 127.0.0.1 with
     * SO_REUSEADDR, as RocketMQ's Netty servers do: connections of a previous cluster lingering in
     * TIME_WAIT do not count, a listener on the port (also a wildcard 0.0.0.0 one) does. On
     * {@link NetMode#REALISTIC} there is nothing to check: each node listens in a namespace of its own
     * that the run creates empty.
     */
    public void checkPortsFree() {
        if (net != NetMode.LOOPBACK) {
            return;
        }
        for (Node node : nodes) {
            for (int port : node.ports()) {
                if (!canBind(port)) {
                    throw new UsageException("port " + port + " (" + node.name() + ") is in use; pick another --base-port"
                            + " (the cluster needs " + basePort + ".." + (basePort + 43) + ")");
                }
            }
        }
    }

    static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The name server's settings: only its port, everything else is upstream default. Its kvConfig
     * lands under {@code user.home}, which the cluster points into the run directory.
     */
    public Properties namesrvConfig() {
        Properties p = new Properties();
        p.setProperty("listenPort", Integer.toString(namesrv().listenPort()));
        return p;
    }

    /** Master and slave of each broker name: both hold every acknowledged message (SYNC_MASTER). */
    static final int REPLICAS_PER_BROKER = 2;

    /** The brokers' {@code transactionCheckInterval} (upstream default 60 s), see {@code RelaySends}. */
    static final long TRANSACTION_CHECK_INTERVAL_MILLIS = 1_000;

    /**
     * A broker's settings: the distribution's defaults for that node, then what makes it ours:
     * names, roles, its address, ports and a store inside {@code nodeDir}.
     */
    public Properties brokerConfig(Node node, Properties distributionDefaults, Path nodeDir) {
        return brokerConfig(node, distributionDefaults, nodeDir, Role.SYNC_MASTER.name());
    }

    /**
     * {@link #brokerConfig(Node, Properties, Path)} with the masters' role: SYNC_MASTER, or ASYNC_MASTER for a
     * campaign's floor arm (the slaves stay SLAVE, flushing stays ASYNC_FLUSH).
     */
    public Properties brokerConfig(Node node, Properties distributionDefaults, Path nodeDir, String masterRole) {
        if (!masterRole.equals(Role.SYNC_MASTER.name()) && !masterRole.equals("ASYNC_MASTER")) {
            throw new IllegalArgumentException("a master runs as SYNC_MASTER or ASYNC_MASTER, not " + masterRole);
        }
        if (!node.isBroker()) {
            throw new IllegalArgumentException(node.name() + " is not a broker");
        }
        Properties p = new Properties();
        p.putAll(distributionDefaults);
        Path store = nodeDir.resolve("store");
        p.setProperty("brokerClusterName", CLUSTER_NAME);
        p.setProperty("brokerName", node.brokerName());
        p.setProperty("brokerId", Integer.toString(node.brokerId()));
        p.setProperty("brokerRole", node.isMaster() ? masterRole : node.role().name());
        p.setProperty("flushDiskType", "ASYNC_FLUSH");
        // a SYNC_MASTER acknowledges a send only once its slave has it: 4.9.x by its role alone, 5.x counts the
        // replicas that must hold a message (inSyncReplicas, default 1: the master alone, so it would not wait);
        // 4.9.x knows neither key and ignores both
        p.setProperty("totalReplicas", Integer.toString(REPLICAS_PER_BROKER));
        p.setProperty("inSyncReplicas", Integer.toString(REPLICAS_PER_BROKER));
        p.setProperty("namesrvAddr", namesrvAddress());
        // brokerIP1 is what clients dial, brokerIP2 what the slave's HA client dials (the master's
        // brokerIP2, which the name server hands the slave when it registers)
        p.setProperty("brokerIP1", node.host());
        p.setProperty("brokerIP2", node.host());
        p.setProperty("listenPort", Integer.toString(node.listenPort()));
        p.setProperty("haListenPort", Integer.toString(node.haPort()));
        // the slave learns its master's HA address from the name server; a stale value would win
        p.remove("haMasterAddress");
        p.setProperty("storePathRootDir", store.toString());
        p.setProperty("storePathCommitLog", store.resolve("commitlog").toString());
        p.setProperty("mappedFileSizeCommitLog", Integer.toString(COMMIT_LOG_FILE_BYTES));
        // RelaySends: a transaction that answered UNKNOW is checked back within ~7 s (transactionTimeOut
        // 6 s stays upstream's), not after the default 60 s interval; idle, the check costs one lookup
        p.setProperty("transactionCheckInterval", Long.toString(TRANSACTION_CHECK_INTERVAL_MILLIS));
        return p;
    }
}
