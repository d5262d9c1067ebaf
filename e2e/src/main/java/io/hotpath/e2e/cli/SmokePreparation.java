package io.hotpath.e2e.cli;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.e2e.spec.SmokeOptions;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code bin/hotpath smoke} (and {@code run}) do before the smoke enters its network namespace, where Maven has
 * no network: check the smoke's options (bad input fails here, before anything is built), resolve its release line,
 * and build that line's distributions the smoke runs when they are missing or stale ({@link Distribution#staleness}),
 * with broker-dist (upstream's build of the source release, the line's patches on the patched tree, no tests). Only
 * what the smoke runs is built: one line, the flavors it names. Exit 0 ready, 1 the build failed, 2 bad input.
 */
public final class SmokePreparation {

    private SmokePreparation() {
    }

    public static void main(String[] args) {
        System.exit(run(Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize(), args));
    }

    /** Checks the options and builds what is missing under {@code root}; returns the exit code. */
    static int run(Path root, String... args) {
        try {
            SmokeOptions options = SmokeOptions.parse(args);
            if (options.help()) {
                return 0;
            }
            ReleaseLine line = ReleaseLines.resolveNamedPartial(options.line(), root);
            List<String> flavors = stale(line, options.distributions(), root);
            if (flavors.isEmpty()) {
                return 0;
            }
            return build(root, line.release(), flavors.size() == 2 ? "both" : flavors.get(0)) ? 0 : 1;
        } catch (UsageException e) {
            Console.error(e.getMessage());
            return 2;
        }
    }

    /** The flavors among {@code specs} whose distribution must be built first (a directory is the user's own). */
    static List<String> stale(ReleaseLine line, List<String> specs, Path root) {
        List<String> flavors = new ArrayList<>();
        for (String spec : specs) {
            if (spec.equals("stock") || spec.equals("patched")) {
                String why = Distribution.staleness(line, spec, ReleaseLines.distributionHome(root, line.release(), spec));
                if (why != null) {
                    System.err.println("hotpath: the " + spec + " distribution of " + line.release() + " " + why + ": building it");
                    flavors.add(spec);
                }
            }
        }
        return flavors;
    }

    /**
     * broker-dist's build of the line, Maven's output on the console as it goes (the two trees' builds say every 30 s
     * that they still run). Tests are neither compiled nor run: the distributions are what the smoke needs, and the
     * upstream trees' test sources cost minutes per tree here (CI and build-broker compile and run them).
     */
    static boolean build(Path root, String release, String flavor) {
        List<String> command = List.of("mvn", "-B", "--no-transfer-progress", "-pl", "broker-dist", "verify", "-DskipTests",
            "-Dhotpath.line=" + release, "-Dhotpath.flavor=" + flavor, "-Dhotpath.upstream.tests=false",
            "-Dhotpath.upstream.compileTests=false");
        System.err.println("hotpath: building " + release + " " + flavor + " (" + String.join(" ", command)
            + "; a few minutes, ~10 on a fresh clone)");
        long start = System.nanoTime();
        Process process = null;
        try {
            process = new ProcessBuilder(command).directory(root.toFile()).inheritIO().start();
            Process started = process;
            // a Ctrl-C or kill of this JVM must not leave Maven building
            Thread stopper = new Thread(() -> stop(started), "stop-maven");
            Runtime.getRuntime().addShutdownHook(stopper);
            int exit = process.waitFor();
            Runtime.getRuntime().removeShutdownHook(stopper);
            if (exit != 0) {
                Console.error("building the " + release + " " + flavor + " distributions failed (Maven exit " + exit
                    + "; its output is above)");
                return false;
            }
            System.err.printf("hotpath: built the %s %s distributions in %.0f s%n", release, flavor, (System.nanoTime() - start) / 1e9);
            return true;
        } catch (IOException e) {
            Console.error("cannot run Maven (mvn on PATH): " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(process);
            Console.error("interrupted while building the " + release + " distributions");
            return false;
        }
    }

    private static void stop(Process process) {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
    }
}
