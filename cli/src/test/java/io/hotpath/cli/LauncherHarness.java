package io.hotpath.cli;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A JVM of its own for ClusterLauncherTest (signals go to a whole JVM): {@code <root> <stamp> <command...>} runs
 * {@link ClusterLauncher#launch} with a stand-in controller, without a namespace, and exits with its code.
 */
public final class LauncherHarness {

    private LauncherHarness() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        Path clientHome = root.resolve("e2e/target/e2e/" + args[1] + "-client");
        int exit;
        try {
            exit = new ClusterLauncher(root).launch(Arrays.asList(args).subList(2, args.length), false, clientHome, args[1]);
        } catch (CommandFailure e) {
            System.err.println("hotpath: error: " + e.getMessage());
            exit = 1;
        }
        System.exit(exit);
    }
}
