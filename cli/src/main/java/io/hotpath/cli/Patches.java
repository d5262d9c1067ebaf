package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.LineOption.Partial;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * {@code bin/hotpath patches regenerate [--line R]}: re-makes a release line's patches from our modules and upstream's
 * source release, so that a patch and the module code it carries can never drift (broker-dist's PatchFreshnessTest
 * fails on a stale patch). One generator ({@code io.hotpath.dist.PatchGenerator}) for every line, driven by data:
 * {@code carries.<patch>=<upstream module> <- <our module> : <files>} in the line's descriptor, the patch files
 * themselves (their message and their edits of upstream files are kept), and the source release from Maven Central,
 * the text every diff is made against. Writes nothing but the patch files and broker-dist/target/.
 */
final class Patches {

    static final String USAGE = """
        usage: bin/hotpath patches regenerate [--line <release>]   (default: every line under patches/)

        Each patch is re-made on top of the ones before it, with the carried files copied from our modules; its message
        (From/Date/Subject/Motivation/Modification/Result) is kept.
        """;

    private Patches() {
    }

    static int run(Path root, List<String> args, MavenRun maven) {
        if (args.isEmpty() || args.get(0).equals("-h") || args.get(0).equals("--help")) {
            if (args.isEmpty()) {
                System.err.print(USAGE);
                throw new UsageException("patches needs a subcommand: regenerate");
            }
            System.out.print(USAGE);
            return 0;
        }
        if (!args.get(0).equals("regenerate")) {
            throw new UsageException("unknown patches subcommand '" + args.get(0) + "' (regenerate)");
        }
        Path patches = root.resolve("patches");
        List<ReleaseLine> lines = new ArrayList<>();
        Args in = new Args("patches", args.subList(1, args.size()));
        while (in.next()) {
            switch (in.option()) {
                case LineOption.LINE -> lines.add(LineOption.resolve(in.value(LineOption.expected(patches, false)), patches,
                    Partial.ACCEPTED));
                case "-h", "--help" -> {
                    System.out.print(USAGE);
                    return 0;
                }
                default -> throw in.unknown();
            }
        }
        if (lines.isEmpty()) {
            lines.addAll(ReleaseLine.all(patches));
        }
        Path target = root.resolve("broker-dist/target");
        Path classes = compileGenerator(root, target.resolve("regenerate-classes"));
        for (ReleaseLine line : lines) {
            Path zip = target.resolve("regenerate/rocketmq-all-" + line.release() + "-source-release.zip");
            Path work = target.resolve("regenerate/" + line.release() + "-source");
            // upstream's tree as one archive: its source release, or the tree the line assembles from Central's pieces
            fetchSource(maven, classes, line, work, zip);
            int exit = java(List.of("-cp", classes.toString(), "io.hotpath.dist.PatchGenerator", LineOption.LINE, line.dir().toString(),
                "--source-release", zip.toString(), "--project-root", root.toString(), "--work",
                target.resolve("regenerate/" + line.release()).toString()));
            if (exit != 0) {
                throw new CommandFailure("regenerating the " + line.release() + " patches failed (exit " + exit + ")");
            }
        }
        return 0;
    }

    /** Fetches what the line's tree is made of with this command's Maven (into Maven's download cache), then makes the archive. */
    private static void fetchSource(MavenRun maven, Path classes, ReleaseLine line, Path work, Path zip) {
        String assembly = "io.hotpath.dist.SourceReleaseAssembly";
        if (java(List.of("-cp", classes.toString(), assembly, "fetch-pom", LineOption.LINE, line.dir().toString(), "--work",
            work.toString())) != 0) {
            throw new CommandFailure("could not write the fetch pom of the " + line.release() + " line");
        }
        int files = line.tree().artifacts().size();
        System.err.println("hotpath: fetching the " + line.release() + " line's upstream source from Maven Central (" + files
            + (files == 1 ? " file)" : " files)"));
        // the fetch pom pins the plugin's version (broker-dist's UpstreamMavenBuild.DEPENDENCY_PLUGIN)
        int exit = maven.run(List.of("-q", "-N", "-f", work.resolve("fetch/pom.xml").toString(), "dependency:copy"), null,
            "fetching the upstream source");
        if (exit != 0 || java(List.of("-cp", classes.toString(), assembly, "make", LineOption.LINE, line.dir().toString(), "--work",
            work.toString(), "--out", zip.toString())) != 0) {
            throw new CommandFailure("could not fetch or assemble the " + line.release() + " line's upstream source (see above)");
        }
    }

    /** The generator is plain JDK code: broker-dist's tools and the release-lines reader, compiled into target/. */
    private static Path compileGenerator(Path root, Path classes) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new CommandFailure("no Java compiler in this runtime (" + System.getProperty("java.home") + "): run with a JDK");
        }
        try {
            if (Files.exists(classes)) {
                try (Stream<Path> old = Files.walk(classes)) {
                    for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(classes);
            List<String> arguments = new ArrayList<>(List.of("-d", classes.toString()));
            for (String sources : List.of("broker-dist/src/main/java", "release-lines/src/main/java")) {
                try (Stream<Path> files = Files.walk(root.resolve(sources))) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(f -> arguments.add(f.toString()));
                }
            }
            if (javac.run(null, null, null, arguments.toArray(String[]::new)) != 0) {
                throw new CommandFailure("could not compile broker-dist's generator (javac's output is above)");
            }
            return classes;
        } catch (IOException e) {
            throw new CommandFailure("cannot prepare " + classes + ": " + e.getMessage());
        }
    }

    private static int java(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(ChildProcesses.java()));
        command.addAll(arguments);
        try {
            Process process = new ProcessBuilder(command).inheritIO().start();
            return process.waitFor();
        } catch (IOException e) {
            throw new CommandFailure("cannot start the generator: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailure("interrupted");
        }
    }
}
