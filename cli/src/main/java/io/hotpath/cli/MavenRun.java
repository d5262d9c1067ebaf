package io.hotpath.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Maven in batch mode from the project root, as the commands run it: its output on the console, or into a log file
 * with a progress line every 30 s (a build of upstream's trees is silent for minutes otherwise). A Ctrl-C or kill of
 * this JVM stops Maven and everything it started.
 */
final class MavenRun {

    static final long PROGRESS_SECONDS = 30;

    private final Path root;
    private final String executable;

    MavenRun(Path root) {
        this(root, System.getProperty("hotpath.mvn", "mvn"));
    }

    /** {@code executable}: what runs Maven; the tests give a stand-in. */
    MavenRun(Path root, String executable) {
        this.root = root;
        this.executable = executable;
    }

    /**
     * Runs {@code mvn -B --no-transfer-progress <arguments>}; with {@code log} non-null its output goes there and
     * {@code what} is named in the progress lines. Returns Maven's exit code.
     */
    int run(List<String> arguments, Path log, String what) {
        return run(arguments, log, what, Map.of());
    }

    /** {@link #run(List, Path, String)} with {@code environment} added to Maven's. */
    int run(List<String> arguments, Path log, String what, Map<String, String> environment) {
        List<String> command = new ArrayList<>(List.of(executable, "-B", "--no-transfer-progress"));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
        builder.environment().putAll(environment);
        if (log == null) {
            builder.inheritIO();
        } else {
            try {
                Files.createDirectories(log.getParent());
            } catch (IOException e) {
                throw new CommandFailure("cannot create " + log.getParent() + ": " + e.getMessage());
            }
            builder.redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.INHERIT);
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new CommandFailure("cannot run Maven ('" + executable + "' on PATH): " + e.getMessage());
        }
        Thread stopper = new Thread(() -> stop(process), "stop-maven");
        Runtime.getRuntime().addShutdownHook(stopper);
        long start = System.nanoTime();
        try {
            while (!process.waitFor(PROGRESS_SECONDS, TimeUnit.SECONDS)) {
                if (log != null) {
                    System.err.printf(Locale.ROOT, "hotpath: ... %s: %d s so far (log: %s)%n", what,
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), root.relativize(log));
                }
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(process);
            throw new CommandFailure("interrupted while " + what);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) and stops Maven
            }
        }
    }

    private static void stop(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }
}
