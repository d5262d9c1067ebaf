package io.hotpath.jmh.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn -pl jmh verify}, the command users type, works on a fresh clone and measures this tree's sources: Maven
 * builds the io.hotpath modules the benchmarks need in the same reactor ({@code .mvn/maven.config}: --also-make) and
 * skips their tests, instead of resolving them from a local repository, where they are missing on a fresh clone and
 * stale after an old {@code mvn install}.
 *
 * <p>Rehearsed on a copy of this tree (no target/, no .git) under {@code jmh/target/fresh-clone/} with a private local
 * repository that has no io/hotpath: it reads the user's repository as a {@code file://} remote with snapshots
 * disabled (like broker-dist's UpstreamMavenBuild), so third-party artifacts are copied, not downloaded, and an
 * installed io.hotpath SNAPSHOT can never be seen. {@code -Djmh.list=true} lists the benchmarks instead of running them;
 * jmh's own unit tests run in the nested build with the command's {@code -Djmh.include} in their JVM (this test skips
 * itself there: the nested build selects jmh alone).
 *
 * <p>Control: the same command on the same copy without {@code .mvn/maven.config} (the old behaviour) fails with
 * Maven's "Could not resolve dependencies for project io.hotpath:hotpath-jmh", which also shows that the private
 * repository really has no io.hotpath artifact.
 *
 * <p>A nested build of ~8 modules takes minutes on a 2-core machine, so this runs in a root build ({@code mvn verify},
 * {@code mvn install}: CI's {@code bin/hotpath test}) and with {@code -Dhotpath.fresh-clone.check=true}, never in front
 * of a benchmark run ({@code mvn -pl jmh verify}).
 */
class FreshCloneBuildTest {

    /**
     * jmh/README.md's selection of one benchmark, listed instead of run; jmh's own unit tests run in the nested build,
     * with the selection in their JVM as surefire passes a command line's -D options (they must not depend on it).
     */
    private static final String[] COMMAND = {"-pl", "jmh", "verify", "-Djmh.include=PropertiesEncodeBenchmark",
        "-Djmh.list=true"};

    private static Path projectRoot;
    private static Path work;
    private static Path clone;
    private static Path repository;
    private static Path settings;

    @BeforeAll
    static void copyTheTreeAsAFreshClone() throws IOException {
        // "-pl []" in a root build
        String selected = System.getProperty("hotpath.selected.projects", "");
        assumeTrue("true".equals(System.getProperty("hotpath.fresh-clone.check")) || selected.endsWith("[]"),
            "runs in a root build or with -Dhotpath.fresh-clone.check=true (selected: " + selected + ")");
        projectRoot = Paths.get(System.getProperty("hotpath.project.root", "..")).toAbsolutePath().normalize();
        work = projectRoot.resolve("jmh/target/fresh-clone");
        clone = work.resolve("tree");
        repository = work.resolve("m2");
        settings = work.resolve("settings.xml");
        deleteRecursively(clone);
        // the download cache is kept between runs; our artifacts never are
        deleteRecursively(repository.resolve("io/hotpath"));
        Files.createDirectories(repository);
        copyWithoutBuildOutput(projectRoot, clone);
        Path userRepository = Paths.get(System.getProperty("hotpath.user.repository",
            System.getProperty("user.home") + "/.m2/repository")).toAbsolutePath().normalize();
        String repo = "<id>user-local-repository</id><url>" + userRepository.toUri() + "</url>"
            + "<releases><enabled>true</enabled><checksumPolicy>ignore</checksumPolicy></releases>"
            + "<snapshots><enabled>false</enabled></snapshots>";
        Files.writeString(settings, "<settings>\n"
            + "  <!-- written by FreshCloneBuildTest: the user's repository is read as a remote, releases only -->\n"
            + "  <profiles><profile><id>read-user-repository</id>\n"
            + "    <repositories><repository>" + repo + "</repository></repositories>\n"
            + "    <pluginRepositories><pluginRepository>" + repo + "</pluginRepository></pluginRepositories>\n"
            + "  </profile></profiles>\n"
            + "  <activeProfiles><activeProfile>read-user-repository</activeProfile></activeProfiles>\n"
            + "</settings>\n", StandardCharsets.UTF_8);
    }

    @Test
    void withoutAlsoMakeTheJmhModuleCannotResolveItsSiblings() throws Exception {
        Path config = clone.resolve(".mvn/maven.config");
        String kept = Files.readString(config, StandardCharsets.UTF_8);
        Files.delete(config);
        try {
            Run run = mvn("control-without-maven-config");
            assertThat(run.exit).as("exit of the old behaviour; log: %s", run.log).isNotZero();
            assertThat(run.output).as("log: %s", run.log)
                .contains("Could not resolve dependencies for project io.hotpath:hotpath-jmh");
        } finally {
            Files.writeString(config, kept, StandardCharsets.UTF_8);
        }
    }

    @Test
    void theCommandUsersTypeBuildsTheBenchmarksFromThisTree() throws Exception {
        Run run = mvn("pl-jmh-verify");
        assertThat(run.exit).as("exit of mvn %s; log: %s", String.join(" ", COMMAND), run.log).isZero();
        assertThat(run.output).as("log: %s", run.log)
            // the runner listed what it would run (JMH's list, with the parameters)
            .contains("io.hotpath.jmh.codec.PropertiesEncodeBenchmark.hotpath")
            // jmh's unit tests ran, with the caller's -Djmh.include in their JVM
            .contains("in io.hotpath.jmh.runner.LineSelectionTest", "in io.hotpath.jmh.runner.DocumentedCommandsTest")
            // the siblings were built from the copied sources, their tests skipped (bsh-property in the root pom)
            .contains("tests skipped: hotpath-codec is built for [jmh]")
            .contains("Building hotpath-codec");
        assertThat(Files.readString(clone.resolve("jmh/target/runtime-classpath.txt"), StandardCharsets.UTF_8))
            .as("the benchmarks' class path names this tree's jars")
            .contains(clone.resolve("hotpath-codec/target").toString())
            .doesNotContain("/io/hotpath/");
        assertThat(clone.resolve("jmh/target/benchmarks.jar")).as("JMH's one runnable jar").isRegularFile();
        // verify installs nothing
        assertThat(repository.resolve("io/hotpath")).doesNotExist();
    }

    private static Run mvn(String name) throws IOException, InterruptedException {
        Path log = work.resolve(name + ".log");
        String maven = System.getProperty("hotpath.maven.home", "");
        List<String> command = new ArrayList<>(List.of(maven.isEmpty() ? "mvn" : maven + "/bin/mvn", "-B",
            "-s", settings.toString(), "-Dmaven.repo.local=" + repository));
        command.addAll(List.of(COMMAND));
        ProcessBuilder builder = new ProcessBuilder(command).directory(clone.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        // the nested Maven must not inherit the outer build's options (they name our tree and repository)
        for (String inherited : List.of("MAVEN_OPTS", "MAVEN_ARGS", "MAVEN_CONFIG", "MAVEN_CMD_LINE_ARGS",
            "MAVEN_PROJECTBASEDIR", "MAVEN_BASEDIR")) {
            env.remove(inherited);
        }
        Process process = builder.start();
        try {
            process.getOutputStream().close();
            if (!process.waitFor(20, TimeUnit.MINUTES)) {
                throw new AssertionError("mvn " + String.join(" ", COMMAND) + " did not finish in 20 min; log: " + log);
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), log);
    }

    private record Run(int exit, String output, Path log) {
    }

    /** What a clone has: every file but build output (target/) and git's own. */
    private static void copyWithoutBuildOutput(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                if (!dir.equals(from) && (name.equals("target") || name.equals(".git"))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!file.getFileName().toString().equals(".git")) { // a worktree's .git is a file
                    Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
