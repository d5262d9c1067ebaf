package io.hotpath.e2e.node;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.NetMode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The network the cluster's five server processes run in ({@code --net}).
 *
 * <p>{@link NetMode#LOOPBACK}: nothing to set up. Every node shares the controller's private namespace
 * (module cli's ClusterLauncher) and listens on 127.0.0.1.
 *
 * <p>{@link NetMode#REALISTIC}: inside that private namespace, so that the host's network is never touched
 * and nothing is left to clean up there, {@link #open} puts each node in a namespace of its own on a veth to the
 * controller's bridge ({@link NodeNamespaces}), shapes the links ({@link LinkShaping}), proves them before any
 * server starts ({@link LinkCheck}) and keeps what it measured ({@link NetworkSummary}); every command goes
 * through {@link SetupCommands} into {@code network.log}. The namespace holders are stopped by PID in
 * {@link #close()} and by a shutdown hook; and as the controller is PID 1 of the run's PID namespace, the kernel
 * ends them with it whatever happens.
 */
public final class ClusterNetwork implements AutoCloseable {

    static final List<String> TOOLS = List.of("ip", "tc", "unshare", "nsenter", "bash", "head");

    private final ClusterLayout layout;
    private final SetupCommands commands;
    private final NodeNamespaces namespaces;
    private final Thread shutdownHook;
    private NetworkSummary summary;
    private boolean closed;

    private ClusterNetwork(ClusterLayout layout, SetupCommands commands, NodeNamespaces namespaces) {
        this.layout = layout;
        this.commands = commands;
        this.namespaces = namespaces;
        this.shutdownHook = namespaces == null ? null : new Thread(namespaces::stopHolders, "hotpath-network-shutdown");
    }

    /**
     * The network of {@code layout}: on loopback an object with nothing to do; on realistic the namespaces, links
     * and shaping, checked. Needs the private namespace already checked (the controller checks it before it opens the network): the
     * bridge lands in the namespace this JVM runs in. {@code logDir} receives {@code network.log}: every command
     * and what it printed, and the qdisc counters at close.
     */
    public static ClusterNetwork open(ClusterLayout layout, Path logDir) {
        if (layout.net() == NetMode.LOOPBACK) {
            ClusterNetwork network = new ClusterNetwork(layout, null, null);
            network.summary = NetworkSummary.LOOPBACK;
            return network;
        }
        checkTools(System.getenv("PATH"));
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + logDir, e);
        }
        SetupCommands commands = new SetupCommands(logDir.resolve("network.log"));
        ClusterNetwork network = new ClusterNetwork(layout, commands, new NodeNamespaces(layout, commands));
        Runtime.getRuntime().addShutdownHook(network.shutdownHook);
        try {
            network.setUp();
            return network;
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** Fails with one line naming the first missing tool. */
    static void checkTools(String path) {
        for (String tool : TOOLS) {
            boolean found = path != null && Arrays.stream(path.split(File.pathSeparator))
                    .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)));
            if (!found) {
                throw new UsageException("--net realistic needs '" + tool + "' (" + (tool.equals("ip") || tool.equals("tc")
                        ? "iproute2" : tool.equals("bash") || tool.equals("head") ? "bash/coreutils" : "util-linux")
                        + ") on PATH; it is not there. Use --net loopback (the default) instead");
            }
        }
    }

    private void setUp() {
        Map<String, Long> pids = namespaces.startHolders();
        commands.run(NodeNamespaces.bridgeSteps());
        boolean netem = LinkShaping.probeNetem(commands);
        commands.run(NodeNamespaces.nodeSteps(layout, pids));
        commands.run(LinkShaping.shapingSteps(layout, pids, netem));
        int delayMicros = netem ? LinkShaping.DELAY_MICROS : 0;
        if (!netem) {
            Console.warn("--net realistic: this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM is not set): the links are"
                    + " rate-limited to 1 Gbit/s but get no added delay, so round trips are the veths' own");
        }
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("controller", ClusterLayout.REALISTIC_CONTROLLER);
        layout.nodes().forEach(node -> addresses.put(node.name(), node.host()));
        Console.progress("realistic network: %s, each node in a namespace of its own on a veth to bridge %s; shaped by %s",
                NetworkSummary.hosts(addresses), NodeNamespaces.BRIDGE, NetworkSummary.shaping(delayMicros, LinkShaping.RATE_MBIT));

        LinkCheck.Measurement measured = LinkCheck.measure(layout, pids.get("broker-a"), commands.logFile());
        summary = new NetworkSummary(NetMode.REALISTIC, Collections.unmodifiableMap(addresses), delayMicros, LinkShaping.RATE_MBIT,
                measured.brokerARttMillis(), measured.slowestRttMillis(), measured.loopbackRttMillis(), measured.throughputMbit());
        Console.progress("realistic network check: TCP round trip controller -> broker-a %.3f ms (median of %d connects;"
                        + " slowest node %.3f ms; loopback %.3f ms), broker-a -> controller %.0f Mbit/s (%d MiB)",
                measured.brokerARttMillis(), LinkCheck.RTT_SAMPLES, measured.slowestRttMillis(), measured.loopbackRttMillis(),
                measured.throughputMbit(), LinkCheck.THROUGHPUT_BYTES >> 20);
        LinkCheck.requireShaped(measured, commands.logFile());
    }

    /** What puts a server into its node's namespace: nothing on loopback, {@code nsenter ... --} on realistic. */
    public List<String> launchPrefix(ClusterLayout.Node node) {
        if (layout.net() == NetMode.LOOPBACK) {
            return List.of();
        }
        return namespaces.launchPrefix(node);
    }

    public ClusterLayout layout() {
        return layout;
    }

    public NetworkSummary summary() {
        return summary;
    }

    /** Stops the namespace holders by PID, after logging the qdisc counters; the namespaces go with them. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (layout.net() == NetMode.LOOPBACK) {
            return;
        }
        if (namespaces.allAlive()) {
            LinkShaping.logCounters(commands, namespaces.holderPids());
        }
        namespaces.stopHolders();
        // the veth pairs went with the namespaces
        namespaces.deleteBridge();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or has run
        }
    }
}
