package io.hotpath.e2e.audit;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.cli.ClusterSmoke;
import io.hotpath.e2e.cluster.ClusterLayout;
import io.hotpath.e2e.cluster.Distribution;
import io.hotpath.e2e.cluster.ManagedProcess;
import io.hotpath.e2e.load.CompatSends;
import io.hotpath.e2e.load.LedgerFile;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
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
 * Client compatibility with a newer 4.9.x client: a rocketmq-client {@value #CLIENT_RELEASE} producer and
 * consumer in a JVM of their own (this JVM has 4.9.0 on its classpath), started as a
 * {@link ManagedProcess} inside the smoke's network namespace and talking to the cluster on 127.0.0.1.
 * It runs {@code Client498Check} (module e2e-client498), which
 * <ol>
 *   <li>sends {@value #SINGLE_MESSAGES} single messages and one batch of {@value #BATCH_MESSAGES} to
 *       {@value #TOPIC} (4.9.8 encodes properties without 4.9.0's trailing separator),</li>
 *   <li>reads them back with its own 4.9.8 pull consumer and audits them ({@link DeliveryAudit}),</li>
 *   <li>reads back and audits the compat topic the 4.9.0 client filled ({@link CompatSends}),</li>
 * </ol>
 * and leaves its ledger and both verdicts in {@code <runDir>/client-4.9.8/}. The controller then reads
 * the 4.9.8 sends back once more with its own 4.9.0 consumer against that ledger
 * ({@link ClusterSmoke#verifyAll}): an acknowledged message missing in any read-back fails the run.
 */
public final class NewerClientCheck {

    public static final String CLIENT_RELEASE = "4.9.8";
    /** {@code MQVersion.getVersionDesc(CURRENT_VERSION)} the child must report, or it did not run the newer client. */
    static final String EXPECTED_VERSION = "V4_9_8";
    public static final String TOPIC = "hotpath_smoke_498";
    public static final int QUEUES_PER_MASTER = 2;
    public static final int SINGLE_MESSAGES = 40;
    public static final int BATCH_MESSAGES = 16;
    static final String MAIN = "io.hotpath.e2e.audit.Client498Check";
    /** The child's classpath (its jar, the e2e jar, rocketmq-client 4.9.8 and dependencies), set by bin/lib/smoke.sh. */
    static final String CLASSPATH_PROPERTY = "hotpath.e2e.client498.classpath";
    static final String DIR = "client-" + CLIENT_RELEASE;
    static final String SENT_FILE = "sent.tsv";
    static final String COMPAT_LEDGER_FILE = "compat-sent.tsv";
    static final String RESULT_FILE = "result.txt";
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration CHILD_STOP_GRACE = Duration.ofSeconds(5);
    // rocketmq.jdk17.flags of the root pom: 4.9.x clients need them on JDK 17 too
    private static final List<String> JDK17_FLAGS = List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

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

    private NewerClientCheck() {
    }

    /** The {@link DeliveryAudit.KnownDefect} for {@value #TOPIC} (see {@link #toleratesBatchSeparatorDefect}). */
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
    public record Result(String clientVersion, SeededMessages messages, SendLedger ledger, DeliveryAudit.DeliveryReport ownReadBack,
                  DeliveryAudit.DeliveryReport compatReadBack, double seconds) {
    }

    public static Result run(String namesrvAddress, Path runDir, String runId, int bodySize, SendLedger compatLedger,
                      boolean toleratesBatchDefect)
            throws IOException {
        long start = System.nanoTime();
        Path dir = runDir.resolve(DIR);
        Files.createDirectories(dir.resolve("tmp"));
        LedgerFile.write(compatLedger, dir.resolve(COMPAT_LEDGER_FILE));
        Files.deleteIfExists(dir.resolve(RESULT_FILE));
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:+PerfDisableSharedMem",
            "-Djava.io.tmpdir=" + dir.resolve("tmp"), "-Duser.home=" + dir));
        command.addAll(JDK17_FLAGS);
        command.addAll(List.of("-cp", childClasspath(), MAIN, namesrvAddress, runId, Integer.toString(bodySize), dir.toString(),
            Boolean.toString(toleratesBatchDefect)));
        ManagedProcess child = ManagedProcess.start("client-" + CLIENT_RELEASE, command, Map.of(), List.of(), dir, dir.resolve("stdout.log"));
        Console.progress("client %s: started %s (pid %d) in its own JVM; log %s", CLIENT_RELEASE, MAIN, child.pid(), child.logFile());
        // SIGTERM to the controller runs shutdown hooks but no finally block: stop the child there too
        Thread stopOnShutdown = new Thread(() -> child.stop(CHILD_STOP_GRACE), "hotpath-client498-shutdown");
        Runtime.getRuntime().addShutdownHook(stopOnShutdown);
        try {
            if (!child.awaitExit(CHILD_TIMEOUT)) {
                throw new ClusterException("the " + CLIENT_RELEASE + " client JVM did not finish within " + CHILD_TIMEOUT.toSeconds()
                    + " s; see " + child.logFile());
            }
            if (child.exitCode() != 0) {
                String last = child.tail(3).strip();
                throw new ClusterException("the " + CLIENT_RELEASE + " client JVM exited with code " + child.exitCode()
                    + (last.isEmpty() ? "" : " (last output: " + last + ")") + "; see " + child.logFile());
            }
        } finally {
            // also on a timeout or an interrupt: by PID, never by name
            child.stop(CHILD_STOP_GRACE);
            removeShutdownHook(stopOnShutdown);
        }
        Map<String, List<String>> sections = readSections(dir.resolve(RESULT_FILE));
        String version = String.join("", sections.getOrDefault("version", List.of()));
        if (!EXPECTED_VERSION.equals(version)) {
            throw new ClusterException("the client JVM ran rocketmq-client " + version + ", not " + EXPECTED_VERSION
                + ": check -D" + CLASSPATH_PROPERTY + " / e2e-client498/target/runtime-classpath.txt");
        }
        return new Result(version, new SeededMessages(TOPIC, runId, bodySize), LedgerFile.read(dir.resolve(SENT_FILE)),
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
    static Map<String, List<String>> readSections(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new ClusterException("the " + CLIENT_RELEASE + " client JVM exited without writing " + file);
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
     * From bin/lib/smoke.sh, else the e2e classes this JVM runs plus e2e-client498's outputs of this
     * checkout (a direct run after {@code mvn -pl e2e,e2e-client498 package}).
     */
    static String childClasspath() {
        String fromScript = System.getProperty(CLASSPATH_PROPERTY);
        if (fromScript != null && !fromScript.isBlank()) {
            return fromScript;
        }
        Path root = Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize();
        Path module = root.resolve("e2e-client498/target");
        Path dependencies = module.resolve("runtime-classpath.txt");
        if (!Files.isRegularFile(dependencies)) {
            throw new ClusterException("no classpath for the " + CLIENT_RELEASE + " client JVM: " + dependencies
                + " is missing; build it with mvn -pl e2e,e2e-client498 package -DskipTests");
        }
        try {
            Path e2eClasses = Path.of(NewerClientCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return module.resolve("hotpath-e2e-client498.jar") + ":" + e2eClasses + ":" + Files.readString(dependencies).strip();
        } catch (IOException | URISyntaxException e) {
            throw new ClusterException("cannot read " + dependencies + ": " + e.getMessage(), e);
        }
    }
}
