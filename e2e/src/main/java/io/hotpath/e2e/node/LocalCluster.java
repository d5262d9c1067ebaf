package io.hotpath.e2e.node;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.Ticker;
import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * A 2m-2s RocketMQ cluster of five JVMs (see {@link ClusterLayout}) started from a
 * {@link Distribution} on a {@link ClusterNetwork} (each node in its namespace there), with
 * everything it writes inside one run directory:
 * {@code <runDir>/<node>/} holds the generated config, stdout, the RocketMQ logs and the store,
 * because every node runs with {@code user.home} and {@code hotpath.log.dir} pointing there.
 *
 * <p>{@link #start(Duration)} returns only when the cluster can take SYNC_MASTER writes: brokers
 * registered, and each master answering SEND_OK to a probe on {@link #WARMUP_TOPIC} (for ~30 s
 * after boot a SYNC_MASTER answers SLAVE_NOT_AVAILABLE on 4.9.x, FLUSH_SLAVE_TIMEOUT on 5.x, until its slave's HA
 * connection is up).
 *
 * <p>Every process is stopped by PID in {@link #close()}, and by a shutdown hook if the JVM is
 * interrupted (SIGINT/SIGTERM) first. Nothing is ever stopped by name.
 */
public final class LocalCluster implements AutoCloseable {

    /** Probe topic, one queue per master, kept apart from the topics under test. */
    public static final String WARMUP_TOPIC = "hotpath_warmup";

    private static final Duration BROKER_STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration NAMESRV_STOP_GRACE = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 500;
    // Settings a user's shell may carry that would point a node at another cluster or install.
    private static final List<String> FOREIGN_ENV = List.of("NAMESRV_ADDR", "ROCKETMQ_HOME", "JAVA_OPTS");

    private final Distribution distribution;
    private final ClusterLayout layout;
    private final ClusterNetwork network;
    private final Path runDir;
    private final List<String> extraJvmOptions;
    private final List<String> brokerJvmOptions;
    private final Map<String, ManagedProcess> processes = new LinkedHashMap<>();
    private final Thread shutdownHook = new Thread(this::stopOnShutdown, "hotpath-cluster-shutdown");
    private boolean hookInstalled;
    private boolean stopping;

    public LocalCluster(Distribution distribution, ClusterNetwork network, Path runDir, List<String> extraJvmOptions) {
        this(distribution, network, runDir, extraJvmOptions, List.of());
    }

    /** {@code extraJvmOptions} go to every node, {@code brokerJvmOptions} after them to the four brokers only. */
    public LocalCluster(Distribution distribution, ClusterNetwork network, Path runDir, List<String> extraJvmOptions,
                        List<String> brokerJvmOptions) {
        this.distribution = distribution;
        this.layout = network.layout();
        this.network = network;
        this.runDir = runDir.toAbsolutePath().normalize();
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
        this.brokerJvmOptions = List.copyOf(brokerJvmOptions);
        if (this.runDir.toString().chars().anyMatch(Character::isWhitespace)) {
            // bin/mqbroker splits JAVA_OPTS on whitespace: -Duser.home=<dir> must be one word
            throw new UsageException("the run directory " + this.runDir + " contains whitespace, which the distribution's"
                    + " JAVA_OPTS cannot carry; use a checkout path without spaces");
        }
    }

    public Distribution distribution() {
        return distribution;
    }

    public ClusterLayout layout() {
        return layout;
    }

    public ClusterNetwork network() {
        return network;
    }

    public Path runDir() {
        return runDir;
    }

    public String namesrvAddress() {
        return layout.namesrvAddress();
    }

    /** The running node, e.g. to kill a slave in a fault scenario. */
    public synchronized ManagedProcess process(String node) {
        ManagedProcess process = processes.get(node);
        if (process == null) {
            throw new IllegalArgumentException("no running node " + node + " (nodes: " + processes.keySet() + ")");
        }
        return process;
    }

    public Path nodeDir(ClusterLayout.Node node) {
        return runDir.resolve(node.name());
    }

    /** The configuration file a started node runs with, as this cluster wrote it. */
    public Path configFile(ClusterLayout.Node node) {
        return nodeDir(node).resolve(node.name() + ".properties");
    }

    /** What {@link #configFile} holds: the settings the node was started with (not the release's defaults it leaves out). */
    public Properties config(ClusterLayout.Node node) {
        Path file = configFile(node);
        Properties config = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            config.load(reader);
        } catch (IOException e) {
            throw new ClusterException("cannot read " + file + " (was " + node.name() + " started?): " + e.getMessage(), e);
        }
        return config;
    }

    /**
     * Starts the name server, then the four brokers, and waits (at most {@code timeout} overall,
     * printing progress) until brokers are registered and each master's slave replicates.
     */
    public void start(Duration timeout) {
        layout.checkPortsFree();
        long deadline = System.nanoTime() + timeout.toNanos();
        installShutdownHook();
        Console.progress("starting %s 2m-2s cluster from %s%s%s, run dir %s", distribution.flavor(), distribution.home(),
                distribution.patches().isEmpty() ? "" : " (patches " + distribution.patches() + ")",
                (distribution.tuning() == null ? "" : "; tuned: " + distribution.tuning().describe())
                        + (distribution.asyncMasters() ? "; masters ASYNC_MASTER (a floor arm)" : ""), runDir);

        ClusterLayout.Node namesrv = layout.namesrv();
        startNode(namesrv, distribution.namesrvScript(), layout.namesrvConfig());
        awaitListening(namesrv, deadline);
        for (ClusterLayout.Node broker : layout.brokers()) {
            startNode(broker, distribution.brokerScript(),
                    layout.brokerConfig(broker, distribution.defaultConfig(broker.name()), nodeDir(broker),
                            distribution.masterRole()));
        }
        try (ClusterAdmin admin = new ClusterAdmin(namesrvAddress(), "hotpath-cluster-admin")) {
            awaitRegistration(admin, deadline);
            createTopic(admin, WARMUP_TOPIC, 1, deadline);
            awaitReplication(admin, deadline);
        }
        Console.progress("cluster ready: name server %s, masters %s", namesrvAddress(),
                layout.masters().stream().map(ClusterLayout.Node::address).toList());
    }

    /** Creates {@code topic} with {@code queuesPerMaster} queues on every master and waits until the name server routes it. */
    public void createTopic(String topic, int queuesPerMaster, Duration timeout) {
        try (ClusterAdmin admin = new ClusterAdmin(namesrvAddress(), "hotpath-topic-admin")) {
            createTopic(admin, topic, queuesPerMaster, System.nanoTime() + timeout.toNanos());
        }
    }

    private void createTopic(ClusterAdmin admin, String topic, int queuesPerMaster, long deadline) {
        admin.createTopic(topic, queuesPerMaster, layout.masters().stream().map(ClusterLayout.Node::address).toList());
        while (!admin.routeReady(topic, layout.brokerNames(), queuesPerMaster)) {
            checkAlive();
            pause(deadline, "topic " + topic + " to be routed by the name server");
        }
    }

    private synchronized void startNode(ClusterLayout.Node node, Path script, Properties config) {
        if (stopping) {
            throw new ClusterException("cluster is stopping; not starting " + node.name());
        }
        Path dir = nodeDir(node);
        Path configFile = configFile(node);
        try {
            Files.createDirectories(dir.resolve("logs"));
            Files.createDirectories(dir.resolve("tmp"));
            try (Writer writer = Files.newBufferedWriter(configFile, StandardCharsets.ISO_8859_1)) {
                config.store(writer, "generated by io.hotpath.e2e.node.LocalCluster for " + distribution.flavor());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + configFile, e);
        }
        List<String> javaOptions = new ArrayList<>();
        // RocketMQ writes ~/store, ~/logs and ~/namesrv: keep all of it inside the run directory
        javaOptions.add("-Duser.home=" + dir);
        javaOptions.add("-Dhotpath.log.dir=" + dir.resolve("logs"));
        javaOptions.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        // no /tmp/hsperfdata_<user>/<pid> file: inside a PID namespace our small PIDs would clash with
        // (and the JVM's stale-file cleanup could delete) the files of unrelated JVMs on the host
        javaOptions.add("-XX:+PerfDisableSharedMem");
        javaOptions.addAll(extraJvmOptions);
        if (node.brokerName() != null) {
            javaOptions.addAll(brokerJvmOptions);
        }
        // on --net realistic: nsenter --net=... -- execs the script in the node's namespace, so the PID stays the server's
        List<String> command = new ArrayList<>(network.launchPrefix(node));
        command.addAll(List.of("bash", script.toString(), "-c", configFile.toString()));
        ManagedProcess process = ManagedProcess.start(node.name(), command,
                Map.of("JAVA_OPTS", String.join(" ", javaOptions)), FOREIGN_ENV, dir, dir.resolve("stdout.log"));
        processes.put(node.name(), process);
        Console.progress("started %s (pid %d, port %d)", node.name(), process.pid(), node.listenPort());
    }

    /**
     * kill -9 of one node (fault scenarios): it leaves the set {@link #checkAlive()} watches until
     * {@link #restartNode} brings it back.
     */
    public void killNode(String name) {
        ManagedProcess process;
        synchronized (this) {
            process = process(name);
            processes.remove(name);
        }
        process.kill();
        if (!process.awaitExit(Duration.ofSeconds(10))) {
            throw new ClusterException("kill -9 of " + process + " did not end it within 10 s");
        }
        Console.progress("fault: killed %s with SIGKILL (exit %d)", process, process.exitCode());
    }

    /**
     * SIGSTOP ({@code frozen} true) or SIGCONT of one node: frozen, it stays connected and in the set {@link #checkAlive()}
     * watches, but reads, writes and acknowledges nothing until thawed.
     */
    public void freezeNode(String name, boolean frozen) {
        ManagedProcess process = process(name);
        process.freeze(frozen);
        Console.progress("fault: %s %s", process, frozen ? "frozen with SIGSTOP" : "resumed with SIGCONT");
    }

    /**
     * Starts a killed broker again on its config and store (recovery from the abort file), and waits until it listens and
     * the name server lists it again: a client that fetches its route before that finds only the slave of the broker
     * name, and a 5.x slave refuses pulls ({@code slaveReadEnable=false}: "[REJECTREQUEST]system busy"; campaign --ci's
     * kill-master round read back through the slave so in the CI rehearsal of 2026-11-27).
     */
    public void restartNode(String name, Duration timeout) {
        ClusterLayout.Node node = layout.brokers().stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no broker " + name));
        synchronized (this) {
            if (processes.containsKey(name)) {
                throw new IllegalStateException(name + " is still running");
            }
        }
        startNode(node, distribution.brokerScript(),
                layout.brokerConfig(node, distribution.defaultConfig(node.name()), nodeDir(node), distribution.masterRole()));
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitListening(node, deadline);
        try (ClusterAdmin admin = new ClusterAdmin(namesrvAddress(), "hotpath-restart-admin")) {
            awaitRegistration(admin, deadline);
        }
        Console.progress("fault: %s restarted, listening and registered with the name server", name);
    }

    private void awaitListening(ClusterLayout.Node node, long deadline) {
        while (true) {
            checkAlive();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(node.host(), node.listenPort()), 1000);
                return;
            } catch (IOException e) {
                pause(deadline, node.name() + " to listen on port " + node.listenPort());
            }
        }
    }

    private void awaitRegistration(ClusterAdmin admin, long deadline) {
        Map<String, Map<Long, String>> expected = new LinkedHashMap<>();
        for (ClusterLayout.Node broker : layout.brokers()) {
            expected.computeIfAbsent(broker.brokerName(), k -> new LinkedHashMap<>()).put((long) broker.brokerId(), broker.address());
        }
        String[] seen = {"nothing yet"};
        try (Ticker ignored = Ticker.start(() -> "waiting for brokers to register with the name server; registered: " + seen[0])) {
            while (true) {
                checkAlive();
                Map<String, Map<Long, String>> registered = admin.registeredBrokers();
                seen[0] = registered.toString();
                if (registered.equals(expected)) {
                    Console.progress("brokers registered: %s", registered);
                    return;
                }
                pause(deadline, "brokers to register (registered: " + seen[0] + ", expected: " + expected + ")");
            }
        }
    }

    /** Probes each master until it answers SEND_OK: only then is its slave connected for SYNC_MASTER. */
    private void awaitReplication(ClusterAdmin admin, long deadline) {
        Map<String, String> lastAnswer = new LinkedHashMap<>();
        layout.brokerNames().forEach(name -> lastAnswer.put(name, "not probed"));
        try (Ticker ignored = Ticker.start(() -> "waiting for each master's slave (until then a SYNC_MASTER answers SLAVE_NOT_AVAILABLE, 5.x FLUSH_SLAVE_TIMEOUT): " + lastAnswer)) {
            while (true) {
                checkAlive();
                for (Map.Entry<String, String> entry : lastAnswer.entrySet()) {
                    if (!entry.getValue().equals(SendStatus.SEND_OK.name())) {
                        entry.setValue(probe(admin, entry.getKey()));
                    }
                }
                if (lastAnswer.values().stream().allMatch(SendStatus.SEND_OK.name()::equals)) {
                    Console.progress("replication up: every master answers SEND_OK");
                    return;
                }
                pause(deadline, "masters to replicate to their slaves (last answers: " + lastAnswer + ")");
            }
        }
    }

    private static String probe(ClusterAdmin admin, String brokerName) {
        try {
            SendResult result = admin.probe(WARMUP_TOPIC, brokerName);
            return result.getSendStatus().name();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while probing " + brokerName, e);
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    private void pause(long deadline, String waitingFor) {
        if (System.nanoTime() > deadline) {
            throw new ClusterException("timed out waiting for " + waitingFor + "; logs under " + runDir);
        }
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while waiting for " + waitingFor, e);
        }
    }

    /** Fails with the node's exit code and last log line when any node has died. */
    public synchronized void checkAlive() {
        for (ManagedProcess process : processes.values()) {
            if (!process.isAlive()) {
                String last = process.tail(1).strip();
                throw new ClusterException(process.name() + " exited with code " + process.exitCode()
                        + (last.isEmpty() ? "" : " (last output: " + last + ")") + "; see " + process.logFile());
            }
        }
    }

    /** Stops every node: brokers together (SIGTERM, grace, SIGKILL), then the name server. Idempotent. */
    @Override
    public void close() {
        stopAll();
        removeShutdownHook();
    }

    private synchronized void stopAll() {
        stopping = true;
        if (processes.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        Console.progress("stopping %d processes (a 4.9.0 slave takes 5-6 s to shut down)", processes.size());
        List<ManagedProcess> brokers = processes.values().stream().filter(p -> !p.name().equals("namesrv")).toList();
        StringJoiner forced = new StringJoiner(", ");
        brokers.forEach(ManagedProcess::requestStop);
        long brokerDeadline = System.nanoTime() + BROKER_STOP_GRACE.toNanos();
        for (ManagedProcess broker : brokers) {
            if (!broker.stop(Duration.ofNanos(brokerDeadline - System.nanoTime()))) {
                forced.add(broker.name());
            }
        }
        ManagedProcess namesrv = processes.get("namesrv");
        if (namesrv != null && !namesrv.stop(NAMESRV_STOP_GRACE)) {
            forced.add(namesrv.name());
        }
        Console.progress("stopped %d processes in %.1f s%s", processes.size(), (System.nanoTime() - start) / 1e9,
                forced.length() == 0 ? "" : " (killed after the grace period: " + forced + ")");
        processes.clear();
    }

    private void stopOnShutdown() {
        boolean running;
        synchronized (this) {
            running = !processes.isEmpty();
        }
        if (running) {
            Console.warn("interrupted: stopping the cluster before exit");
        }
        stopAll();
    }

    private synchronized void installShutdownHook() {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            hookInstalled = true;
        }
    }

    private synchronized void removeShutdownHook() {
        if (hookInstalled) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running or has run
            }
            hookInstalled = false;
        }
    }

    /** Deletes the brokers' stores (the bulk of a run directory), keeping configs and logs. Call after {@link #close()}. */
    public void deleteStores() {
        for (ClusterLayout.Node broker : layout.brokers()) {
            Path store = nodeDir(broker).resolve("store");
            if (!Files.exists(store)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(store)) {
                for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            } catch (IOException e) {
                Console.warn("could not delete " + store + ": " + e.getMessage());
            }
        }
    }
}
