package io.hotpath.e2e.node;

import io.hotpath.e2e.node.SetupCommands.Step;
import io.hotpath.e2e.spec.ClusterLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code tc} commands that shape the realistic network after the seeds' hardware (hosts with 1 Gbit/s NICs
 * on one switch, ~0.06 ms round trip): every sender (a node's eth0; the controller's hp-br, for the traffic it
 * originates) sends through a root {@code netem delay 30us} (half the round trip: one way) whose child is a
 * {@code tbf rate 1gbit} (the NIC's line rate); each bridge port towards a node is a {@code tbf rate 1gbit} as
 * well (the switch port feeding that node's NIC). Traffic between two nodes, such as master to slave
 * replication, is forwarded by the bridge: it passes the sender's eth0 (delay and rate) and the receiver's port
 * (rate) only. So every pair, controller to broker and master to slave alike, sees one 30 us delay each way, a
 * 0.06 ms round trip; delaying both ends of every veth would have given node to node pairs 0.12 ms. A kernel
 * built without {@code sch_netem} gets the rate limit without the delay ({@link #probeNetem}).
 */
final class LinkShaping {

    /** One-way delay per sender: half the seeds' ~0.06 ms round trip between two hosts on one switch. */
    static final String DELAY = "30us";
    static final int DELAY_MICROS = 30;
    /** The seeds' NICs. */
    static final String RATE = "1gbit";
    static final int RATE_MBIT = 1000;
    /**
     * Bucket of 64 KiB: one TSO/GSO super-packet of a veth at a time, so tbf does not split them; at 1 Gbit/s it
     * drains in 0.5 ms, so bursts above the line rate are bounded to that.
     */
    static final String BURST = "64kb";
    /** Queue bound of 10 ms at 1 Gbit/s (1.25 MB): about a NIC's default txqueuelen of 1000 full frames. */
    static final String QUEUE_LATENCY = "10ms";

    private LinkShaping() {
    }

    /** See the class comment: a sender's egress gets delay and rate, a bridge port towards a node the rate. */
    static List<Step> shapingSteps(ClusterLayout layout, Map<String, Long> holderPids, boolean netem) {
        List<Step> steps = new ArrayList<>(sender("controller", List.of(), NodeNamespaces.BRIDGE, netem));
        List<ClusterLayout.Node> nodes = layout.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            ClusterLayout.Node node = nodes.get(i);
            steps.addAll(sender(node.name(), NodeNamespaces.nsenter(holderPids.get(node.name())), NodeNamespaces.NODE_INTERFACE,
                    netem));
            List<String> tbf = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", NodeNamespaces.port(i), "root"));
            tbf.addAll(tbf());
            steps.add(new Step("controller", tbf));
        }
        return steps;
    }

    private static List<Step> sender(String where, List<String> prefix, String device, boolean netem) {
        List<Step> steps = new ArrayList<>();
        List<String> tbf = new ArrayList<>(prefix);
        if (netem) {
            List<String> delay = new ArrayList<>(prefix);
            delay.addAll(List.of("tc", "qdisc", "add", "dev", device, "root", "handle", "1:", "netem", "delay", DELAY));
            steps.add(new Step(where, delay));
            tbf.addAll(List.of("tc", "qdisc", "add", "dev", device, "parent", "1:1", "handle", "10:"));
        } else {
            tbf.addAll(List.of("tc", "qdisc", "add", "dev", device, "root", "handle", "10:"));
        }
        tbf.addAll(tbf());
        steps.add(new Step(where, tbf));
        return steps;
    }

    private static List<String> tbf() {
        return List.of("tbf", "rate", RATE, "burst", BURST, "latency", QUEUE_LATENCY);
    }

    /**
     * True when the kernel has netem; false on exactly "qdisc kind is unknown", a failure otherwise. Needs the
     * bridge: the probe qdisc goes on it and is removed again.
     */
    static boolean probeNetem(SetupCommands commands) {
        Step probe = new Step("controller", List.of("tc", "qdisc", "add", "dev", NodeNamespaces.BRIDGE, "root", "netem", "delay",
                DELAY));
        SetupCommands.Result result = commands.execute(probe);
        if (result.exitCode() == 0) {
            commands.run(List.of(new Step("controller", List.of("tc", "qdisc", "del", "dev", NodeNamespaces.BRIDGE, "root"))));
            return true;
        }
        if (result.output().contains("qdisc kind is unknown")) {
            return false;
        }
        throw commands.failed(probe, result);
    }

    /** Evidence that the shaping was in effect, into the log: bytes, packets and overlimits of every qdisc. */
    static void logCounters(SetupCommands commands, Map<String, Long> holderPids) {
        commands.execute(new Step("controller", List.of("tc", "-s", "qdisc", "show")));
        holderPids.forEach((name, pid) -> {
            List<String> argv = new ArrayList<>(NodeNamespaces.nsenter(pid));
            argv.addAll(List.of("tc", "-s", "qdisc", "show", "dev", NodeNamespaces.NODE_INTERFACE));
            commands.execute(new Step(name, argv));
        });
    }
}
