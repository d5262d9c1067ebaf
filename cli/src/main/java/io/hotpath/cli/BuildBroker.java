package io.hotpath.cli;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import io.hotpath.e2e.UsageException;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/hotpath build-broker}: a line's stock and patched broker distributions built the way a user builds their
 * own broker (module broker-dist: upstream's source release, the line's patches, upstream's own Maven build with
 * checkstyle, by default upstream's unit tests on both trees). Maven's output goes to
 * {@code broker-dist/target/build-broker-<release>.log}; what the builder did comes back as its typed record
 * ({@code broker-dist/target/build-outcome-<release>.json}), never from that log.
 */
final class BuildBroker {

    static final String USAGE = """
        usage: bin/hotpath build-broker [--line <release>|all] [--flavor stock|patched|both] [--upstream-tests full|ci|false]

          --line R             the release line (a folder patches/<release>/); default: all (%s)
          --flavor F           stock    upstream's source release built with upstream's build
                               patched  the same with patches/<release>/*.patch applied
                               both     (default)
          --upstream-tests M   full   (default) every upstream unit test of the line's upstream.tests.modules on both trees
                                      (on 2 cores ~10 min for 4.9.0, ~12 for 4.9.8, ~54 for 5.3.3)
                               ci     only the test classes the line lists for CI (upstream.tests.ci.*), as bin/hotpath test runs them:
                                      on patched, then on stock the ones that did not pass on patched
                               false  none; the same as --no-upstream-tests (the tests need --flavor both)

        Prints one line per distribution: <flavor> <directory>, then upstream's test table (stock vs patched,
        also in broker-dist/target/upstream/<release>/upstream-tests.{md,json}). Each distribution has
        bin/mqnamesrv, bin/mqbroker, bin/mqadmin, conf/, lib/ and BUILD-INFO.txt.
        """;

    /** The options: the lines resolved once, the flavor, and the upstream test mode as broker-dist takes it. */
    record Options(List<ReleaseLine> lines, String flavor, String upstreamTests, boolean help) {
    }

    /** What broker-dist's builder wrote of its run (io.hotpath.dist.BuildOutcome). */
    record Outcome(String release, Map<String, String> distributions, String testReport, String error) {
    }

    private BuildBroker() {
    }

    static Options parse(Path root, List<String> args) {
        Path patches = root.resolve("patches");
        String line = LineOption.ALL;
        String flavor = "both";
        String tests = "full";
        boolean help = false;
        Args in = new Args("build-broker", args);
        while (in.next()) {
            switch (in.option()) {
                case LineOption.LINE -> line = in.value(LineOption.expected(patches, true));
                case "--flavor" -> flavor = in.value("a value: stock, patched or both");
                case "--upstream-tests" -> tests = in.value("a value: full, ci or false");
                case "--no-upstream-tests" -> {
                    in.flag();
                    tests = "false";
                }
                case "-h", "--help" -> help = true;
                default -> throw in.unknown();
            }
        }
        if (!List.of("stock", "patched", "both").contains(flavor)) {
            throw new UsageException("unknown flavor '" + flavor + "' (expected stock, patched or both)");
        }
        if (!List.of("full", "ci", "false").contains(tests)) {
            throw new UsageException("unknown --upstream-tests '" + tests + "' (expected full, ci or false)");
        }
        List<ReleaseLine> lines = LineOption.resolveOrAll(line, patches);
        // upstream's tests compare the two trees: one flavor alone runs none
        return new Options(lines, flavor, flavor.equals("both") ? tests : "false", help);
    }

    static int run(Path root, List<String> args, MavenRun maven) {
        Options options = parse(root, args);
        if (options.help()) {
            System.out.print(USAGE.formatted(String.join(" ", LineOption.known(root.resolve("patches")))));
            return 0;
        }
        for (ReleaseLine line : options.lines()) {
            build(root, line, options, maven);
        }
        return 0;
    }

    private static void build(Path root, ReleaseLine line, Options options, MavenRun maven) {
        String release = line.release();
        Path target = root.resolve("broker-dist/target");
        Path log = target.resolve("build-broker-" + release + ".log");
        Path outcomeFile = target.resolve("build-outcome-" + release + ".json");
        delete(outcomeFile);
        String what = options.flavor().equals("both") ? "stock and patched " + release + " broker distributions"
            : options.flavor() + " " + release + " broker distribution";
        what += switch (options.upstreamTests()) {
            case "full" -> ", with upstream's unit tests on both trees";
            case "ci" -> ", with upstream's listed test classes (upstream.tests.ci.*) on patched, and on stock what did not pass there";
            default -> "";
        };
        System.err.println("hotpath: building the " + what + " (log: " + root.relativize(log) + ")");
        long start = System.nanoTime();
        int exit = maven.run(List.of("-pl", "broker-dist", "-am", "verify", "-Dhotpath.line=" + release,
            "-Dhotpath.flavor=" + options.flavor(), "-Dhotpath.upstream.tests=" + (options.upstreamTests().equals("full") ? "true"
                : options.upstreamTests()), "-DskipTests"), log, "building the " + release + " distributions");
        Outcome outcome = read(outcomeFile);
        if (exit != 0 || outcome == null || outcome.error() != null) {
            if (outcome != null && outcome.testReport() != null) {
                System.err.println(text(Path.of(outcome.testReport())));
            }
            String why = outcome == null ? "Maven failed (exit " + exit + ") before broker-dist's builder ran"
                : outcome.error() != null ? outcome.error() : "Maven failed (exit " + exit + ") after the builder finished";
            throw new CommandFailure(why + " (full log: " + log + ")");
        }
        if (outcome.distributions() == null || outcome.distributions().isEmpty()) {
            throw new CommandFailure("the build succeeded but broker-dist's builder assembled no distribution (see " + log + ")");
        }
        outcome.distributions().forEach((flavor, dir) -> System.out.println(flavor + " " + dir));
        if (outcome.testReport() != null) {
            System.out.println();
            System.out.println(text(Path.of(outcome.testReport())));
        }
        System.err.printf("hotpath: %s done in %d s%n", release, (System.nanoTime() - start) / 1_000_000_000L);
    }

    /** The builder's record, or null when this run wrote none (it failed before the builder ran). */
    static Outcome read(Path outcomeFile) {
        if (!Files.isRegularFile(outcomeFile)) {
            return null;
        }
        try {
            return new Gson().fromJson(Files.readString(outcomeFile, StandardCharsets.UTF_8), Outcome.class);
        } catch (IOException | JsonParseException e) {
            throw new CommandFailure("cannot read broker-dist's build record " + outcomeFile + ": " + e.getMessage());
        }
    }

    private static String text(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new CommandFailure("cannot remove the last build's record " + file + ": " + e.getMessage());
        }
    }
}
