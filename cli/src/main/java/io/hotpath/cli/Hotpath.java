package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.ReleaseLineException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bin/hotpath}'s commands; bin/hotpath builds this module when it is stale and runs it. Every error is one
 * {@code hotpath: error:} line; exit 2 for bad input only, 1 for a run that failed.
 */
public final class Hotpath {

    static final String USAGE = """
        usage: bin/hotpath <command> [options]

          run            build the newest line's (or --line's) stock and patched brokers if needed, run the 2m-2s smoke on both
          test           the test suite CI runs: unit/differential tests, patched-class tests, patched 2m-2s smoke
          setup          mvn verify without tests; builds every line's stock and patched broker distributions
          build-broker   a line's stock and patched brokers with upstream's own build and tests (bin/hotpath build-broker --help)
          smoke          start a 2m-2s cluster on loopback, send, consume back, verify (bin/hotpath smoke --help)
          campaign       stock vs patched A/B rounds on the 2m-2s cluster: report, JSON, charts; --lines 4.9.0,4.9.8 for every line's
                         stock and patched in one rotation; --ci for the short fault + upgrade/rollback check
          idle           what a 2m-2s cluster costs with no load: CPU ms/s and wake-ups/s per role and thread group, stock vs
                         patched(+tuned) in alternating rounds (bin/hotpath idle --help)
          jmh            run the JMH benchmarks and write jmh/target/ results (bin/hotpath jmh --help)
          profile        async-profiler flame graphs of benchmarks and live brokers (bin/hotpath profile --help)
          patches        patches regenerate [--line R]: re-make a line's patches from our modules and upstream's source release
          prepare        prepare smoke|campaign|idle [options]: check a run's options, build the distributions it needs, run nothing
          verdicts       committed campaign files judged again by today's verdict rules (bin/hotpath verdicts --help)
          cost           each arm's master CPU as fixed ms/s + us per message, from idle and campaign files (cost --help)
          lateness       timer, delay-level and plain delivery lateness of each arm vs its baseline, pooled over campaign
                         files (lateness --help)

        Every command prints a one-line error and exits non-zero on bad input (2) or a failed run (1).
        """;

    private Hotpath() {
    }

    public static void main(String[] args) {
        Path root = Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize();
        System.exit(run(root, new MavenRun(root), args));
    }

    static int run(Path root, MavenRun maven, String... args) {
        try {
            if (args.length == 0) {
                System.err.print(USAGE);
                throw new UsageException("missing command");
            }
            List<String> rest = Arrays.asList(args).subList(1, args.length);
            return switch (args[0]) {
                case "build-broker" -> BuildBroker.run(root, rest, maven);
                case "setup" -> Setup.run(root, rest, maven);
                case "prepare" -> ClusterPreparation.run(root, rest, maven);
                case "smoke" -> new ClusterLauncher(root).run(ClusterLauncher.SMOKE, rest, maven);
                case "run" -> run(root, rest, maven);
                case "campaign" -> new ClusterLauncher(root).run(ClusterLauncher.CAMPAIGN, rest, maven);
                case "idle" -> new ClusterLauncher(root).run(ClusterLauncher.IDLE, rest, maven);
                case "test" -> CiTests.run(root, rest, maven);
                case "jmh" -> Jmh.run(root, rest, maven, typed(args));
                case "profile" -> Profile.run(root, rest);
                case "patches" -> Patches.run(root, rest, maven);
                case "verdicts" -> Verdicts.run(root, rest, typed(args));
                case "cost" -> Cost.run(root, rest, typed(args));
                case "lateness" -> Lateness.run(root, rest, typed(args));
                case "-h", "--help", "help" -> {
                    System.out.print(USAGE);
                    yield 0;
                }
                default -> {
                    System.err.print(USAGE);
                    throw new UsageException("unknown command '" + args[0] + "'");
                }
            };
        } catch (UsageException | ReleaseLineException e) {
            // bad input, or a descriptor the checkout cannot be run with
            System.err.println("hotpath: error: " + e.getMessage());
            return 2;
        } catch (CommandFailure e) {
            System.err.println("hotpath: error: " + e.getMessage());
            return 1;
        }
    }

    /** The command as typed, each argument shell-quoted where it needs to be (the JMH summary's header shows it). */
    static String typed(String... args) {
        StringBuilder line = new StringBuilder("bin/hotpath");
        for (String arg : args) {
            line.append(' ').append(arg.matches("[A-Za-z0-9_./=:,+@%^-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return line.toString();
    }

    /**
     * {@code bin/hotpath run}: the newcomer's main job. The smoke of the newest line (or {@code --line}) on its stock
     * and patched brokers side by side, each built first when missing or stale; the options are the smoke's, checked
     * before any build.
     */
    private static int run(Path root, List<String> args, MavenRun maven) {
        if (args.contains("-h") || args.contains("--help")) {
            System.out.println("usage: bin/hotpath run [smoke options, see bin/hotpath smoke --help]");
            return 0;
        }
        List<String> smoke = new ArrayList<>(List.of("--dist", "both"));
        smoke.addAll(args);
        return new ClusterLauncher(root).run(ClusterLauncher.SMOKE, smoke, maven);
    }
}
