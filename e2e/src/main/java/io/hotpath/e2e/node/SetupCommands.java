package io.hotpath.e2e.node;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the realistic network's setup commands ({@code ip}, {@code tc}, {@code nsenter}) one by one and keeps
 * {@code network.log}: every command with what it printed. A failed command is one line naming the namespace,
 * the command and its first output line.
 */
final class SetupCommands {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);

    /** One setup command: {@code where} names the namespace it runs in (controller or a node) for error messages. */
    record Step(String where, List<String> argv) {
        @Override
        public String toString() {
            return where + ": " + String.join(" ", argv);
        }
    }

    record Result(int exitCode, String output) {
    }

    private final Path logFile;

    SetupCommands(Path logFile) {
        this.logFile = logFile;
    }

    Path logFile() {
        return logFile;
    }

    /** Runs every step in order; the first that fails ends the setup. */
    void run(List<Step> steps) {
        for (Step step : steps) {
            Result result = execute(step);
            if (result.exitCode() != 0) {
                throw failed(step, result);
            }
        }
    }

    Result execute(Step step) {
        try {
            Process process = new ProcessBuilder(step.argv()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "timed out after " + COMMAND_TIMEOUT.toSeconds() + " s");
            }
            log(step + (output.isBlank() ? "" : "\n    " + output.strip().replace("\n", "\n    ")));
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while setting up the realistic network", e);
        }
    }

    ClusterException failed(Step step, Result result) {
        String first = result.output().strip().lines().findFirst().orElse("no output");
        return new ClusterException("realistic network setup failed in " + (step.where().equals("controller") ? "the " : "")
                + step.where() + "'s namespace: `"
                + String.join(" ", step.argv()) + "` exited with " + result.exitCode() + ": " + first + " (log " + logFile + ")");
    }

    synchronized void log(String line) {
        if (logFile == null) {
            return;
        }
        try {
            Files.writeString(logFile, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            Console.warn("cannot write " + logFile + ": " + e.getMessage());
        }
    }

    String lastLogLine() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "no output";
        }
    }
}
