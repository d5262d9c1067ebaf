package io.hotpath.e2e.node;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.node.SetupCommands.Step;
import io.hotpath.e2e.spec.ClusterLayout;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace per node, each held open by an {@code unshare --net sleep infinity} process, and one veth
 * pair from it to a bridge in the controller's namespace, where the load generator and the verifier run:
 * <pre>
 *   controller: hp-br 10.213.0.1/24 --+-- hp0 === eth0 10.213.0.10  namesrv
 *                                     +-- hp1 === eth0 10.213.0.11  broker-a   (hp2 .12 broker-a-s,
 *                                     ...                                       hp3 .13 broker-b, hp4 .14 broker-b-s)
 * </pre>
 * A server is started with {@code nsenter --net=/proc/<holder>/ns/net --}, which enters and execs: the PID
 * {@link ManagedProcess} manages is still the server's, and a restarted broker gets its namespace and address
 * back. Nothing is written to /var/run/netns: a node's namespace (and its veth pair with it) vanishes once its
 * holder and its server are gone, the bridge with the private namespace. The holders are stopped by PID.
 */
final class NodeNamespaces {

    static final String BRIDGE = "hp-br";
    static final String NODE_INTERFACE = "eth0";

    private final ClusterLayout layout;
    private final SetupCommands commands;
    private final Map<String, Process> holders = new LinkedHashMap<>();

    NodeNamespaces(ClusterLayout layout, SetupCommands commands) {
        this.layout = layout;
        this.commands = commands;
    }

    /** Starts a holder per node and returns their PIDs by node name, once each is in a namespace of its own. */
    Map<String, Long> startHolders() {
        for (ClusterLayout.Node node : layout.nodes()) {
            holders.put(node.name(), startHolder(node));
        }
        return holderPids();
    }

    Map<String, Long> holderPids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        holders.forEach((name, holder) -> pids.put(name, holder.pid()));
        return pids;
    }

    boolean allAlive() {
        return !holders.isEmpty() && holders.values().stream().allMatch(Process::isAlive);
    }

    /** The bridge in the controller's namespace, with the controller's address. */
    static List<Step> bridgeSteps() {
        return List.of(
                new Step("controller", List.of("ip", "link", "add", BRIDGE, "type", "bridge")),
                new Step("controller", List.of("ip", "addr", "add",
                        ClusterLayout.REALISTIC_CONTROLLER + "/" + ClusterLayout.REALISTIC_PREFIX_LENGTH, "dev", BRIDGE)),
                new Step("controller", List.of("ip", "link", "set", BRIDGE, "up")));
    }

    /**
     * Per node {@code i}: veth pair hp{i} (bridge port) and hp{i}n, the latter moved into the node's namespace
     * by its holder's PID and renamed eth0 there, with the node's address; loopback up too (a broker also
     * talks to itself).
     */
    static List<Step> nodeSteps(ClusterLayout layout, Map<String, Long> holderPids) {
        List<Step> steps = new ArrayList<>();
        List<ClusterLayout.Node> nodes = layout.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            ClusterLayout.Node node = nodes.get(i);
            String port = port(i);
            String inside = port + "n";
            long pid = holderPids.get(node.name());
            steps.add(new Step("controller", List.of("ip", "link", "add", port, "type", "veth", "peer", "name", inside)));
            steps.add(new Step("controller", List.of("ip", "link", "set", inside, "netns", Long.toString(pid))));
            steps.add(new Step("controller", List.of("ip", "link", "set", port, "master", BRIDGE)));
            steps.add(new Step("controller", List.of("ip", "link", "set", port, "up")));
            steps.add(inNode(node, pid, "ip", "link", "set", "lo", "up"));
            steps.add(inNode(node, pid, "ip", "link", "set", inside, "name", NODE_INTERFACE));
            steps.add(inNode(node, pid, "ip", "addr", "add", node.host() + "/" + ClusterLayout.REALISTIC_PREFIX_LENGTH,
                    "dev", NODE_INTERFACE));
            steps.add(inNode(node, pid, "ip", "link", "set", NODE_INTERFACE, "up"));
        }
        return steps;
    }

    /** The bridge port towards the node at {@code index} of the layout. */
    static String port(int index) {
        return "hp" + index;
    }

    private static Step inNode(ClusterLayout.Node node, long pid, String... argv) {
        List<String> command = new ArrayList<>(nsenter(pid));
        command.addAll(List.of(argv));
        return new Step(node.name(), command);
    }

    static List<String> nsenter(long pid) {
        return List.of("nsenter", "--net=/proc/" + pid + "/ns/net", "--");
    }

    /** {@code nsenter ... --} into the node's namespace; fails if its holder is gone. */
    List<String> launchPrefix(ClusterLayout.Node node) {
        Process holder = holders.get(node.name());
        if (holder == null || !holder.isAlive()) {
            throw new ClusterException("the network namespace of " + node.name() + " is gone (its holder process ended"
                    + (holder == null ? "" : " with exit code " + holder.exitValue()) + "); see " + commands.logFile());
        }
        return nsenter(holder.pid());
    }

    private Process startHolder(ClusterLayout.Node node) {
        Process holder;
        try {
            holder = new ProcessBuilder("unshare", "--net", "--", "sleep", "infinity")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(commands.logFile().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new ClusterException("cannot start the namespace holder of " + node.name() + ": " + e.getMessage(), e);
        }
        commands.log("holder of " + node.name() + ": unshare --net -- sleep infinity, pid " + holder.pid());
        // unshare() happens after the fork: until then the holder is still in our namespace, and moving a veth
        // end "into" it would leave it here
        Path own = Path.of("/proc/self/ns/net");
        Path its = Path.of("/proc/" + holder.pid() + "/ns/net");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            if (!holder.isAlive()) {
                throw new ClusterException("cannot create a network namespace for " + node.name() + ": unshare --net exited"
                        + " with code " + holder.exitValue() + " (" + commands.lastLogLine() + ")");
            }
            try {
                if (!Files.readSymbolicLink(its).equals(Files.readSymbolicLink(own))) {
                    return holder;
                }
            } catch (IOException e) {
                // not readable yet
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException("the namespace holder of " + node.name() + " (pid " + holder.pid()
                        + ") did not enter a network namespace of its own within 10 s");
            }
            sleep(20);
        }
    }

    /** Stops the holders by PID; the namespaces, and the veth pairs in them, go with them. */
    void stopHolders() {
        for (Process holder : holders.values()) {
            holder.destroy();
        }
        for (Process holder : holders.values()) {
            try {
                if (!holder.waitFor(5, TimeUnit.SECONDS)) {
                    holder.destroyForcibly();
                    holder.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                holder.destroyForcibly();
            }
        }
    }

    /** The bridge would go with the private namespace, but not before a campaign's next round could trip over it. */
    void deleteBridge() {
        commands.execute(new Step("controller", List.of("ip", "link", "del", BRIDGE)));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while setting up the realistic network", e);
        }
    }
}
