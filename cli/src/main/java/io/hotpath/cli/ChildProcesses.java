package io.hotpath.cli;

import java.nio.file.Path;

/** What every JVM this command line starts shares: the JDK it runs on, and waiting out a child that is stopping. */
final class ChildProcesses {

    private ChildProcesses() {
    }

    /** The {@code java} of the JDK this command line runs on: children run on the JDK that built and started us. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The child's exit code, waiting through interrupts: a signal handler may be stopping it (the cluster controller, the
     * profiling JVM), and this JVM must not end before it has.
     */
    static int waitFor(Process process) {
        while (true) {
            try {
                return process.waitFor();
            } catch (InterruptedException e) {
                // keep waiting: the child is stopping what it started
            }
        }
    }
}
