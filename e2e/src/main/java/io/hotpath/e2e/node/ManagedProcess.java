package io.hotpath.e2e.node;

import io.hotpath.e2e.ClusterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One child process we started and must stop: stdout and stderr go to a log file, its PID is
 * written next to it (so a wrapper can clean up even after {@code kill -9} of this JVM), and it is
 * stopped by PID: SIGTERM, a grace period, then SIGKILL, for the process and every descendant it
 * had. Never by name.
 */
public final class ManagedProcess {
    private static final Duration FREEZE_TIMEOUT = Duration.ofSeconds(10);

    /** The file in a node's work directory that holds its PID (as this JVM sees it). */
    public static final String PID_FILE = "pid";

    private final String name;
    private final Process process;
    private final Path logFile;
    // descendants seen while alive: once the parent is gone they are no longer reachable through it
    private final List<ProcessHandle> knownDescendants = new ArrayList<>();
    private boolean stopRequested;

    private ManagedProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code command} in {@code workDir} (where a crashing JVM drops hs_err files) with
     * {@code extraEnv} added to this process's environment, minus {@code removedEnv}.
     */
    public static ManagedProcess start(String name, List<String> command, Map<String, String> extraEnv,
                                       List<String> removedEnv, Path workDir, Path logFile) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        removedEnv.forEach(builder.environment()::remove);
        builder.environment().putAll(extraEnv);
        try {
            Files.createDirectories(workDir);
            Process process = builder.start();
            ManagedProcess managed = new ManagedProcess(name, process, logFile);
            Files.writeString(workDir.resolve(PID_FILE), process.pid() + "\n");
            return managed;
        } catch (IOException e) {
            throw new ClusterException("cannot start " + name + " (" + String.join(" ", command) + "): " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Exit code, or -1 while running. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    public Path logFile() {
        return logFile;
    }

    /** Sends SIGTERM once (RocketMQ's shutdown hook flushes and unregisters) without waiting. */
    public synchronized void requestStop() {
        if (!stopRequested) {
            stopRequested = true;
            rememberDescendants();
            process.destroy();
        }
    }

    /** SIGKILL now, to the process and its descendants: what a crash looks like to the cluster. */
    public synchronized void kill() {
        rememberDescendants();
        process.destroyForcibly();
        knownDescendants.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * SIGSTOP ({@code frozen} true) or SIGCONT to the process and its descendants. A frozen JVM keeps its sockets open
     * and runs nothing: its peers see a connection that stops answering, not one that closes. Returns once every
     * signalled process is stopped (or running again): a signal takes effect when its target is next scheduled, which on a
     * loaded machine can be after the caller's next send.
     */
    public synchronized void freeze(boolean frozen) {
        List<Long> pids = new ArrayList<>(List.of(process.pid()));
        process.descendants().forEach(child -> pids.add(child.pid()));
        List<String> command = new ArrayList<>(List.of("kill", frozen ? "-STOP" : "-CONT"));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new ClusterException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new ClusterException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while signalling " + this, e);
        }
        awaitStopped(pids, frozen);
    }

    private void awaitStopped(List<Long> pids, boolean stopped) {
        long deadline = System.nanoTime() + FREEZE_TIMEOUT.toNanos();
        for (long pid : pids) {
            Optional<Boolean> state;
            while ((state = isStopped(pid)).isPresent() && state.get() != stopped) {
                if (System.nanoTime() > deadline) {
                    throw new ClusterException("process " + pid + " of " + this + " is still " + (stopped ? "running" : "stopped")
                            + " " + FREEZE_TIMEOUT.toSeconds() + " s after SIG" + (stopped ? "STOP" : "CONT"));
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ClusterException("interrupted while waiting for " + this + " to " + (stopped ? "stop" : "resume"), e);
                }
            }
        }
    }

    /** Whether {@code pid} is stopped by a signal (state T in /proc/PID/stat); empty when it is gone or a zombie. */
    private static Optional<Boolean> isStopped(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return Optional.empty();
        }
        // the command name in parentheses may hold spaces and parentheses: the state follows the last ')'
        char state = stat.charAt(stat.lastIndexOf(')') + 2);
        return state == 'Z' || state == 'X' ? Optional.empty() : Optional.of(state == 'T');
    }

    /** Waits until the process has exited or {@code timeout} passed; true when it exited. */
    public boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /**
     * Stops the process tree: SIGTERM, up to {@code grace} for a clean exit, then SIGKILL for
     * whatever is left (including descendants that outlived their parent). Returns true when it
     * exited within the grace period.
     */
    public boolean stop(Duration grace) {
        if (!process.isAlive()) {
            killLeftoverDescendants();
            return true;
        }
        requestStop();
        boolean clean = awaitExit(grace);
        if (!clean) {
            kill();
            awaitExit(Duration.ofSeconds(10));
        }
        killLeftoverDescendants();
        return clean;
    }

    /** After the parent exited: SIGKILL any descendant we saw that is still alive, and wait for it. */
    public synchronized void killLeftoverDescendants() {
        for (ProcessHandle child : knownDescendants) {
            if (child.isAlive()) {
                child.destroyForcibly();
                child.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> child).join();
            }
        }
    }

    private void rememberDescendants() {
        if (process.isAlive()) {
            process.descendants().forEach(knownDescendants::add);
        }
    }

    /** The last {@code lines} lines of the log, for error messages about a process that died. */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
