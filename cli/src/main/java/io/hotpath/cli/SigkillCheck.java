package io.hotpath.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * CI's check that a run dies with {@code bin/hotpath}: a patched {@code bin/hotpath smoke} is SIGKILLed a few seconds into
 * its load (as a CI timeout would end it: no handler of its own runs), and within {@link #TEARDOWN} nothing of the run
 * may be running: no controller, name server, broker or namespace process. A process of the run is one whose command line
 * names this checkout's run directory ({@code e2e/target/e2e/}), as the launcher's own leftover sweep finds them; those
 * found are killed by PID and fail the check.
 */
final class SigkillCheck {

    /** What the controller prints once the cluster takes writes ({@code LocalCluster.start}). */
    static final String CLUSTER_READY = "cluster ready";
    private static final Duration BOOT = Duration.ofMinutes(4);
    /** Into the load before the kill: the cluster is busy, the controller in the middle of the smoke. */
    private static final Duration INTO_LOAD = Duration.ofSeconds(3);
    /** The brokers' SIGTERM grace is 20 s; a 5.x broker stops in a few seconds, and inside the namespace all go at once. */
    static final Duration TEARDOWN = Duration.ofSeconds(30);

    private SigkillCheck() {
    }

    /** Runs the check from checkout {@code root}; throws {@link CommandFailure} with what was left. */
    static void run(Path root) {
        Path runRoot = root.resolve("e2e/target/e2e").toAbsolutePath().normalize();
        String mark = runRoot + "/";
        Set<Long> before = new HashSet<>(running(mark));
        // enough messages that the smoke is still sending when it is killed
        List<String> command = List.of(root.resolve("bin/hotpath").toString(), "smoke", "--dist", "patched", "-n", "100000",
            "--rate", "500");
        Process hotpath;
        try {
            hotpath = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new CommandFailure("cannot start bin/hotpath smoke: " + e.getMessage());
        }
        CountDownLatch ready = new CountDownLatch(1);
        Thread echo = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(hotpath.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    System.err.println("  | " + line);
                    if (line.contains(CLUSTER_READY)) {
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                // the output ends with the processes that write it
            }
        }, "hotpath-sigkill-check-output");
        echo.setDaemon(true);
        echo.start();
        List<Long> left;
        long killed = 0;
        try {
            if (!ready.await(BOOT.toSeconds(), TimeUnit.SECONDS)) {
                throw new CommandFailure("bin/hotpath smoke did not report '" + CLUSTER_READY + "' within " + BOOT.toMinutes()
                    + " min" + (hotpath.isAlive() ? "" : " (it exited with " + hotpath.exitValue() + ")"));
            }
            Thread.sleep(INTO_LOAD.toMillis());
            if (!hotpath.isAlive()) {
                throw new CommandFailure("bin/hotpath smoke ended (exit " + hotpath.exitValue() + ") before it could be killed");
            }
            System.err.println("hotpath: SIGKILL of bin/hotpath (pid " + hotpath.pid() + ") in the middle of its smoke");
            // bin/hotpath execs its JVM: this PID is the launcher's; kill(1), as a CI runner would, not through our handle
            new ProcessBuilder("kill", "-KILL", Long.toString(hotpath.pid())).inheritIO().start().waitFor();
            killed = System.nanoTime();
            left = awaitGone(mark, before, System.nanoTime() + TEARDOWN.toNanos());
        } catch (IOException e) {
            throw new CommandFailure("cannot run kill: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailure("interrupted");
        } finally {
            hotpath.destroyForcibly();
        }
        if (!left.isEmpty()) {
            List<String> described = left.stream().map(pid -> pid + " " + commandLine(pid)).toList();
            left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            throw new CommandFailure("processes of the smoke still ran " + TEARDOWN.toSeconds() + " s after bin/hotpath was"
                + " SIGKILLed, and were killed: " + described);
        }
        System.err.printf("hotpath: nothing of the killed smoke was left (all gone %.1f s after the kill)%n",
            (System.nanoTime() - killed) / 1e9);
    }

    /** The run's processes still running at {@code deadline} (System.nanoTime), or none as soon as they are all gone. */
    private static List<Long> awaitGone(String mark, Set<Long> before, long deadline) throws InterruptedException {
        while (true) {
            List<Long> left = new ArrayList<>(running(mark));
            left.removeAll(before);
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(500);
        }
    }

    /**
     * Running processes (not zombies: a dead process that its adopter has not reaped yet is not running) whose command
     * line contains {@code mark}, this JVM excepted.
     */
    static List<Long> running(String mark) {
        List<Long> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                long pid = Long.parseLong(proc.getFileName().toString());
                if (pid != self && commandLine(pid).contains(mark) && !zombie(proc)) {
                    found.add(pid);
                }
            }
        } catch (IOException e) {
            throw new CommandFailure("cannot list /proc: " + e.getMessage());
        }
        return found;
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                .replace('\0', ' ').strip();
        } catch (IOException gone) {
            return "";
        }
    }

    private static boolean zombie(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException gone) {
            return true;
        }
    }
}
