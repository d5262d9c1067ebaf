package io.hotpath.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs upstream's own Maven build in an unpacked upstream tree: its poms, its plugins, its
 * checkstyle (bound to verify, so part of {@code install}), its unit tests.
 *
 * <p>Nothing reaches {@code ~/.m2}: the build installs into a private local repository under
 * {@code target/}. Installing a patched tree into the user's repository would put patched jars under
 * the stock coordinates, and every differential test that resolves the stock jar afterwards would
 * compare our code with itself. The user's repository is only read, as a {@code file://} repository
 * listed before Maven Central, so what the user already downloaded is not downloaded again.
 *
 * <p>On JDK 9+ the test JVMs (and the build) get the {@code --add-opens} that RocketMQ 4.x and its
 * Netty need through {@code JDK_JAVA_OPTIONS}: the flags a JDK 8 build does not need, without
 * changing a line of upstream's build.
 */
public final class UpstreamMavenBuild {

    /**
     * The opens RocketMQ 4.9.x and 5.x, their Netty and their tests' mocks reach for on JDK 17. The last two are 5.3.3's
     * broker tests': {@code BrokerOuterAPITest} loads an old {@code javax.xml.parsers.FactoryFinder} from the class path
     * that calls into {@code jdk.xml.internal}, and reads a {@code ReentrantLock}'s owner reflectively.
     */
    static final List<String> JDK17_OPENS = List.of(
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.net=ALL-UNNAMED",
        "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.xml/jdk.xml.internal=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    /** How often a running step says it still runs. */
    private static final long PROGRESS_SECONDS = 30;

    /** The dependency plugin the servers' classpath is copied with; the version our own build pins (root pom). */
    static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1";

    private final Path mavenHome;
    private final List<String> lineProperties;
    private final Path privateRepository;
    private final Path settings;
    private final Path logs;

    /**
     * @param mavenHome         the Maven that runs us ({@code ${maven.home}}), so the nested build uses the same
     * @param lineProperties    the line's {@code upstream.build.property.*}: {@code -D} properties for every run
     * @param privateRepository the local repository the upstream build installs into (under target/)
     * @param userRepository    the caller's local repository, read-only, tried before Maven Central
     * @param logs              where each run's console output goes
     */
    public UpstreamMavenBuild(Path mavenHome, Map<String, String> lineProperties, Path privateRepository, Path userRepository,
                              Path logs) {
        this.mavenHome = mavenHome;
        this.lineProperties = lineProperties.entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
        this.privateRepository = privateRepository;
        this.logs = logs;
        this.settings = privateRepository.resolveSibling(privateRepository.getFileName() + "-settings.xml");
        if (privateRepository.normalize().equals(userRepository.normalize())) {
            throw new DistBuildException("the upstream build's private repository must not be " + userRepository);
        }
        writeSettings(userRepository);
    }

    private void writeSettings(Path userRepository) {
        String url = userRepository.toAbsolutePath().normalize().toUri().toString();
        String repo = "<id>user-local-repository</id><url>" + url + "</url>"
            + "<releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled></snapshots>";
        String xml = "<settings>\n"
            + "  <!-- written by io.hotpath.dist.UpstreamMavenBuild: the user's repository is read, never written -->\n"
            + "  <profiles><profile><id>read-user-repository</id>\n"
            + "    <repositories><repository>" + repo + "</repository></repositories>\n"
            + "    <pluginRepositories><pluginRepository>" + repo + "</pluginRepository></pluginRepositories>\n"
            + "  </profile></profiles>\n"
            + "  <activeProfiles><activeProfile>read-user-repository</activeProfile></activeProfiles>\n"
            + "</settings>\n";
        try {
            Files.createDirectories(privateRepository);
            Files.writeString(settings, xml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot write " + settings + ": " + e.getMessage());
        }
    }

    /**
     * {@code mvn install} of {@code modules} and what they depend on: compiles with upstream's compiler settings,
     * packages, runs checkstyle, installs into the private repository. With {@code skipTestCompile} no test source is
     * compiled ({@code -Dmaven.test.skip=true}): when {@link #test} follows, it compiles those of the modules it tests
     * (no test of the other ~10 modules of the reactor is compiled that nothing runs, minutes per tree on 2 cores), and
     * a quick start that needs the distributions only skips them; without, they are compiled and not run
     * ({@code -DskipTests}), so a build without tests still compiles the tests a patch edits.
     *
     * <p>5.x's build also runs SpotBugs on every module (bound to {@code compile}). It judges {@code judged} only, the
     * modules the patches change, in a second run right after the install: on the other modules, and on the whole stock
     * tree, it would re-judge the released source, nothing of ours (about 100 s of the patched 5.3.3 tree's build here).
     */
    public void install(Path tree, String flavor, List<String> modules, boolean skipTestCompile, List<String> judged) {
        List<String> goals = new ArrayList<>(List.of("-pl", String.join(",", modules), "-am", "install",
            skipTestCompile ? "-Dmaven.test.skip=true" : "-DskipTests", "-Dspotbugs.skip=true"));
        run(tree, flavor + "-build", goals, "upstream's build of the " + flavor + " tree");
        if (!judged.isEmpty() && runsSpotBugs(tree)) {
            // compile is where upstream binds SpotBugs' check; the classes are up to date, and checkstyle just ran
            run(tree, flavor + "-spotbugs", List.of("-pl", String.join(",", judged), "compile", "-Dcheckstyle.skip=true"),
                "upstream's SpotBugs on the " + flavor + " tree's patched modules " + judged);
        }
    }

    /** Whether upstream's build of this tree runs SpotBugs (5.x does, 4.9.x does not). */
    static boolean runsSpotBugs(Path tree) {
        try {
            return Files.readString(tree.resolve("pom.xml"), StandardCharsets.UTF_8).contains("<artifactId>spotbugs-maven-plugin</artifactId>");
        } catch (IOException e) {
            throw new DistBuildException("cannot read " + tree.resolve("pom.xml") + ": " + e.getMessage());
        }
    }

    /**
     * Copies the runtime classpath of {@code servers} as upstream's poms resolve it into {@code lib}: third-party
     * jars from Maven Central (through the user's repository), upstream's own modules from the private repository,
     * where {@link #install} just put this tree's build of them. The servers' own jars are not included.
     */
    public void copyRuntimeClasspath(Path tree, String flavor, List<String> servers, Path lib) {
        try {
            FileTrees.deleteRecursively(lib);
            Files.createDirectories(lib);
        } catch (IOException e) {
            throw new DistBuildException("cannot create " + lib + ": " + e.getMessage());
        }
        // fully qualified: upstream's poms do not pin this plugin, and Maven's default for the prefix is older
        run(tree, flavor + "-classpath", List.of("-pl", String.join(",", servers), DEPENDENCY_PLUGIN + ":copy-dependencies",
            "-DincludeScope=runtime", "-DoutputDirectory=" + lib.toAbsolutePath()),
            "the servers' runtime classpath of the " + flavor + " tree");
    }

    /**
     * Fetches what {@code pom} (a {@link SourceReleaseAssembly} fetch pom) lists with {@code dependency:copy} into its
     * folder, through this build's repositories: the user's, read-only, then Maven Central.
     */
    public void fetch(Path pom, String what) {
        run(pom.getParent(), "fetch", List.of("-N", DEPENDENCY_PLUGIN + ":copy"), "fetching " + what);
    }

    /**
     * {@code mvn test} of {@code modules} (their siblings resolve from the private repository, where
     * {@link #install} put this tree's jars), every test of them or, when {@code tests} is not empty, only what those
     * surefire {@code -Dtest} patterns select (listed classes, {@code !Class#method} exclusions). Test failures do not
     * stop the run: the caller reads the reports. Returns how long it took, in seconds.
     */
    public long test(Path tree, String flavor, List<String> modules, Path excludesFile, List<String> tests) {
        // upstream's tests put their stores and configs under user.home (~/store, ~/unitteststore, ...):
        // give the test JVMs a home under target/, so nothing is written outside it
        Path home = logs.resolveSibling(flavor + "-test-home");
        Path tmp = home.resolve("tmp");
        try {
            FileTrees.deleteRecursively(home);
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new DistBuildException("cannot create " + tmp + ": " + e.getMessage());
        }
        List<String> args = new ArrayList<>(List.of("-pl", String.join(",", modules), "test",
            "-Dmaven.test.failure.ignore=true", "-Dsurefire.excludesFile=" + excludesFile.toAbsolutePath(),
            // timing-based store and broker tests can miss a deadline on a loaded 2-core machine: a test that
            // passes on a second try is reported as flaky, never hidden (and fails the verdict on patched unless
            // accepted, see UpstreamTestReport)
            "-Dsurefire.rerunFailingTestsCount=2",
            // upstream's surefire configuration sets no argLine: this is the test JVMs' whole extra command line
            "-DargLine=-Duser.home=" + home.toAbsolutePath() + " -Djava.io.tmpdir=" + tmp.toAbsolutePath(),
            // upstream 4.9.x's coverage agent (JaCoCo 0.8.5) predates Java 17 class files: on JDK 17 it only
            // floods the log with instrumentation errors; coverage is no part of the verdict (and its agent
            // would otherwise claim argLine)
            "-Djacoco.skip=true",
            // this tree's install just ran upstream's checkstyle and SpotBugs on the same sources
            "-Dcheckstyle.skip=true", "-Dspotbugs.skip=true"));
        if (!tests.isEmpty()) {
            // surefire 2.19.1 (upstream's) takes fully qualified names in -Dtest, which replaces its includes and
            // excludes; every module gets the whole list, so a module that has none of a class must not fail for it.
            // That a listed class ran at all is the verdict's to check: a class no surefire report names fails it
            args.add("-Dtest=" + String.join(",", tests));
            args.add("-Dsurefire.failIfNoSpecifiedTests=false");
            args.add("-DfailIfNoTests=false");
        }
        long start = System.nanoTime();
        run(tree, flavor + "-tests", args, "upstream's unit tests on the " + flavor + " tree");
        return Math.round((System.nanoTime() - start) / 1e9);
    }

    private void run(Path tree, String logName, List<String> goals, String what) {
        Path log = logs.resolve(logName + ".log");
        List<String> command = new ArrayList<>(List.of(mavenHome.resolve("bin/mvn").toString(), "-B",
            "-s", settings.toString(), "-Dmaven.repo.local=" + privateRepository.toAbsolutePath()));
        command.addAll(lineProperties);
        command.addAll(goals);
        ProcessBuilder builder = new ProcessBuilder(command).directory(tree.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        // a nested Maven must not inherit the outer build's options (they name our poms and our repository)
        for (String inherited : List.of("MAVEN_OPTS", "MAVEN_ARGS", "MAVEN_CONFIG", "MAVEN_CMD_LINE_ARGS", "MAVEN_PROJECTBASEDIR",
            "MAVEN_BASEDIR")) {
            env.remove(inherited);
        }
        // the tree is Maven's project base directory: upstream's trees have no .mvn/, and bin/mvn would otherwise walk
        // up to ours, whose maven.config (--also-make) would add modules to upstream's -pl runs
        env.put("MAVEN_BASEDIR", tree.toAbsolutePath().toString());
        env.put("JDK_JAVA_OPTIONS", String.join(" ", JDK17_OPENS));
        // on this JDK, whatever JAVA_HOME said: the launchers require the JDK the jars were compiled on (DistAssembler)
        env.put("JAVA_HOME", System.getProperty("java.home"));
        long start = System.nanoTime();
        System.out.println("hotpath: " + what + ": mvn " + String.join(" ", command.subList(5, command.size()))
            + " (log: " + log + ")");
        int exit;
        try {
            Files.createDirectories(logs);
            Process process = builder.start();
            // an interrupted build (Ctrl-C, a CI time-out) must not leave upstream's Maven and its test JVMs behind
            Thread stopper = new Thread(() -> stop(process), "stop-upstream-maven");
            Runtime.getRuntime().addShutdownHook(stopper);
            try {
                process.getOutputStream().close();
                // progress for a step that takes minutes: its output goes to the log, not to the console
                while (!process.waitFor(PROGRESS_SECONDS, TimeUnit.SECONDS)) {
                    System.out.printf("hotpath: %s: still running after %.0f s (log: %s)%n", what,
                        (System.nanoTime() - start) / 1e9, log);
                }
                exit = process.exitValue();
            } finally {
                stop(process);
                try {
                    Runtime.getRuntime().removeShutdownHook(stopper);
                } catch (IllegalStateException shuttingDown) {
                    // the JVM is exiting: the hook runs, or has run, and stops the same process
                }
            }
        } catch (IOException e) {
            throw new DistBuildException("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistBuildException("interrupted during " + what);
        }
        if (exit != 0) {
            throw new DistBuildException(what + " failed: " + firstError(log) + " (full log: " + log + ")");
        }
        System.out.printf("hotpath: %s done in %.0f s%n", what, (System.nanoTime() - start) / 1e9);
    }

    /** Stops the process and every process it started (surefire's forked JVMs), by PID. */
    private static void stop(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }

    /** Checkstyle prints its violations as [ERROR] lines before Maven's summary: the first one says most. */
    static String firstError(Path log) {
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.startsWith("[ERROR] ") && line.length() > 8) {
                    return line.substring(8).strip();
                }
            }
        } catch (IOException e) {
            return "see the log";
        }
        return "no [ERROR] line in the log";
    }
}
