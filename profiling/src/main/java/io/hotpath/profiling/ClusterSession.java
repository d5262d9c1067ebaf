package io.hotpath.profiling;

import com.google.gson.JsonParseException;
import io.hotpath.e2e.run.RunRecord;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Profiles both masters of a 2m-2s cluster while {@code bin/hotpath smoke} sends to it: starts the
 * smoke, waits until its load has started plus a warmup, attaches to broker-a and broker-b for N
 * seconds ({@link LiveSession}), then lets the smoke verify and stop its cluster.
 *
 * <p>What it relies on from e2e: the run record ({@link RunRecord}), which the smoke keeps in the file
 * this session names with {@code --run-record}: its state (load started, load finished) and each node's
 * PID. Never the smoke's console lines, which are for people. The smoke runs in its own PID namespace, so
 * a recorded PID is namespace-local: it is mapped to the host PID through the {@code NSpid} line of each
 * descendant of the smoke process we started (never a process of somebody else's run).
 */
public final class ClusterSession {

    static final List<String> MASTERS = List.of("broker-a", "broker-b");
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(250);
    /** The smoke stops its cluster on SIGTERM: brokers get 20 s, the name server 10 s. */
    private static final Duration SMOKE_STOP_GRACE = Duration.ofSeconds(45);

    private final Path root;
    private final Path library;
    private final Path dir;
    private final PrintStream console;

    public ClusterSession(Path root, Path library, Path dir, PrintStream console) {
        this.root = root;
        this.library = library;
        this.dir = dir;
        this.console = console;
    }

    /**
     * The smoke's load: {@code messages} from {@code threads} senders, paced at {@code rate} msg/s unless 0, after a
     * discarded warm-up load of {@code warmupSeconds} (the smoke's {@code --warmup}) unless 0.
     */
    public record SmokeLoad(int messages, int threads, int rate, int warmupSeconds) {
    }

    public List<LiveSession.Result> run(String dist, ReleaseLine line, int seconds, int warmupSeconds, SmokeLoad load,
            Set<ProfileEvent> events, CpuEngine forcedEngine) {
        Path launcher = root.resolve("bin/hotpath");
        if (!Files.isRegularFile(launcher)) {
            throw new UsageException("bin/hotpath is not in this checkout (" + launcher + " missing)");
        }
        LiveSession.createDirectories(dir);
        Path recordFile = dir.resolve(RunRecord.FILE);
        List<String> command = smokeCommand(root, dist, line.release(), load, recordFile);
        console.println("hotpath: " + String.join(" ", command));
        List<LiveSession.Result> results;
        int exit;
        try (ChildProcess smoke = ChildProcess.start("smoke", command, root, SMOKE_STOP_GRACE)) {
            RunRecord started = awaitLoad(smoke, recordFile, BOOT_TIMEOUT.plusSeconds(load.warmupSeconds()));
            sleepWhileLoaded(smoke, recordFile, Duration.ofSeconds(warmupSeconds));
            List<LiveSession.Target> masters = new ArrayList<>();
            for (String master : MASTERS) {
                masters.add(new LiveSession.Target(hostPid(smoke, started, master), master));
            }
            long profileStart = System.currentTimeMillis();
            results = new LiveSession(library, events, forcedEngine, dir, console).run(masters, Duration.ofSeconds(seconds));
            Long finished = read(recordFile).map(RunRecord::loadFinishedMillis).orElse(null);
            if (finished != null && finished - profileStart < TimeUnit.SECONDS.toMillis(seconds)) {
                console.printf("hotpath: warning: the smoke's load ended %.0f s into the %d s profile: the rest is idle and "
                    + "read-back time; raise --messages%n", (finished - profileStart) / 1e3, seconds);
            }
            console.println("hotpath: profiles written; waiting for the smoke to verify and stop its cluster");
            exit = smoke.waitFor();
        }
        if (exit != 0) {
            throw new ProfilingException("the smoke failed (exit " + exit + "); profiles are in " + dir);
        }
        return results;
    }

    /**
     * bin/hotpath smoke for one distribution of the line {@code release}, keeping its run record in {@code recordFile};
     * paced unless the rate is 0 (the smoke fails on any send its broker rejects in the measured load, so CI paces it below
     * saturation and warms the cluster first); its brokers keep the evidence of {@link DecoderProvenance} (bin/hotpath profile provenance on this
     * session's directory).
     */
    static List<String> smokeCommand(Path root, String dist, String release, SmokeLoad load, Path recordFile) {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("bin/hotpath").toString(), "smoke", "--dist", dist,
            LineOption.LINE, release, "-n", Integer.toString(load.messages()), "-w", Integer.toString(load.threads())));
        if (load.rate() > 0) {
            command.addAll(List.of("--rate", Integer.toString(load.rate())));
        }
        if (load.warmupSeconds() > 0) {
            command.addAll(List.of("--warmup", Integer.toString(load.warmupSeconds())));
        }
        command.addAll(List.of("--run-record", recordFile.toString(),
            "--broker-jvm-opts=" + String.join(" ", DecoderProvenance.brokerJvmOptions())));
        return command;
    }

    /** The record once the smoke has started its load; fails when the smoke exits or times out first. */
    private RunRecord awaitLoad(ChildProcess smoke, Path recordFile, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<RunRecord> record = read(recordFile);
            if (record.isPresent() && record.get().reached(RunRecord.State.LOAD_STARTED)) {
                if (record.get().loadStartedMillis() == null) {
                    throw new ProfilingException("the smoke stopped before it started sending (run record " + recordFile + ")");
                }
                return record.get();
            }
            if (!smoke.isAlive()) {
                throw new ProfilingException("the smoke exited (status " + smoke.waitFor() + ") before it started sending");
            }
            if (System.nanoTime() > deadline) {
                throw new ProfilingException("the smoke did not start its measured load within " + timeout.toSeconds() + " s");
            }
            smoke.awaitExit(POLL);
        }
    }

    private void sleepWhileLoaded(ChildProcess smoke, Path recordFile, Duration warmup) {
        if (!warmup.isZero()) {
            console.printf("hotpath: load running; profiling starts after %d s of warmup%n", warmup.toSeconds());
        }
        long deadline = System.nanoTime() + warmup.toNanos();
        while (System.nanoTime() < deadline) {
            if (!smoke.isAlive() || read(recordFile).map(r -> r.reached(RunRecord.State.LOAD_FINISHED)).orElse(true)) {
                throw new ProfilingException("the smoke's load ended during the warmup; raise --messages");
            }
            smoke.awaitExit(POLL);
        }
    }

    private static Optional<RunRecord> read(Path recordFile) {
        try {
            return RunRecord.read(recordFile);
        } catch (UncheckedIOException | JsonParseException e) {
            throw new ProfilingException("cannot read the smoke's run record: " + e.getMessage());
        }
    }

    /** The host PID of {@code node}: the record holds its PID inside the smoke's PID namespace. */
    private long hostPid(ChildProcess smoke, RunRecord record, String node) {
        RunRecord.Node recorded = record.node(node).orElseThrow(() -> new ProfilingException("the smoke's run record ("
            + record.runDir() + ") has no node " + node));
        for (ProcessHandle process : smoke.descendants()) {
            if (innermostPid(process.pid()) == recorded.pid()) {
                return process.pid();
            }
        }
        throw new ProfilingException(node + " (PID " + recorded.pid() + " in the smoke's namespace, " + recorded.pidFile()
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
