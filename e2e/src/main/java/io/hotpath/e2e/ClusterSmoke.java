package io.hotpath.e2e;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code bin/hotpath smoke}: for each requested distribution, start a fresh 2m-2s cluster
 * ({@link LocalCluster}), send N messages ({@link LoadProducer}), read everything back
 * ({@link Verifier}), stop the cluster, print the result; with several distributions also a
 * side-by-side table. Exit 0 when every run passed, 1 on a lost or corrupt message or a run
 * error, 2 on bad input.
 *
 * <p>RocketMQ 4.9.0 binds its servers to 0.0.0.0, so this refuses to start brokers unless it
 * runs in a private network namespace with only loopback (bin/lib/smoke.sh arranges that) or
 * {@code --no-netns} says the operator accepts brokers listening on every interface.
 *
 * <p>Set by bin/lib/smoke.sh: {@code hotpath.root} (project root), {@code hotpath.e2e.runRoot}
 * (where run directories go), {@code hotpath.e2e.stamp} (run timestamp), {@code hotpath.e2e.exitFile}.
 * Run directly, the JVM needs the root pom's {@code rocketmq.jdk17.flags} (rocketmq-client 4.9.0's
 * Netty fails to initialise on JDK 17 without them).
 */
public final class ClusterSmoke {

    public static final String TOPIC = "hotpath_smoke";
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration TOPIC_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(5);

    private final SmokeOptions options;
    private final Path projectRoot;
    private final Path runRoot;
    private final String stamp;

    ClusterSmoke(SmokeOptions options, Path projectRoot, Path runRoot, String stamp) {
        this.options = options;
        this.projectRoot = projectRoot;
        this.runRoot = runRoot;
        this.stamp = stamp;
    }

    public static void main(String[] args) {
        int code = run(args);
        recordExitCode(code);
        System.exit(code);
    }

    /**
     * Tells bin/lib/smoke.sh that this JVM finished on its own: without the file, a non-zero exit
     * means it was killed, which the script reports as such.
     */
    private static void recordExitCode(int code) {
        String file = System.getProperty("hotpath.e2e.exitFile");
        // the script creates the directory only for real runs, not for --help
        if (file != null && Files.isDirectory(Path.of(file).getParent())) {
            try {
                Files.writeString(Path.of(file), code + "\n");
            } catch (IOException e) {
                Console.warn("cannot write " + file + ": " + e.getMessage());
            }
        }
    }

    /** Runs the smoke and returns the exit code; never throws. */
    public static int run(String... args) {
        Path projectRoot = Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize();
        Path runRoot = Path.of(System.getProperty("hotpath.e2e.runRoot", projectRoot.resolve("e2e/target/e2e").toString()))
                .toAbsolutePath().normalize();
        String stamp = System.getProperty("hotpath.e2e.stamp",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            SmokeOptions options = SmokeOptions.parse(args);
            if (options.help()) {
                System.out.println(SmokeOptions.USAGE);
                return 0;
            }
            ClientLogging.logTo(runRoot.resolve(stamp + "-client").resolve("logs"));
            return new ClusterSmoke(options, projectRoot, runRoot, stamp).runAll() ? 0 : 1;
        } catch (UsageException e) {
            Console.error(e.getMessage());
            return 2;
        } catch (ClusterException e) {
            Console.error(e.getMessage() + stackTraceNote(e, runRoot, stamp));
            return 1;
        } catch (Throwable e) {
            Console.error("unexpected " + e + stackTraceNote(e, runRoot, stamp));
            return 1;
        }
    }

