package io.hotpath.e2e.check;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.LedgerFile;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.node.ManagedProcess;
import io.hotpath.e2e.spec.ChildJvms;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Client compatibility with newer clients: a rocketmq-client producer and consumer of a {@link Client} release in a
 * JVM of their own (this JVM has 4.9.0 on its classpath), started as a {@link ManagedProcess} inside the smoke's
 * network namespace and talking to the cluster on 127.0.0.1. It runs the client module's main class
 * ({@link NewerClientChild}), which
 * <ol>
 *   <li>sends {@value #SINGLE_MESSAGES} single messages and one batch of {@value #BATCH_MESSAGES} to the client's
 *       topic (4.9.1+ clients encode properties without 4.9.0's trailing separator),</li>
 *   <li>reads them back with its own pull consumer and audits them ({@link DeliveryAudit}),</li>
 *   <li>reads back and audits the compat topic the 4.9.0 client filled ({@code CompatSends}),</li>
 * </ol>
 * and leaves its ledger and both verdicts in {@code <runDir>/client-<release>/}. The controller then reads
 * the client's sends back once more with its own 4.9.0 consumer against that ledger
 * (the round verifies them all together): an acknowledged message missing in any read-back fails the run.
 */
public final class NewerClientCheck {

    /**
     * A client release the smoke runs in a child JVM: {@code expectedVersion} is the
     * {@code MQVersion.getVersionDesc(CURRENT_VERSION)} the child must report (or it did not run that client), {@code topic}
     * its own, {@code mainClass} in Maven module {@code module} (bin/hotpath builds it, and module cli's ClusterLauncher passes the child's classpath:
     * its jar, the e2e jar, the client and its dependencies, as {@link #classpathProperty}); {@code batchUniqKeyDefect}: the
     * client has {@link #BATCH_UNIQ_KEY_DEFECT}.
     */
    public record Client(String release, String expectedVersion, String topic, String mainClass, String module,
                         boolean batchUniqKeyDefect) {

        String dir() {
            return "client-" + release;
        }

        /** {@code hotpath.e2e.client498.classpath} for module e2e-client498. */
        String classpathProperty() {
            return ChildJvms.classpathProperty(module);
        }
    }

    /** 4.9.8: the newest 4.9.x client, on every line. */
    public static final Client CLIENT_498 = new Client("4.9.8", "V4_9_8", "hotpath_smoke_498", "io.hotpath.e2e.check.Client498Check",
        "e2e-client498", false);
    /** 5.3.3: a 5.x remoting client, on the 5.x lines up to 5.5.0. */
    public static final Client CLIENT_533 = new Client("5.3.3", "V5_3_3", "hotpath_smoke_533", "io.hotpath.e2e.check.Client533Check",
        "e2e-client533", true);
    /** 5.5.0: the newest client on Maven Central (it has no 5.5.1 client), on the 5.x lines from 5.5.0 on. */
    public static final Client CLIENT_550 = new Client("5.5.0", "V5_5_0", "hotpath_smoke_550", "io.hotpath.e2e.check.Client550Check",
        "e2e-client550", true);
    static final List<Client> CLIENTS = List.of(CLIENT_498, CLIENT_533, CLIENT_550);

    public static final int QUEUES_PER_MASTER = 2;
    public static final int SINGLE_MESSAGES = 40;
    public static final int BATCH_MESSAGES = 16;
    static final String SENT_FILE = "sent.tsv";
    static final String COMPAT_LEDGER_FILE = "compat-sent.tsv";
    static final String RESULT_FILE = "result.txt";
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration CHILD_STOP_GRACE = Duration.ofSeconds(5);
    static final List<String> JDK17_FLAGS = ChildJvms.JDK17_FLAGS;

    /**
     * A defect of the stock 4.9.0 broker that this check found: its batch encoder
     * ({@code CommitLog.MessageExtBatchEncoder}) appends the batch's {@code CLUSTER\1<name>} right after each
     * message's properties, trusting them to end in a separator, as 4.9.0 clients' do. 4.9.1+ clients write
     * no trailing separator, so the last property of every message of a 4.9.8 batch is stored glued to it
     * ({@code TAGS\1TagACLUSTER\1DefaultCluster}): a 4.9.8 consumer reads {@code TagACLUSTER\1DefaultCluster},
     * a 4.9.0 one drops the entry. Upstream fixed it in 4.9.3; patch 0003 rewrites that encoder
     * ({@code PersistedProperties.putBatchMessage}, one separator between the message's and the batch's
     * block), so a distribution with 0003 must deliver these messages intact, and only one without it is
     * allowed exactly this difference (counted and listed as a known defect; anything else still fails).
     */
    public static boolean toleratesBatchSeparatorDefect(Distribution distribution) {
        return !PersistedPropertiesCheck.trims(distribution);
    }

    static final String BATCH_SEPARATOR_DEFECT = "4.9.0 batch encoder glues CLUSTER onto the last property of a 4.9.1+ client's message";

    /**
     * A defect of the 5.x client with a 5.x broker, upstream's apache/rocketmq#9416 (fixed after 5.3.3): the client gives the
     * batch itself a UNIQ_KEY besides each message's ({@code DefaultMQProducer.batch}), the broker appends the batch's
     * properties to every message it stores, and a reader takes the last UNIQ_KEY: every message of the batch reads back
     * with the batch's key, not the one its send result names. Stock and patched alike; only this difference, on a batch
     * message of such a client, is tolerated (counted and listed as a known defect).
     */
    static final String BATCH_UNIQ_KEY_DEFECT = "a 5.x client's batch stores the batch's UNIQ_KEY after each message's (apache/rocketmq#9416)";

    private NewerClientCheck() {
    }

    /**
     * The clients the smoke runs against a broker of {@code line}: one per major release up to the broker's (a 5.x client
     * against a 4.9.x broker is not a pairing this smoke claims anything about), the newest of that major not newer than
     * the line, else its oldest: 4.9.8 on every line, 5.3.3 on 5.3.3, 5.5.0 on 5.5.1. One 5.x client per smoke, not
     * both: with a third client JVM beside the 4.9.8 one and the relay, both 5.x clients had sends time out (3 s) on
     * 5.5.1, stock and patched alike, on this 2-core machine (2026-11-28), which the smoke counts as failures.
     */
    public static List<Client> clientsFor(String line) {
        List<Client> clients = new ArrayList<>();
        for (int major = 0; major <= major(line); major++) {
            int m = major;
            List<Client> ofMajor = CLIENTS.stream().filter(c -> major(c.release()) == m).toList();
            ofMajor.stream().filter(c -> ReleaseLine.compareVersions(c.release(), line) <= 0).reduce((older, newer) -> newer)
                .or(() -> ofMajor.stream().findFirst()).ifPresent(clients::add);
        }
        return List.copyOf(clients);
    }

    /** The topics of {@link #clientsFor} {@code line}. */
    public static List<String> topicsFor(String line) {
        return clientsFor(line).stream().map(Client::topic).toList();
    }

    private static int major(String release) {
        return Integer.parseInt(release.substring(0, release.indexOf('.')));
    }

    /**
     * The {@link DeliveryAudit.KnownDefect} for {@code client}'s topic: the batch separator defect when tolerated, and
     * {@link #BATCH_UNIQ_KEY_DEFECT} for a client that has it.
     */
    public static DeliveryAudit.KnownDefect batchDefect(Client client, SeededMessages messages, boolean toleratesSeparatorDefect) {
        DeliveryAudit.KnownDefect separator = batchDefect(messages, toleratesSeparatorDefect);
        if (!client.batchUniqKeyDefect()) {
            return separator;
        }
        return (seq, stored, difference) -> {
            String explained = separator.explain(seq, stored, difference);
            if (explained != null) {
                return explained;
            }
            boolean batchMessage = seq >= SINGLE_MESSAGES && seq < SINGLE_MESSAGES + BATCH_MESSAGES;
            return batchMessage && difference.startsWith("UNIQ_KEY ") ? BATCH_UNIQ_KEY_DEFECT : null;
        };
    }

    /** The {@link DeliveryAudit.KnownDefect} for a newer client's topic (see {@link #toleratesBatchSeparatorDefect}). */
    public static DeliveryAudit.KnownDefect batchDefect(SeededMessages messages, boolean tolerated) {
        if (!tolerated) {
            return DeliveryAudit.KnownDefect.NONE;
        }
        return (seq, stored, difference) -> batchSeparatorDefect(messages, seq, stored) ? BATCH_SEPARATOR_DEFECT : null;
    }

    /**
     * True when {@code stored} is batch message {@code seq} exactly as sent but for the glued CLUSTER: no
     * CLUSTER entry, and exactly one entry either ending in {@code CLUSTER\1<cluster>} (as a 4.9.8 consumer
     * parses it) or missing (a 4.9.0 consumer drops a key with two {@code \1}); with that one entry
     * repaired, nothing differs.
     */
    static boolean batchSeparatorDefect(SeededMessages messages, int seq, MessageExt stored) {
        if (seq < SINGLE_MESSAGES || seq >= SINGLE_MESSAGES + BATCH_MESSAGES
            || stored.getProperties().containsKey(MessageConst.PROPERTY_CLUSTER)) {
            return false;
        }
        String glued = MessageConst.PROPERTY_CLUSTER + "\u0001" + ClusterLayout.CLUSTER_NAME;
        Map<String, String> repaired = new HashMap<>(stored.getProperties());
        int repairs = 0;
        for (Map.Entry<String, String> e : stored.getProperties().entrySet()) {
            if (e.getValue().endsWith(glued)) {
                repaired.put(e.getKey(), e.getValue().substring(0, e.getValue().length() - glued.length()));
                repairs++;
            }
        }
        for (Map.Entry<String, String> e : messages.expectedProperties(seq).entrySet()) {
            if (!stored.getProperties().containsKey(e.getKey())) {
                repaired.put(e.getKey(), e.getValue());
                repairs++;
            }
        }
        if (repairs != 1) {
            return false;
        }
        repaired.put(MessageConst.PROPERTY_CLUSTER, ClusterLayout.CLUSTER_NAME);
        MessageExt copy = new MessageExt();
        copy.setTopic(stored.getTopic());
        copy.setBody(stored.getBody());
        copy.setQueueId(stored.getQueueId());
        copy.setQueueOffset(stored.getQueueOffset());
        MessageAccessor.setProperties(copy, repaired);
        return messages.difference(seq, copy) == null;
    }

    /**
     * The child's report: which client it ran, its sends (for the controller's own read-back), and its
     * read-backs of its own topic and of the 4.9.0 compat topic.
     */
    public record Result(Client client, String clientVersion, SeededMessages messages, SendLedger ledger, DeliveryAudit.DeliveryReport ownReadBack,
                  DeliveryAudit.DeliveryReport compatReadBack, double seconds) {
    }

    public static Result run(Client client, String namesrvAddress, Path runDir, String runId, int bodySize, SendLedger compatLedger,
                      boolean toleratesBatchDefect)
            throws IOException {
        long start = System.nanoTime();
        Path dir = runDir.resolve(client.dir());
        Files.createDirectories(dir.resolve("tmp"));
        LedgerFile.write(compatLedger, dir.resolve(COMPAT_LEDGER_FILE));
        Files.deleteIfExists(dir.resolve(RESULT_FILE));
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:+PerfDisableSharedMem",
            "-Djava.io.tmpdir=" + dir.resolve("tmp"), "-Duser.home=" + dir));
        command.addAll(JDK17_FLAGS);
        command.addAll(List.of("-cp", childClasspath(client), client.mainClass(), namesrvAddress, runId, Integer.toString(bodySize),
            dir.toString(), Boolean.toString(toleratesBatchDefect)));
        ManagedProcess child = ManagedProcess.start(client.dir(), command, Map.of(), List.of(), dir, dir.resolve("stdout.log"));
        Console.progress("client %s: started %s (pid %d) in its own JVM; log %s", client.release(), client.mainClass(), child.pid(),
            child.logFile());
        // SIGTERM to the controller runs shutdown hooks but no finally block: stop the child there too
        Thread stopOnShutdown = new Thread(() -> child.stop(CHILD_STOP_GRACE), "hotpath-" + client.dir() + "-shutdown");
        Runtime.getRuntime().addShutdownHook(stopOnShutdown);
        try {
            if (!child.awaitExit(CHILD_TIMEOUT)) {
                throw new ClusterException("the " + client.release() + " client JVM did not finish within " + CHILD_TIMEOUT.toSeconds()
                    + " s; see " + child.logFile());
            }
            if (child.exitCode() != 0) {
                String last = child.tail(3).strip();
                throw new ClusterException("the " + client.release() + " client JVM exited with code " + child.exitCode()
                    + (last.isEmpty() ? "" : " (last output: " + last + ")") + "; see " + child.logFile());
            }
        } finally {
            // also on a timeout or an interrupt: by PID, never by name
            child.stop(CHILD_STOP_GRACE);
            removeShutdownHook(stopOnShutdown);
        }
        Map<String, List<String>> sections = readSections(client, dir.resolve(RESULT_FILE));
        String version = String.join("", sections.getOrDefault("version", List.of()));
        if (!client.expectedVersion().equals(version)) {
            throw new ClusterException("the client JVM ran rocketmq-client " + version + ", not " + client.expectedVersion()
                + ": check -D" + client.classpathProperty() + " / " + client.module() + "/target/runtime-classpath.txt");
        }
        return new Result(client, version, new SeededMessages(client.topic(), runId, bodySize), LedgerFile.read(dir.resolve(SENT_FILE)),
            DeliveryAudit.DeliveryReport.parse(sections.getOrDefault("own", List.of())),
            DeliveryAudit.DeliveryReport.parse(sections.getOrDefault("compat", List.of())), (System.nanoTime() - start) / 1e9);
    }

    private static void removeShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs (or ran) and stops the child
        }
    }

    /** {@code [name]} headed blocks of lines; what comes before the first header is dropped. */
    static Map<String, List<String>> readSections(Client client, Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new ClusterException("the " + client.release() + " client JVM exited without writing " + file);
        }
        Map<String, List<String>> sections = new HashMap<>();
        List<String> current = null;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("[") && line.endsWith("]")) {
                current = sections.computeIfAbsent(line.substring(1, line.length() - 1), k -> new ArrayList<>());
            } else if (current != null && !line.isBlank()) {
                current.add(line);
            }
        }
        return sections;
    }

    /** One section for {@link #readSections}. */
    static String section(String name, String body) {
        return "[" + name + "]\n" + body + (body.endsWith("\n") ? "" : "\n");
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * From the launcher (module cli's ClusterLauncher), else the e2e classes this JVM runs plus the client module's outputs of this
     * checkout (a direct run after {@code mvn -pl e2e,e2e-client498,e2e-client533 package}).
     */
    static String childClasspath(Client client) {
        String fromScript = System.getProperty(client.classpathProperty());
        if (fromScript != null && !fromScript.isBlank()) {
            return fromScript;
        }
        Path root = Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize();
        Path module = root.resolve(client.module()).resolve("target");
        Path dependencies = module.resolve("runtime-classpath.txt");
        if (!Files.isRegularFile(dependencies)) {
            throw new ClusterException("no classpath for the " + client.release() + " client JVM: " + dependencies
                + " is missing; build it with mvn -pl e2e," + client.module() + " package -DskipTests");
        }
        try {
            Path e2eClasses = Path.of(NewerClientCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return module.resolve("hotpath-" + client.module() + ".jar") + ":" + e2eClasses + ":" + Files.readString(dependencies).strip();
        } catch (IOException | URISyntaxException e) {
            throw new ClusterException("cannot read " + dependencies + ": " + e.getMessage(), e);
        }
    }
}
