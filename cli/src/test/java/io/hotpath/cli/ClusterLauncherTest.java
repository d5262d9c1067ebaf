package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the launcher promises whatever the controller does, shown with a stand-in controller (a shell script) in a JVM of
 * its own: a Ctrl-C stops the controller, which stops what it started, and the run ends 130; a SIGKILL of the launcher
 * ends the controller's stdin, so that it stops what it started too; a process of the run left
 * behind is killed and fails the run; a controller that ends without finishing fails it; a finished one gives its exit.
 */
class ClusterLauncherTest {

    private static final String STAMP = "20260101-000000";

    @TempDir
    Path root;

    private Path clientHome() throws Exception {
        return Files.createDirectories(root.resolve("e2e/target/e2e/" + STAMP + "-client"));
    }

    private Process harness(String script) throws Exception {
        return harness(script, ProcessBuilder.Redirect.PIPE);
    }

    private Process harness(String script, ProcessBuilder.Redirect stdin) throws Exception {
        clientHome();
        // SIGINT at its default, as in a terminal: a run started in the background of a non-interactive shell (nohup
        // ... &) inherits SIGINT ignored, which a JVM keeps ignored, so the Ctrl-C test would wait for nothing
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), LauncherHarness.class.getName(), root.toString(), STAMP,
            "bash", "-c", script));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectInput(stdin).start();
    }

    private static String finish(Process process) throws Exception {
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Running: a zombie (state Z in /proc/PID/stat, dead but not yet reaped by whoever adopted it) is not. */
    private static boolean alive(Path pidFile) throws Exception {
        Path stat = Path.of("/proc", Files.readString(pidFile).trim(), "stat");
        for (int i = 0; i < 40; i++) {
            if (!Files.exists(stat)) {
                return false;
            }
            String text = Files.readString(stat);
            if (text.substring(text.lastIndexOf(')') + 2).startsWith("Z")) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static void await(Path file) throws Exception {
        for (int i = 0; i < 200 && !Files.exists(file); i++) {
            Thread.sleep(50);
        }
        assertThat(file).exists();
    }

    @Test
    void aCtrlCStopsTheControllerWhichStopsWhatItStartedAndTheRunEnds130() throws Exception {
        Path pid = root.resolve("child.pid");
        // the stand-in controller: starts a "broker", and stops it on SIGTERM as the real one's shutdown hook does. The
        // trap comes first: set after the PID file, a SIGTERM in between killed the shell alone, and the orphaned
        // "broker" held the output pipe open, so the launcher did not end (CI rehearsal, 2026-11-27)
        Process launcher = harness("trap 'kill $!; exit 143' TERM; sleep 300 & echo $! > '" + pid + "'; wait");
        await(pid);
        assertThat(alive(pid)).isTrue();

        new ProcessBuilder("kill", "-INT", Long.toString(launcher.pid())).start().waitFor();

        String output = finish(launcher);
        assertThat(launcher.exitValue()).as(output).isEqualTo(130);
        assertThat(output).contains("hotpath: SIGINT received: stopping the cluster",
            "hotpath: error: interrupted by SIGINT; the cluster was stopped");
        assertThat(alive(pid)).isFalse();
    }

    @Test
    void aSigkillOfTheLauncherEndsTheControllersStdinSoItStopsWhatItStarted() throws Exception {
        Path pid = root.resolve("child.pid");
        Path controllerPid = root.resolve("controller.pid");
        // the stand-in controller does what the real one's watchdog does: reads stdin to its end, then stops its "broker"
        Path terminal = root.resolve("terminal");
        new ProcessBuilder("mkfifo", terminal.toString()).start().waitFor();
        // the launcher's own stdin as a terminal's or a CI runner's: open after the launcher is gone (a pipe from this JVM
        // would be closed when the launcher exits). Opened read-write here, so that the launcher's open does not block
        try (RandomAccessFile stdinHeldOpen = new RandomAccessFile(terminal.toFile(), "rw")) {
            sigkillOfTheLauncher(harness("echo $$ > '" + controllerPid + "'; sleep 300 & echo $! > '" + pid + "'; cat > /dev/null;"
                + " kill $!", ProcessBuilder.Redirect.from(terminal.toFile())), pid, controllerPid);
        }
    }

    private static void sigkillOfTheLauncher(Process launcher, Path pid, Path controllerPid) throws Exception {
        try {
            await(pid);
            await(controllerPid);
            assertThat(alive(pid)).isTrue();

            // SIGKILL from outside (Process.destroyForcibly would also close our end of the launcher's stdin): no handler
            // of the launcher's runs, and the launcher's own stdin stays open, so only the launcher's pipe can tell
            new ProcessBuilder("kill", "-KILL", Long.toString(launcher.pid())).start().waitFor();
            assertThat(launcher.waitFor(10, TimeUnit.SECONDS)).isTrue();

            assertThat(gone(pid)).as("the controller's child, a few seconds after the launcher's SIGKILL").isTrue();
            assertThat(gone(controllerPid)).as("the controller").isTrue();
        } finally {
            killIfRunning(pid);
            killIfRunning(controllerPid);
        }
    }

    /** Whether the process ends within 5 s. */
    private static boolean gone(Path pidFile) throws Exception {
        for (int i = 0; i < 5; i++) {
            if (!alive(pidFile)) {
                return true;
            }
        }
        return false;
    }

    private static void killIfRunning(Path pidFile) throws Exception {
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aProcessOfTheRunLeftBehindIsKilledAndFailsTheRun() throws Exception {
        Path pid = root.resolve("left.pid");
        Path exitFile = clientHome().resolve("exit-code");
        // a "broker" whose command line names the run's directory, left running by a controller that finished
        String marker = root.resolve("e2e/target/e2e/" + STAMP + "-stock/broker-a").toString();
        Process launcher = harness("(exec -a 'java " + marker + "' sleep 300) & echo $! > '" + pid + "'; echo 0 > '" + exitFile + "'");

        String output = finish(launcher);
        assertThat(launcher.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("processes of this run were still running after the controller exited and were killed");
        Thread.sleep(200);
        assertThat(alive(pid)).isFalse();
    }

    @Test
    void aBrokerOfAnIdleRunLeftBehindIsFoundByItsRunDirectory() throws Exception {
        Path pid = root.resolve("left.pid");
        String marker = root.resolve("e2e/target/e2e/idle-" + STAMP + "/r1-stock/broker-a").toString();
        Process left = new ProcessBuilder("bash", "-c", "(exec -a 'java " + marker + "' sleep 300) & echo $! > '" + pid + "'").start();
        left.waitFor();
        try {
            long leftPid = Long.parseLong(Files.readString(pid).trim());
            assertThat(new ClusterLauncher(root).leftovers(STAMP)).contains(leftPid);
            assertThat(new ClusterLauncher(root).leftovers("20250101-000000")).doesNotContain(leftPid);
        } finally {
            killIfRunning(pid);
        }
    }

    @Test
    void aControllerThatEndsWithoutFinishingFailsTheRunAndAFinishedOneGivesItsExit() throws Exception {
        Process killed = harness("kill -9 $$");
        String output = finish(killed);
        assertThat(killed.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("the controller JVM ended without finishing");

        Path exitFile = clientHome().resolve("exit-code");
        Process failed = harness("echo 1 > '" + exitFile + "'; exit 1");
        assertThat(finish(failed)).isEmpty();
        assertThat(failed.exitValue()).isEqualTo(1);

        Process passed = harness("echo 0 > '" + exitFile + "'; exit 0");
        assertThat(finish(passed)).isEmpty();
        assertThat(passed.exitValue()).isZero();
    }
}
