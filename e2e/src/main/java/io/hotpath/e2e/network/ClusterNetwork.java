package io.hotpath.e2e.network;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.cli.ClusterSmoke;
import io.hotpath.e2e.cluster.ClusterLayout;
import io.hotpath.e2e.cluster.ManagedProcess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * The network the cluster's five server processes run in ({@code --net}).
 *
 * <p>{@link NetMode#LOOPBACK}: nothing to set up. Every node shares the controller's private namespace
 * (bin/lib/smoke.sh) and listens on 127.0.0.1.
 *
 * <p>{@link NetMode#REALISTIC}: inside that private namespace, so that the host's network is never touched
 * and nothing is left to clean up there, each node gets a network namespace of its own, held open by an
 * {@code unshare --net sleep infinity} process, and one veth pair to a bridge in the controller's namespace,
 * where the load generator and the verifier run:
 * <pre>
 *   controller: hp-br 10.213.0.1/24 --+-- hp0 === eth0 10.213.0.10  namesrv
 *                                     +-- hp1 === eth0 10.213.0.11  broker-a   (hp2 .12 broker-a-s,
 *                                     ...                                       hp3 .13 broker-b, hp4 .14 broker-b-s)
 * </pre>
 * A server is started with {@code nsenter --net=/proc/<holder>/ns/net --}, which enters and execs: the PID
 * {@link ManagedProcess} manages is still the server's, and a restarted broker gets its namespace and address
 * back. Nothing is written to /var/run/netns: a node's namespace (and its veth pair with it) vanishes once its
 * holder and its server are gone, the bridge with the private namespace. The holders are stopped by PID in
 * {@link #close()} and by a shutdown hook; and as the controller is PID 1 of the run's PID namespace, the
 * kernel ends them with it whatever happens.
 *
 * <p>Shaping, after the seeds' hardware (hosts with 1 Gbit/s NICs on one switch, ~0.06 ms round trip):
 * every sender (a node's eth0; the controller's hp-br, for the traffic it originates) sends through a root
 * {@code netem delay 30us} (half the round trip: one way) whose child is a {@code tbf rate 1gbit} (the NIC's
 * line rate); each bridge port towards a node is a {@code tbf rate 1gbit} as well (the switch port feeding
 * that node's NIC). Traffic between two nodes, such as master to slave replication, is forwarded by the bridge:
 * it passes the sender's eth0 (delay and rate) and the receiver's port (rate) only. So every pair, controller
 * to broker and master to slave alike, sees one 30 us delay each way, a 0.06 ms round trip; delaying both ends
 * of every veth would have given node to node pairs 0.12 ms. A kernel built without {@code sch_netem} gets the
 * rate limit without the delay, and the run says so (progress line, JSON, report).
 *
 * <p>{@link #open} proves the setup before any server starts: a timed TCP connect from the controller to each
 * node's namespace (a closed port, so the node's kernel answers the SYN with a RST: one round trip), against
 * the same on loopback, and 32 MiB streamed from broker-a's namespace to the controller.
 */
public final class ClusterNetwork implements AutoCloseable {

    static final String BRIDGE = "hp-br";
    static final String NODE_INTERFACE = "eth0";
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
    /** Nothing listens there in a fresh namespace: a connect is refused after exactly one round trip. */
    static final int PROBE_PORT = 9;
    static final int RTT_WARMUP = 5;
    static final int RTT_SAMPLES = 20;
    static final int THROUGHPUT_BYTES = 32 * 1024 * 1024;
    /** Above this, tbf is not shaping: no measurement error of a 32 MiB transfer explains 25 % over the line rate. */
    static final double THROUGHPUT_LIMIT_MBIT = RATE_MBIT * 1.25;
    static final List<String> TOOLS = List.of("ip", "tc", "unshare", "nsenter", "bash", "head");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);

    /** What the run reports about its network (JSON, summaries, report header). */
    public record Summary(NetMode mode, Map<String, String> addresses, int delayMicrosEachWay, int rateMbit,
                          double rttMillis, double rttMaxMillis, double loopbackRttMillis, double throughputMbit) {

        public static final Summary LOOPBACK = new Summary(NetMode.LOOPBACK, Map.of(), 0, 0, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN);

        /** "netem 30 us each way + tbf 1000 Mbit/s per link", or the rate alone when the kernel has no netem. */
        public String shaping() {
            return mode == NetMode.LOOPBACK ? "none (loopback)" : shaping(delayMicrosEachWay, rateMbit);
        }

        static String shaping(int delayMicrosEachWay, int rateMbit) {
            String rate = "tbf " + rateMbit + " Mbit/s per link";
            return delayMicrosEachWay > 0 ? "netem " + delayMicrosEachWay + " us each way + " + rate
                    : rate + ", no added delay (kernel without sch_netem)";
        }

        /** "controller 10.213.0.1, namesrv 10.213.0.10, ..." */
        static String hosts(Map<String, String> addresses) {
            StringJoiner hosts = new StringJoiner(", ");
            addresses.forEach((name, host) -> hosts.add(name + " " + host));
            return hosts.toString();
        }

        /** One line for the Markdown report header and the smoke summary. */
        public String describe() {
            if (mode == NetMode.LOOPBACK) {
                return "loopback (every node on 127.0.0.1 of the run's private namespace, unshaped)";
            }
            return String.format(Locale.ROOT, "realistic (a namespace per node, veth + bridge: %s; %s); measured TCP round"
                            + " trip controller -> broker-a %.3f ms (slowest node %.3f ms; loopback %.3f ms), broker-a ->"
                            + " controller %.0f Mbit/s",
                    hosts(addresses), shaping(), rttMillis, rttMaxMillis, loopbackRttMillis, throughputMbit);
        }

        /** JSON fields (without braces) for smoke-result.json and campaign.json. */
        public List<String> jsonFields() {
            List<String> fields = new ArrayList<>();
            fields.add("\"net\": \"" + mode.option() + "\"");
            if (mode == NetMode.LOOPBACK) {
                return fields;
            }
            StringJoiner hosts = new StringJoiner(", ", "{", "}");
            addresses.forEach((name, host) -> hosts.add("\"" + name + "\": \"" + host + "\""));
            fields.add("\"netAddresses\": " + hosts);
            fields.add("\"netShaping\": \"" + shaping() + "\"");
            fields.add("\"netDelayUsEachWay\": " + delayMicrosEachWay);
            fields.add("\"netRateMbit\": " + rateMbit);
            fields.add(String.format(Locale.ROOT, "\"netRttMs\": %.3f", rttMillis));
            fields.add(String.format(Locale.ROOT, "\"netRttMaxMs\": %.3f", rttMaxMillis));
            fields.add(String.format(Locale.ROOT, "\"netLoopbackRttMs\": %.3f", loopbackRttMillis));
            fields.add(String.format(Locale.ROOT, "\"netThroughputMbit\": %.0f", throughputMbit));
            return fields;
        }
    }

    /** One setup command: {@code where} names the namespace it runs in (controller or a node) for error messages. */
    record Step(String where, List<String> argv) {
        @Override
        public String toString() {
            return where + ": " + String.join(" ", argv);
        }
    }

    private final ClusterLayout layout;
    private final Map<String, Process> holders;
    private final Path logFile;
    private final Thread shutdownHook = new Thread(this::stopHolders, "hotpath-network-shutdown");
    private Summary summary;
    private boolean closed;

    private ClusterNetwork(ClusterLayout layout, Map<String, Process> holders, Path logFile) {
        this.layout = layout;
        this.holders = holders;
        this.logFile = logFile;
    }

    /**
     * The network of {@code layout}: on loopback an object with nothing to do; on realistic the namespaces, links
     * and shaping, checked. Needs the private namespace already checked ({@link ClusterSmoke#checkNetwork}): the
     * bridge lands in the namespace this JVM runs in. {@code logDir} receives {@code network.log}: every command
     * and what it printed, and the qdisc counters at close.
     */
    public static ClusterNetwork open(ClusterLayout layout, Path logDir) {
        if (layout.net() == NetMode.LOOPBACK) {
            ClusterNetwork network = new ClusterNetwork(layout, Map.of(), null);
            network.summary = Summary.LOOPBACK;
            return network;
        }
        checkTools(System.getenv("PATH"));
        Path log = logDir.resolve("network.log");
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + logDir, e);
        }
        ClusterNetwork network = new ClusterNetwork(layout, new LinkedHashMap<>(), log);
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
        for (ClusterLayout.Node node : layout.nodes()) {
            holders.put(node.name(), startHolder(node));
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        holders.forEach((name, holder) -> pids.put(name, holder.pid()));
        run(bridgeSteps());
        boolean netem = probeNetem();
        run(nodeSteps(layout, pids));
        run(shapingSteps(layout, pids, netem));
        int delayMicros = netem ? DELAY_MICROS : 0;
        if (!netem) {
            Console.warn("--net realistic: this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM is not set): the links are"
                    + " rate-limited to 1 Gbit/s but get no added delay, so round trips are the veths' own");
        }
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("controller", ClusterLayout.REALISTIC_CONTROLLER);
        layout.nodes().forEach(node -> addresses.put(node.name(), node.host()));
        Console.progress("realistic network: %s, each node in a namespace of its own on a veth to bridge %s; shaped by %s",
                Summary.hosts(addresses), BRIDGE, Summary.shaping(delayMicros, RATE_MBIT));

        // the first connects of this JVM run interpreted: warm the path up on loopback before timing anything
        connectRttMillis(ClusterLayout.LOOPBACK, "loopback");
        double brokerA = 0;
        double slowest = 0;
        for (ClusterLayout.Node node : layout.nodes()) {
            double rtt = connectRttMillis(node.host(), node.name());
            slowest = Math.max(slowest, rtt);
            if (node.name().equals("broker-a")) {
                brokerA = rtt;
            }
        }
        double loopback = connectRttMillis(ClusterLayout.LOOPBACK, "loopback");
        double throughput = throughputMbit(pids.get("broker-a"));
        summary = new Summary(NetMode.REALISTIC, Collections.unmodifiableMap(addresses), delayMicros, RATE_MBIT, brokerA, slowest,
                loopback, throughput);
        Console.progress("realistic network check: TCP round trip controller -> broker-a %.3f ms (median of %d connects;"
                        + " slowest node %.3f ms; loopback %.3f ms), broker-a -> controller %.0f Mbit/s (%d MiB)",
                brokerA, RTT_SAMPLES, slowest, loopback, throughput, THROUGHPUT_BYTES >> 20);
        if (throughput > THROUGHPUT_LIMIT_MBIT) {
            throw new ClusterException(String.format(Locale.ROOT, "realistic network check: broker-a -> controller ran at %.0f"
                    + " Mbit/s, above the %d Mbit/s the links are shaped to: tbf is not in effect (see %s)", throughput,
                    RATE_MBIT, logFile));
        }
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

    /** See the class comment: a sender's egress gets delay and rate, a bridge port towards a node the rate. */
    static List<Step> shapingSteps(ClusterLayout layout, Map<String, Long> holderPids, boolean netem) {
        List<Step> steps = new ArrayList<>(sender("controller", List.of(), BRIDGE, netem));
        List<ClusterLayout.Node> nodes = layout.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            ClusterLayout.Node node = nodes.get(i);
            steps.addAll(sender(node.name(), nsenter(holderPids.get(node.name())), NODE_INTERFACE, netem));
            List<String> tbf = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", port(i), "root"));
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

    /** What puts a server into its node's namespace: nothing on loopback, {@code nsenter ... --} on realistic. */
    public List<String> launchPrefix(ClusterLayout.Node node) {
        if (layout.net() == NetMode.LOOPBACK) {
            return List.of();
        }
        Process holder = holders.get(node.name());
        if (holder == null || !holder.isAlive()) {
            throw new ClusterException("the network namespace of " + node.name() + " is gone (its holder process ended"
                    + (holder == null ? "" : " with exit code " + holder.exitValue()) + "); see " + logFile);
        }
        return nsenter(holder.pid());
    }

    public ClusterLayout layout() {
        return layout;
    }

    public Summary summary() {
        return summary;
    }

    private Process startHolder(ClusterLayout.Node node) {
        Process holder;
        try {
            holder = new ProcessBuilder("unshare", "--net", "--", "sleep", "infinity")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new ClusterException("cannot start the namespace holder of " + node.name() + ": " + e.getMessage(), e);
        }
        log("holder of " + node.name() + ": unshare --net -- sleep infinity, pid " + holder.pid());
        // unshare() happens after the fork: until then the holder is still in our namespace, and moving a veth
        // end "into" it would leave it here
        Path own = Path.of("/proc/self/ns/net");
        Path its = Path.of("/proc/" + holder.pid() + "/ns/net");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            if (!holder.isAlive()) {
                throw new ClusterException("cannot create a network namespace for " + node.name() + ": unshare --net exited"
                        + " with code " + holder.exitValue() + " (" + lastLogLine() + ")");
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

    /** True when the kernel has netem; false on exactly "qdisc kind is unknown", a failure otherwise. */
    private boolean probeNetem() {
        Step probe = new Step("controller", List.of("tc", "qdisc", "add", "dev", BRIDGE, "root", "netem", "delay", DELAY));
        CommandResult result = execute(probe);
        if (result.exitCode() == 0) {
            run(List.of(new Step("controller", List.of("tc", "qdisc", "del", "dev", BRIDGE, "root"))));
            return true;
        }
        if (result.output().contains("qdisc kind is unknown")) {
            return false;
        }
        throw setupFailed(probe, result);
    }

    private void run(List<Step> steps) {
        for (Step step : steps) {
            CommandResult result = execute(step);
            if (result.exitCode() != 0) {
                throw setupFailed(step, result);
            }
        }
    }

    private ClusterException setupFailed(Step step, CommandResult result) {
        String first = result.output().strip().lines().findFirst().orElse("no output");
        return new ClusterException("realistic network setup failed in " + (step.where().equals("controller") ? "the " : "")
                + step.where() + "'s namespace: `"
                + String.join(" ", step.argv()) + "` exited with " + result.exitCode() + ": " + first + " (log " + logFile + ")");
    }

    record CommandResult(int exitCode, String output) {
    }

    private CommandResult execute(Step step) {
        try {
            Process process = new ProcessBuilder(step.argv()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return new CommandResult(-1, "timed out after " + COMMAND_TIMEOUT.toSeconds() + " s");
            }
            log(step + (output.isBlank() ? "" : "\n    " + output.strip().replace("\n", "\n    ")));
            return new CommandResult(process.exitValue(), output);
        } catch (IOException e) {
            return new CommandResult(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while setting up the realistic network", e);
        }
    }

    /** Median round trip of a refused TCP connect (SYN, RST), in ms. */
    static double connectRttMillis(String host, String name) {
        long[] nanos = new long[RTT_SAMPLES];
        InetSocketAddress target = new InetSocketAddress(host, PROBE_PORT);
        for (int i = -RTT_WARMUP; i < RTT_SAMPLES; i++) {
            try (Socket socket = new Socket()) {
                long start = System.nanoTime();
                try {
                    socket.connect(target, 1000);
                    throw new ClusterException("realistic network check: something listens on " + target + " (" + name
                            + "'s namespace should be empty)");
                } catch (ConnectException refused) {
                    if (i >= 0) {
                        nanos[i] = System.nanoTime() - start;
                    }
                } catch (SocketTimeoutException e) {
                    throw new ClusterException("realistic network check: " + name + " (" + host + ") does not answer from the"
                            + " controller's namespace within 1 s: the veth or bridge is not passing traffic");
                }
            } catch (IOException e) {
                throw new ClusterException("realistic network check: connect to " + name + " (" + target + ") failed: " + e, e);
            }
        }
        Arrays.sort(nanos);
        return (nanos[RTT_SAMPLES / 2 - 1] + nanos[RTT_SAMPLES / 2]) / 2e6;
    }

    /**
     * Streams {@link #THROUGHPUT_BYTES} from the node's namespace (bash's /dev/tcp, no JVM to start) to a socket
     * of the controller, through the node's shaped eth0; Mbit/s of payload from the first byte to the last.
     */
    private double throughputMbit(long holderPid) {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(ClusterLayout.REALISTIC_CONTROLLER), 0), 1);
            server.setSoTimeout(10_000);
            List<String> command = new ArrayList<>(nsenter(holderPid));
            command.addAll(List.of("bash", "-c", "head -c " + THROUGHPUT_BYTES + " /dev/zero > /dev/tcp/"
                    + ClusterLayout.REALISTIC_CONTROLLER + "/" + server.getLocalPort()));
            Process sender = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
            long received = 0;
            long firstRead = 0;
            long first = 0;
            long last = 0;
            try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
                socket.setSoTimeout(10_000);
                byte[] buffer = new byte[256 * 1024];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    if (received == 0) {
                        first = System.nanoTime();
                        firstRead = n;
                    }
                    received += n;
                    last = System.nanoTime();
                }
            } finally {
                if (!sender.waitFor(10, TimeUnit.SECONDS)) {
                    sender.destroyForcibly();
                }
            }
            if (received != THROUGHPUT_BYTES || last <= first) {
                throw new ClusterException("realistic network check: received " + received + " of " + THROUGHPUT_BYTES
                        + " bytes from broker-a's namespace (see " + logFile + ")");
            }
            // the first read's bytes arrived before `first`: the rate is of what came after it
            return (received - firstRead) * 8 / ((last - first) / 1e3);
        } catch (IOException e) {
            throw new ClusterException("realistic network check: streaming from broker-a's namespace failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted during the realistic network check", e);
        }
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
        if (holders.values().stream().allMatch(Process::isAlive) && !holders.isEmpty()) {
            // evidence that the shaping was in effect: bytes, packets and overlimits of every qdisc
            execute(new Step("controller", List.of("tc", "-s", "qdisc", "show")));
            holders.forEach((name, holder) -> {
                List<String> argv = new ArrayList<>(nsenter(holder.pid()));
                argv.addAll(List.of("tc", "-s", "qdisc", "show", "dev", NODE_INTERFACE));
                execute(new Step(name, argv));
            });
        }
        stopHolders();
        // the veth pairs went with the namespaces; the bridge would go with the private namespace, but not before
        // a campaign's next round could trip over it
        execute(new Step("controller", List.of("ip", "link", "del", BRIDGE)));
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or has run
        }
    }

    private void stopHolders() {
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

    private synchronized void log(String line) {
        if (logFile == null) {
            return;
        }
        try {
            Files.writeString(logFile, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            Console.warn("cannot write " + logFile + ": " + e.getMessage());
        }
    }

    private String lastLogLine() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "no output";
        }
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
