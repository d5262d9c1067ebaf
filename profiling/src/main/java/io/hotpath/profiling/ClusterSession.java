package io.hotpath.profiling;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Profiles both masters of a 2m-2s cluster while {@code bin/hotpath smoke} sends to it: starts the
 * smoke, waits until its load has started plus a warmup, attaches to broker-a and broker-b for N
 * seconds ({@link LiveSession}), then lets the smoke verify and stop its cluster.
 *
 * <p>What it relies on from e2e, today: the smoke's progress lines ({@code ... run dir <dir>},
 * {@code sending N messages ...}, {@code sent N: acked ...}) and the PID file
 * {@code <run dir>/<node>/pid} that e2e's ManagedProcess writes. The smoke runs in its own PID
 * namespace, so that PID is namespace-local: it is mapped to the host PID through the
 * {@code NSpid} line of each descendant of the smoke process we started (never a process of
 * somebody else's run).
 */
public final class ClusterSession {

    static final List<String> MASTERS = List.of("broker-a", "broker-b");
    private static final Pattern RUN_DIR = Pattern.compile("\\brun dir (\\S+)");
    private static final Pattern LOAD_STARTED = Pattern.compile("\\bsending \\d+ messages\\b");
    private static final Pattern LOAD_FINISHED = Pattern.compile("\\bsent \\d+: acked\\b");
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(5);
    /** The smoke stops its cluster on SIGTERM: brokers get 20 s, the name server 10 s. */
    private static final Duration SMOKE_STOP_GRACE = Duration.ofSeconds(45);

    private final Path root;
    private final Path library;
    private final Path dir;
    private final PrintStream console;

    private volatile Path clusterRunDir;
    private final CountDownLatch loadStarted = new CountDownLatch(1);
    private volatile long loadFinishedNanos;

    public ClusterSession(Path root, Path library, Path dir, PrintStream console) {
        this.root = root;
        this.library = library;
        this.dir = dir;
        this.console = console;
    }

    public List<LiveSession.Result> run(String dist, int seconds, int warmupSeconds, int messages, int threads,
            Set<ProfileEvent> events, CpuEngine forcedEngine) {
        Path smokeScript = root.resolve("bin/lib/smoke.sh");
        if (!Files.isRegularFile(smokeScript)) {
            throw new UsageException("bin/hotpath smoke is not available in this checkout (" + smokeScript + " missing)");
        }
        LiveSession.createDirectories(dir);
        List<String> command = List.of("bash", root.resolve("bin/hotpath").toString(), "smoke", "--dist", dist,
            "-n", Integer.toString(messages), "-w", Integer.toString(threads));
        console.println("hotpath: " + String.join(" ", command));
        List<LiveSession.Result> results;
        int exit;
        try (ChildProcess smoke = ChildProcess.startWatched("smoke", command, root, SMOKE_STOP_GRACE, this::watch, console)) {
            awaitLoad(smoke);
            sleepWhileLoaded(smoke, Duration.ofSeconds(warmupSeconds));
            List<LiveSession.Target> masters = new ArrayList<>();
            for (String master : MASTERS) {
                masters.add(new LiveSession.Target(hostPid(smoke, master), master));
            }
            long profileStart = System.nanoTime();
            results = new LiveSession(library, events, forcedEngine, dir, console).run(masters, Duration.ofSeconds(seconds));
            long finished = loadFinishedNanos;
            if (finished != 0 && finished - profileStart < TimeUnit.SECONDS.toNanos(seconds)) {
                console.printf("hotpath: warning: the smoke's load ended %.0f s into the %d s profile: the rest is idle and "
                    + "read-back time; raise --messages%n", (finished - profileStart) / 1e9, seconds);
            }
            console.println("hotpath: profiles written; waiting for the smoke to verify and stop its cluster");
            exit = smoke.waitFor();
        }
        if (exit != 0) {
            throw new ProfilingException("the smoke failed (exit " + exit + "); profiles are in " + dir);
        }
        return results;
    }

    private void watch(String line) {
        Matcher runDir = RUN_DIR.matcher(line);
        if (clusterRunDir == null && runDir.find()) {
            clusterRunDir = Path.of(runDir.group(1));
        }
        if (LOAD_STARTED.matcher(line).find()) {
            loadStarted.countDown();
        }
        if (LOAD_FINISHED.matcher(line).find()) {
            loadFinishedNanos = System.nanoTime();
        }
    }

    private void awaitLoad(ChildProcess smoke) {
        long deadline = System.nanoTime() + BOOT_TIMEOUT.toNanos();
        try {
            while (!loadStarted.await(500, TimeUnit.MILLISECONDS)) {
                if (!smoke.isAlive()) {
                    throw new ProfilingException("the smoke exited (status " + smoke.waitFor() + ") before it started sending");
                }
                if (System.nanoTime() > deadline) {
                    throw new ProfilingException("the smoke did not start sending within " + BOOT_TIMEOUT.toMinutes() + " min");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProfilingException("interrupted while waiting for the smoke to start sending");
        }
        if (clusterRunDir == null) {
            throw new ProfilingException("the smoke started sending but never printed its run directory");
        }
    }

    private void sleepWhileLoaded(ChildProcess smoke, Duration warmup) {
        if (!warmup.isZero()) {
            console.printf("hotpath: load running; profiling starts after %d s of warmup%n", warmup.toSeconds());
        }
        long deadline = System.nanoTime() + warmup.toNanos();
        while (System.nanoTime() < deadline) {
            if (!smoke.isAlive() || loadFinishedNanos != 0) {
                throw new ProfilingException("the smoke's load ended during the warmup; raise --messages");
            }
            smoke.awaitExit(Duration.ofMillis(250));
        }
    }

    /** The host PID of {@code node}: its PID file holds the PID inside the smoke's PID namespace. */
    private long hostPid(ChildProcess smoke, String node) {
        Path pidFile = clusterRunDir.resolve(node).resolve("pid");
        long namespacePid;
        try {
            namespacePid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
        } catch (IOException | NumberFormatException e) {
            throw new ProfilingException("cannot read the PID of " + node + " from " + pidFile + ": " + e.getMessage());
        }
        for (ProcessHandle process : smoke.descendants()) {
            if (innermostPid(process.pid()) == namespacePid) {
                return process.pid();
            }
        }
        throw new ProfilingException(node + " (PID " + namespacePid + " in the smoke's namespace, " + pidFile
            + ") is not a running process of this smoke");
    }

    /** The last {@code NSpid} entry of a host process: its PID in its own (innermost) PID namespace. */
    static long innermostPid(long hostPid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(hostPid), "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("NSpid:")) {
                    return parseInnermostPid(line);
                }
            }
        } catch (IOException e) {
            // the process exited meanwhile
        }
        return -1;
    }

    static long parseInnermostPid(String nsPidLine) {
        String[] fields = nsPidLine.substring("NSpid:".length()).trim().split("\\s+");
        return Long.parseLong(fields[fields.length - 1]);
    }
}
