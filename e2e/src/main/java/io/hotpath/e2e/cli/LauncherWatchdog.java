package io.hotpath.e2e.cli;

import io.hotpath.e2e.Console;
import java.io.IOException;
import java.io.InputStream;

/**
 * Ends the controller when the launcher that started it (module cli's ClusterLauncher, the JVM of {@code bin/hotpath}) is
 * gone, e.g. SIGKILLed by a CI timeout: the controller runs in a session of its own, so no signal of the launcher's reaches
 * it. The launcher holds the only write end of the controller's stdin; the kernel closes it with the launcher however that
 * ends, and the read here sees end of file. A pipe, not the launcher's PID: inside the private PID namespace the launcher
 * has no PID, and a PID polled can be reused. The exit runs the shutdown hooks, which stop the cluster by PID as on
 * Ctrl-C.
 */
final class LauncherWatchdog {

    /** Set by the launcher when the controller's stdin is its pipe; unset (a direct run) nothing is watched. */
    static final String PROPERTY = "hotpath.e2e.launcherPipe";
    static final String STDIN = "stdin";
    /** The controller's exit code when its launcher is gone; nobody reads it but a test. */
    static final int LAUNCHER_GONE = 3;

    private LauncherWatchdog() {
    }

    /** Watches stdin when the launcher said it is its pipe. */
    static void startIfLaunched() {
        if (STDIN.equals(System.getProperty(PROPERTY))) {
            watch(System.in, () -> {
                Console.warn("the launcher (bin/hotpath) is gone: stopping the cluster");
                System.exit(LAUNCHER_GONE);
            });
        }
    }

    /** A daemon thread that reads {@code pipe} to its end (the launcher writes nothing), then runs {@code gone}. */
    static Thread watch(InputStream pipe, Runnable gone) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[256];
            try {
                while (pipe.read(buffer) != -1) {
                    // nothing is sent on the pipe; its end is the message
                }
            } catch (IOException e) {
                // a pipe that cannot be read any more says the same: the launcher is gone
            }
            gone.run();
        }, "hotpath-launcher-watchdog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
