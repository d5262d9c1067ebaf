package io.hotpath.e2e.cli;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.check.PersistedPropertiesCheck;
import io.hotpath.e2e.load.ClientLogging;
import io.hotpath.e2e.node.ClusterNetwork;
import io.hotpath.e2e.run.Round;
import io.hotpath.e2e.run.RoundResult;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.e2e.spec.SmokeOptions;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/hotpath smoke}: for each requested distribution, start a fresh 2m-2s cluster
 * ({@code LocalCluster}), send N messages ({@code LoadProducer}), read everything back
 * ({@code Verifier}), stop the cluster, print the result; with several distributions also a
 * side-by-side table. Exit 0 when every run passed, 1 on a lost or corrupt message, a send that failed
 * for a reason its {@code --fault} does not expect ({@code FailedSends}) or a run error, 2 on bad input.
 *
 * <p>RocketMQ 4.9.0 binds its servers to 0.0.0.0, so this refuses to start brokers unless it
 * runs in a private network namespace with only loopback (module cli's ClusterLauncher arranges that) or
 * {@code --no-netns} says the operator accepts brokers listening on every interface.
 *
 * <p>Set by the launcher: {@code hotpath.root} (project root), {@code hotpath.e2e.runRoot}
 * (where run directories go), {@code hotpath.e2e.stamp} (run timestamp), {@code hotpath.e2e.exitFile}.
 * Run directly, the JVM needs the root pom's {@code rocketmq.jdk17.flags} (rocketmq-client 4.9.0's
 * Netty fails to initialise on JDK 17 without them).
 */
public final class ClusterSmoke {

    private final SmokeOptions options;
    private final Path projectRoot;
    private final Path runRoot;
    private final String stamp;

    ClusterSmoke(SmokeOptions options, Path projectRoot, Path runRoot, String stamp) {
        this.options = options;
        this.projectRoot = projectRoot;
        this.runRoot = runRoot;
        this.stamp = stamp;
    }

    public static void main(String[] args) {
        int code = run(args);
        Controller.recordExitCode(code);
        System.exit(code);
    }

    /** Runs the smoke and returns the exit code; never throws. */
    public static int run(String... args) {
        return Controller.runController(context -> {
            SmokeOptions options = SmokeOptions.parse(args);
            if (options.help()) {
                System.out.println(SmokeOptions.USAGE);
                return true;
            }
            ClientLogging.logTo(context.runRoot().resolve(context.stamp() + "-client").resolve("logs"));
            return new ClusterSmoke(options, context.projectRoot(), context.runRoot(), context.stamp()).runAll();
        });
    }

    private boolean runAll() throws IOException, InterruptedException {
        // resolve and check everything before starting anything
        ReleaseLine line = options.releaseLine(projectRoot);
        if (!line.complete()) {
            Console.warn("release line " + line.release() + " is partial (complete=false in its " + ReleaseLine.DESCRIPTOR
                    + "): its distributions carry only"
                    + " the patches the line has so far, and the checks below judge those");
        }
        // --tuned: the line's overlay on every distribution (a usage error when the line ships none)
        TunedConfig tuning = options.tuned() ? ReleaseLines.usage(() -> TunedConfig.of(line)) : null;
        List<Distribution> distributions = options.distributions().stream()
                .map(spec -> Distribution.resolve(spec, line, projectRoot))
                .map(distribution -> tuning == null ? distribution : distribution.tuned(tuning)).toList();
        ClusterLayout layout = new ClusterLayout(options.basePort(), options.net());
        layout.checkPortsFree();
        Controller.checkNetwork(options.privateNetwork());

        List<RoundResult> results = new ArrayList<>();
        // one network for every distribution of this smoke: on --net realistic they run on the same links
        try (ClusterNetwork network = ClusterNetwork.open(layout, runRoot.resolve(stamp + "-network"))) {
            for (Distribution distribution : distributions) {
                RoundResult result = runOne(distribution, network);
                results.add(result);
                System.out.print(result.summary());
            }
        }
        if (results.size() > 1) {
            System.out.println();
            System.out.print(RoundResult.sideBySide(results));
            System.out.println("(one short run per distribution on a cold JIT: TPS and RT differences of less than ~25 % are"
                    + " boot-to-boot noise here, not evidence)");
        }
        boolean passed = results.stream().allMatch(RoundResult::passed);
        List<String> trimProblems = PersistedPropertiesCheck.check(results.stream()
                .map(r -> new PersistedPropertiesCheck.RecordedRun(r.flavor(), r.distribution(), r.runDir())).toList());
        if (!trimProblems.isEmpty()) {
            Console.error("CommitLog check of patch " + PersistedPropertiesCheck.PATCH + " failed: " + trimProblems);
            passed = false;
        }
        if (!results.stream().allMatch(RoundResult::passed)) {
            Console.error("smoke failed: " + results.stream().filter(r -> !r.passed())
                    .map(r -> r.flavor() + " " + String.join("; ", r.failureReasons()) + " (" + r.runDir() + ")").toList());
        }
        return passed;
    }

    private RoundResult runOne(Distribution distribution, ClusterNetwork network) throws IOException, InterruptedException {
        // one run id for every distribution of this smoke: --dist both then sends the same corpus to each
        return Round.run(runRoot.resolve(stamp + "-" + distribution.flavor()), stamp, distribution, network, options.round(), options.warmup());
    }
}
