package io.hotpath.e2e.cli;

import io.hotpath.e2e.idle.IdleOptions;
import io.hotpath.e2e.idle.IdleRun;

/**
 * {@code bin/hotpath idle}: parses the options, checks the network namespace and runs {@link IdleRun} into
 * {@code idle-<timestamp>/} under the run root. Runs inside the launcher's private namespace (module cli's
 * ClusterLauncher), like the campaign (same system properties, same exit codes: {@link Controller}).
 */
public final class IdleCommand {

    private IdleCommand() {
    }

    public static void main(String[] args) {
        int code = run(args);
        Controller.recordExitCode(code);
        System.exit(code);
    }

    static int run(String... args) {
        return Controller.runController(context -> {
            IdleOptions options = IdleOptions.parse(args);
            if (options.help()) {
                System.out.println(IdleOptions.USAGE);
                return true;
            }
            Controller.checkNetwork(options.privateNetwork());
            return IdleRun.run(options, context.projectRoot(), context.runRoot().resolve("idle-" + context.stamp()),
                    "bin/hotpath idle" + (args.length == 0 ? "" : " " + String.join(" ", args)));
        });
    }
}
