package io.hotpath.profiling;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A process this tool started (the JMH run, the e2e smoke) and must stop: on {@link #close()},
 * also from a shutdown hook when the tool is interrupted, it gets SIGTERM (so the smoke can stop
 * its cluster itself), a grace period, then SIGKILL for it and every descendant seen while it ran.
 * Always by PID, never by name.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Duration grace;
    private final Map<Long, ProcessHandle> descendants = new LinkedHashMap<>();
    private final Thread stopOnExit;
    private final Thread pump;

    private ChildProcess(String name, Process process, Duration grace, Consumer<String> lines, PrintStream echo) {
        this.name = name;
        this.process = process;
        this.grace = grace;
        this.stopOnExit = new Thread(this::stop, "hotpath-stop-" + name);
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        if (lines == null) {
            this.pump = null;
        } else {
            this.pump = new Thread(() -> pump(process, lines, echo), "hotpath-output-" + name);
            this.pump.setDaemon(true);
            this.pump.start();
        }
    }

    /** Starts {@code command} with stdout and stderr passed through to ours. */
    static ChildProcess start(String name, List<String> command, Path workDir, Duration grace) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).inheritIO()
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        return new ChildProcess(name, launch(name, builder), grace, null, null);
    }

    /**
     * Starts {@code command} with stdout and stderr merged and handed line by line to
     * {@code lines}, and echoed to {@code echo}.
     */
    static ChildProcess startWatched(String name, List<String> command, Path workDir, Duration grace,
            Consumer<String> lines, PrintStream echo) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        return new ChildProcess(name, launch(name, builder), grace, lines, echo);
    }

    private static Process launch(String name, ProcessBuilder builder) {
        try {
            return builder.start();
        } catch (IOException e) {
            throw new ProfilingException("cannot start " + name + " (" + String.join(" ", builder.command()) + "): "
                + e.getMessage(), e);
        }
    }

    private static void pump(Process process, Consumer<String> lines, PrintStream echo) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                echo.println(line);
                lines.accept(line);
            }
        } catch (IOException e) {
            // the process closed its output: it is exiting
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Every live descendant (host PIDs), remembered so that they can be stopped after the parent is gone. */
    synchronized List<ProcessHandle> descendants() {
        process.descendants().forEach(handle -> descendants.put(handle.pid(), handle));
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : descendants.values()) {
            if (handle.isAlive()) {
                alive.add(handle);
            }
        }
        return alive;
    }

    /** Waits for the exit and returns the exit code; the output has been handed on completely. */
    int waitFor() {
        try {
            int code = process.waitFor();
            if (pump != null) {
                pump.join(TimeUnit.SECONDS.toMillis(5));
            }
            return code;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProfilingException("interrupted while waiting for " + name);
        }
    }

    /** Waits at most {@code timeout}; true when the process has exited. */
    boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private synchronized void stop() {
        if (process.isAlive()) {
            descendants();
            System.err.println("hotpath: stopping " + name + " (PID " + process.pid() + ")");
            process.destroy();
            long deadline = System.nanoTime() + grace.toNanos();
            while (process.isAlive() && System.nanoTime() < deadline) {
                descendants();
                awaitExit(Duration.ofMillis(200));
            }
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(10));
        }
        for (ProcessHandle handle : descendants.values()) {
            if (handle.isAlive()) {
                handle.destroyForcibly();
                handle.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> handle).join();
            }
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // shutting down: the hook stops the process as well
        }
    }
}
