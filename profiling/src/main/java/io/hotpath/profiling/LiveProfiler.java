package io.hotpath.profiling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

/**
 * async-profiler inside a running JVM, driven through the JDK attach API: every command
 * ({@code start,...}, {@code stop}) is one {@code loadAgentPath(libasyncProfiler.so, command)};
 * the JVM loads the library once and calls its {@code Agent_OnAttach} again for each command. No
 * launcher binary is involved.
 *
 * <p>The agent reports to a log file we name with {@code log=} (otherwise its messages would end up
 * on the target's stdout); {@link #warnings()} returns what it logged at WARN or worse.
 * {@link #close()} stops a profiler that is still running, so an interrupted session never leaves
 * a broker profiling.
 */
public final class LiveProfiler implements AutoCloseable {

    private final long pid;
    private final Path library;
    private final Path log;
    private final VirtualMachine vm;
    private final List<String> warnings = new ArrayList<>();
    private boolean running;

    private LiveProfiler(long pid, Path library, Path log, VirtualMachine vm) {
        this.pid = pid;
        this.library = library;
        this.log = log;
        this.vm = vm;
    }

    /** Checks that {@code pid} is a running HotSpot JVM and attaches to it. */
    public static LiveProfiler attach(long pid, Path library, Path log) {
        checkJvm(pid);
        try {
            return new LiveProfiler(pid, library, log, VirtualMachine.attach(Long.toString(pid)));
        } catch (AttachNotSupportedException | IOException e) {
            throw new UsageException("cannot attach to JVM " + pid + ": " + e.getMessage());
        }
    }

    /** Fails with one line when {@code pid} is not a process or runs no libjvm. */
    static void checkJvm(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        if (pid <= 0 || !Files.isDirectory(proc)) {
            throw new UsageException("no process with PID " + pid);
        }
        String maps;
        try {
            maps = Files.readString(proc.resolve("maps"), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            // never attach blind: the attach API starts by sending SIGQUIT, which kills most non-JVMs
            throw new UsageException("cannot tell whether PID " + pid + " (" + command(proc) + ") is a JVM: cannot read "
                + proc.resolve("maps") + " (" + e.getClass().getSimpleName() + ")");
        }
        if (!maps.contains("/libjvm.so")) {
            throw new UsageException("PID " + pid + " (" + command(proc) + ") is not a JVM");
        }
    }

    private static String command(Path proc) {
        try {
            return Files.readString(proc.resolve("comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "unknown command";
        }
    }

    public long pid() {
        return pid;
    }

    /**
     * Asks the agent which CPU engine {@code event=cpu} gets in this JVM: perf events, or ctimer
     * when the kernel refuses perf events to it. Records nothing but a few milliseconds of JFR.
     */
    public CpuEngine probeCpuEngine(Path probeJfr) {
        execute("start,event=cpu,jfr,file=" + probeJfr);
        execute("stop");
        try {
            return CpuEngine.fromJfrName(JfrExport.engine(probeJfr));
        } finally {
            deleteQuietly(probeJfr);
        }
    }

    /** {@code start,<options>}: options name the events, {@code jfr} and the {@code file=}. */
    public synchronized void start(String options) {
        execute("start," + options);
        running = true;
    }

    /** Stops profiling; with JFR output the recording file is complete afterwards. */
    public synchronized void stop() {
        if (running) {
            running = false;
            execute("stop");
        }
    }

    /** WARN and ERROR lines the agent logged so far, e.g. missing kernel symbols. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    private synchronized void execute(String command) {
        String options = command + ",log=" + log;
        try {
            vm.loadAgentPath(library.toString(), options);
            collectWarnings();
        } catch (AgentInitializationException e) {
            throw new ProfilingException("async-profiler refused '" + command + "' in JVM " + pid + ": "
                + lastLogLine().orElse("Agent_OnAttach returned " + e.returnValue()));
        } catch (AgentLoadException e) {
            throw new ProfilingException("JVM " + pid + " could not load " + library + ": " + e.getMessage());
        } catch (IOException e) {
            throw new ProfilingException("lost the attach connection to JVM " + pid + " during '" + command + "': "
                + e.getMessage(), e);
        }
    }

    // The agent re-creates the log for every command, so read it after each one.
    private void collectWarnings() {
        for (String line : logLines()) {
            if (line.contains("[WARN]") || line.contains("[ERROR]")) {
                warnings.add(line.strip());
            }
        }
    }

    private Optional<String> lastLogLine() {
        List<String> lines = logLines();
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (!lines.get(i).isBlank()) {
                return Optional.of(lines.get(i).strip());
            }
        }
        return Optional.empty();
    }

    private List<String> logLines() {
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover probe file in target/ is harmless
        }
    }

    /** Stops a profiler still running (interrupted session), then detaches. */
    @Override
    public synchronized void close() {
        try {
            if (running) {
                stop();
                System.err.println("hotpath: stopped the profiler in JVM " + pid + " (session interrupted)");
            }
        } catch (RuntimeException e) {
            System.err.println("hotpath: warning: could not stop the profiler in JVM " + pid + ": " + e.getMessage());
        } finally {
            try {
                vm.detach();
            } catch (IOException e) {
                // the target is gone or the connection closed; nothing left to release
            }
        }
    }
}