    private boolean runAll() throws IOException, InterruptedException {
        // resolve and check everything before starting anything
        List<Distribution> distributions = options.distributions().stream()
                .map(spec -> Distribution.resolve(spec, projectRoot)).toList();
        ClusterLayout layout = new ClusterLayout(options.basePort());
        layout.checkPortsFree();
        checkNetwork();

        List<SmokeResult> results = new ArrayList<>();
        for (Distribution distribution : distributions) {
            SmokeResult result = runOne(distribution, layout);
            results.add(result);
            System.out.print(result.summary());
        }
        if (results.size() > 1) {
            System.out.println();
            System.out.print(SmokeResult.sideBySide(results));
            System.out.println("(one short run per distribution on a cold JIT: TPS and RT differences of less than ~25 % are"
                    + " boot-to-boot noise here, not evidence)");
        }
        boolean passed = results.stream().allMatch(SmokeResult::passed);
        if (!passed) {
            Console.error("smoke failed: " + results.stream().filter(r -> !r.passed())
                    .map(r -> r.flavor() + " lost " + r.delivery().lost() + ", corrupt " + r.delivery().corrupt()
                            + ", misplaced " + r.delivery().misplaced() + " (" + r.runDir() + ")").toList());
        }
        return passed;
    }

    private SmokeResult runOne(Distribution distribution, ClusterLayout layout) throws IOException, InterruptedException {
        long start = System.nanoTime();
        String runId = stamp + "-" + distribution.flavor();
        Path runDir = runRoot.resolve(runId);
        Files.createDirectories(runDir);
        SeededMessages messages = new SeededMessages(TOPIC, runId, options.bodySize());
        LoadResult load;
        DeliveryAudit.DeliveryReport delivery;
        double bootSeconds;
        LocalCluster cluster = new LocalCluster(distribution, layout, runDir, List.of());
        try (cluster) {
            cluster.start(BOOT_TIMEOUT);
            bootSeconds = (System.nanoTime() - start) / 1e9;
            cluster.createTopic(TOPIC, options.queuesPerMaster(), TOPIC_TIMEOUT);
            Console.progress("sending %d messages of %d bytes to %s (%d queues on each of %s) from %d threads",
                    options.messages(), options.bodySize(), TOPIC, options.queuesPerMaster(), layout.brokerNames(), options.threads());
            load = new LoadProducer(cluster.namesrvAddress(),
                    new LoadProducer.LoadSpec(messages, options.messages(), options.threads())).run();
            Console.progress("sent %d: acked %d, failed %d in %.1f s; reading every queue back", load.sent(), load.acked(),
                    load.failed(), load.seconds());
            cluster.checkAlive();
            delivery = new Verifier(cluster.namesrvAddress(), VERIFY_TIMEOUT).verify(messages, load.ledger());
        }
        SmokeResult result = new SmokeResult(distribution.flavor(), distribution, runDir, options, load, delivery,
                bootSeconds, (System.nanoTime() - start) / 1e9);
        if (result.passed() && !options.keepStore()) {
            cluster.deleteStores();
        }
        result.writeJson();
        return result;
    }

    /**
     * Refuses to run brokers where they would be reachable from outside: with a non-loopback
     * interface up we are not in the private namespace, and only {@code --no-netns} allows that.
     */
    private void checkNetwork() throws SocketException {
        List<String> external = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .filter(this::isUpAndNotLoopback).map(NetworkInterface::getName).toList();
        if (external.isEmpty()) {
            Console.progress("private network namespace: only loopback is up, so the cluster is reachable from this run alone");
            return;
        }
        if (options.privateNetwork()) {
            throw new UsageException("not in a private network namespace (interfaces " + external + " are up) and --no-netns"
                    + " not given: RocketMQ 4.9.0 brokers listen on all interfaces; run through bin/hotpath smoke");
        }
        Console.warn("--no-netns: RocketMQ 4.9.0 binds 0.0.0.0, so name server and brokers listen on ALL interfaces "
                + external + " of this host while the smoke runs");
    }

    private boolean isUpAndNotLoopback(NetworkInterface nic) {
        try {
            return nic.isUp() && !nic.isLoopback();
        } catch (SocketException e) {
            return true;
        }
    }

    /** Writes the stack trace next to the runs and says where, keeping the terminal to one line. */
    private static String stackTraceNote(Throwable e, Path runRoot, String stamp) {
        try {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            Files.createDirectories(runRoot);
            Path file = runRoot.resolve(stamp + "-error.txt");
            Files.writeString(file, trace.toString());
            return " (stack trace: " + file + ")";
        } catch (IOException | RuntimeException ignored) {
            return "";
        }
    }
}
