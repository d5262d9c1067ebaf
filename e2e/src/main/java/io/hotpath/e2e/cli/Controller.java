package io.hotpath.e2e.cli;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.List;

/**
 * What every controller command (smoke, campaign) shares: where it runs, the exit-code map, the exit file the launcher
 * reads, and the refusal to start brokers outside a private network namespace.
 */
final class Controller {

    private Controller() {
    }

    /**
     * Tells the launcher (module cli's ClusterLauncher) that this JVM finished on its own: without the file, a non-zero exit
     * means it was killed, which the script reports as such.
     */
    static void recordExitCode(int code) {
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

    /** Where a controller (smoke or campaign) runs: set by the launcher, with defaults for a direct run. */
    record ControllerContext(Path projectRoot, Path runRoot, String stamp) {
    }

    /** The body of a controller: true when every run passed. */
    interface ControllerBody {
        boolean run(ControllerContext context) throws Exception;
    }

    /**
     * Runs a controller and maps its outcome to the exit code: 0 passed, 1 failed or a run error (one line,
     * the stack trace in a file next to the runs), 2 bad input ({@link UsageException}). Never throws.
     */
    static int runController(ControllerBody body) {
        Path projectRoot = Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize();
        Path runRoot = Path.of(System.getProperty("hotpath.e2e.runRoot", projectRoot.resolve("e2e/target/e2e").toString()))
                .toAbsolutePath().normalize();
        String stamp = System.getProperty("hotpath.e2e.stamp",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        LauncherWatchdog.startIfLaunched();
        try {
            return body.run(new ControllerContext(projectRoot, runRoot, stamp)) ? 0 : 1;
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

    /**
     * Refuses to run brokers where they would be reachable from outside: with a non-loopback
     * interface up we are not in the private namespace, and only {@code --no-netns} allows that.
     */
    static void checkNetwork(boolean privateNetwork) throws SocketException {
        List<String> external = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .filter(Controller::isUpAndNotLoopback).map(NetworkInterface::getName).toList();
        if (external.isEmpty()) {
            Console.progress("private network namespace: only loopback is up, so the cluster is reachable from this run alone");
            return;
        }
        if (privateNetwork) {
            throw new UsageException("not in a private network namespace (interfaces " + external + " are up) and --no-netns"
                    + " not given: RocketMQ 4.9.0 brokers listen on all interfaces; run through bin/hotpath smoke");
        }
        Console.warn("--no-netns: RocketMQ 4.9.0 binds 0.0.0.0, so name server and brokers listen on ALL interfaces "
                + external + " of this host while the smoke runs");
    }

    private static boolean isUpAndNotLoopback(NetworkInterface nic) {
        try {
            return nic.isUp() && !nic.isLoopback();
        } catch (SocketException e) {
            return true;
        }
    }

    /** Writes the stack trace next to the runs and says where, keeping the terminal to one line. */
    static String stackTraceNote(Throwable e, Path runRoot, String stamp) {
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
