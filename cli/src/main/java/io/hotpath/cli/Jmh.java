package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.LineOption.Partial;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/hotpath jmh}: the JMH benchmarks in one JMH invocation with {@code -prof gc}, through
 * {@code mvn -pl jmh verify -Djmh.*=...} (jmh/README.md names every property). What follows {@code --} goes to JMH
 * unchanged, through a file ({@code -Djmh.argsFile}: each argument followed by NUL, the one byte no argument can hold;
 * {@code io.hotpath.jmh.runner.ArgsFile} reads it), so an argument keeps its spaces and quotes.
 */
final class Jmh {

    static final String USAGE = """
        usage: bin/hotpath jmh [--include REGEX] [--forks N] [--quick] [--list] [-- JMH-OPTION...]
               bin/hotpath jmh --line RELEASE [--to-docs | --write-results FILE]
               bin/hotpath jmh -- -f 1 -wi 2 -i 3 'PropertiesParse.*'    (JMH's own options; bin/hotpath jmh -- -h lists them)

          --include REGEX  only benchmarks whose full name matches REGEX (JMH syntax), e.g. Parse or 'Encode.*hotpath'
          --forks N        forks per benchmark (default: AbstractBenchmark.FORKS; quote figures from 4 or more)
          --quick          development settings: 1 fork, 2 warmup + 3 measurement iterations of 1 s (noisy)
          --list           list the matching benchmarks and their parameters, run nothing
          --line RELEASE   the run of a release line: exactly the benchmarks its patches' Results quote
                           (jmh/src/main/resources/io/hotpath/jmh/results/RELEASE.quotes), 4 forks x (8 + 4) x 1 s,
                           into jmh/target/results/jmh-RELEASE-<date>.json (+ .md); ~13 min
          --to-docs        with --line: into docs/results/ instead, the files a Result may quote (commit them); on a
                           quiet machine only
          --write-results FILE  with --line: rewrite the Result of every patch of the line from FILE, a committed
                           docs/results/*.json (no run); rows with an error over 10 % or shorter settings are not quoted
          -- JMH-OPTION... go to JMH unchanged, after the runner's own options; one given here replaces the runner's
                           (-f, -wi, -w, -i, -r, benchmark regexps, -p NAME, -prof gc, -foe; -rf/-rff: then no summary)

        Maven builds the modules it measures from this tree first (.mvn/maven.config: --also-make).
        Longer or other settings: mvn -pl jmh verify -Djmh....
        """;

    private Jmh() {
    }

    /** The Maven arguments of a run and what follows {@code --} (null when no {@code --} was given). */
    record Plan(List<String> maven, List<String> passThrough, boolean help) {
    }

    static Plan plan(Path root, List<String> args) {
        List<String> maven = new ArrayList<>(List.of("-pl", "jmh", "verify"));
        boolean quick = false;
        boolean forks = false;
        boolean writes = false;
        boolean toDocs = false;
        boolean line = false;
        int dashes = args.indexOf("--");
        List<String> passThrough = dashes < 0 ? null : List.copyOf(args.subList(dashes + 1, args.size()));
        Args in = new Args("jmh", dashes < 0 ? args : args.subList(0, dashes));
        while (in.next()) {
            switch (in.option()) {
                case "--include" -> maven.add("-Djmh.include=" + nonEmpty(in.value("a regular expression"), "--include needs a regular expression"));
                case "--forks" -> {
                    String n = in.value("a number");
                    if (!n.matches("[1-9][0-9]*")) {
                        throw new UsageException("--forks must be a positive whole number, got '" + n + "'");
                    }
                    maven.add("-Djmh.forks=" + n);
                    forks = true;
                }
                case "--quick" -> {
                    in.flag();
                    maven.addAll(List.of("-Djmh.warmupIterations=2", "-Djmh.iterations=3", "-Djmh.warmupTime=1s", "-Djmh.time=1s"));
                    quick = true;
                }
                case "--list" -> {
                    in.flag();
                    maven.add("-Djmh.list=true");
                }
                case LineOption.LINE -> {
                    line = true;
                    Path patches = root.resolve("patches");
                    maven.add("-Djmh.line=" + LineOption.resolve(in.value(LineOption.expected(patches, false)), patches,
                        Partial.ACCEPTED).release());
                }
                case "--to-docs" -> {
                    in.flag();
                    maven.add("-Djmh.resultDir=" + root.resolve("docs/results"));
                    toDocs = true;
                }
                case "--write-results" -> {
                    Path file = Path.of(nonEmpty(in.value("a JMH result file (docs/results/jmh-<line>-<date>.json)"),
                        "--write-results needs a JMH result file (docs/results/jmh-<line>-<date>.json)"));
                    if (!Files.isRegularFile(file)) {
                        throw new UsageException("no result file '" + file + "'");
                    }
                    maven.addAll(List.of("-Djmh.writeResults=" + file.toAbsolutePath().normalize(), "-DskipTests"));
                    writes = true;
                }
                case "-h", "--help" -> {
                    return new Plan(List.of(), null, true);
                }
                default -> throw in.unknown();
            }
        }
        // --forks wins over the quick default, in either order
        if (quick && !forks) {
            maven.add("-Djmh.forks=1");
        }
        if (toDocs && (!line || writes)) {
            throw new UsageException("--to-docs goes with --line RELEASE and no --write-results: where a line's run writes");
        }
        if (writes && passThrough != null) {
            throw new UsageException("--write-results runs no benchmark: nothing to pass to JMH after --");
        }
        return new Plan(maven, passThrough, false);
    }

    static int run(Path root, List<String> args, MavenRun mavenRun, String commandLine) {
        Plan plan = plan(root, args);
        if (plan.help()) {
            System.out.print(USAGE);
            return 0;
        }
        List<String> maven = new ArrayList<>(plan.maven());
        Path argsFile = null;
        try {
            if (plan.passThrough() != null) {
                argsFile = writeArgsFile(root.resolve("jmh/target"), plan.passThrough());
                maven.add("-Djmh.argsFile=" + argsFile);
            }
            System.err.println("hotpath: mvn -B " + String.join(" ", plan.maven()));
            // the summary's header shows the command as typed (io.hotpath.jmh.runner.BenchmarkRunner reads it)
            if (mavenRun.run(maven, null, "running the benchmarks", Map.of("HOTPATH_JMH_COMMAND", commandLine)) != 0) {
                throw new CommandFailure("benchmark run failed (see the output above)");
            }
            return 0;
        } finally {
            if (argsFile != null) {
                try {
                    Files.deleteIfExists(argsFile);
                } catch (IOException e) {
                    System.err.println("hotpath: warning: cannot remove " + argsFile + ": " + e.getMessage());
                }
            }
        }
    }

    /** Each argument followed by NUL, in a file of its own per run under jmh/target/. */
    static Path writeArgsFile(Path dir, List<String> arguments) {
        try {
            Files.createDirectories(dir);
            Path file = Files.createTempFile(dir, "jmh-args.", "");
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (String argument : arguments) {
                bytes.writeBytes(argument.getBytes(StandardCharsets.UTF_8));
                bytes.write(0);
            }
            Files.write(file, bytes.toByteArray());
            return file;
        } catch (IOException e) {
            throw new CommandFailure("cannot write the JMH arguments file under " + dir + ": " + e.getMessage());
        }
    }

    private static String nonEmpty(String value, String error) {
        if (value.isEmpty()) {
            throw new UsageException(error);
        }
        return value;
    }
}
