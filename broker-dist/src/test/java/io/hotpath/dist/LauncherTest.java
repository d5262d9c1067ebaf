package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bin/ launchers' command line, which the e2e runner codes against, checked with a fake
 * {@code $JAVA_HOME/bin/java} that prints its PID and arguments instead of starting a JVM.
 * (Real start-ups of both distributions on JDK 17 are the smoke runs, not unit tests.)
 */
class LauncherTest {

    private static final List<String> JDK17_FLAGS = List.of(
        "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

    private static Path fakeJavaHome;
    /** A version of the JDK that built the distributions (BUILD-INFO.txt build.java), which the launchers require. */
    private static String buildJava;

    @BeforeAll
    static void fakeJdk() throws IOException {
        Properties info = new Properties();
        try (Reader in = Files.newBufferedReader(BuiltDistributions.patched().resolve("BUILD-INFO.txt"))) {
            info.load(in);
        }
        buildJava = info.getProperty("build.java") + ".0.15";
        fakeJavaHome = BuiltDistributions.target().resolve("launcher-test/fake-jdk");
        Path java = fakeJavaHome.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, """
            #!/usr/bin/env bash
            if [ "${1:-}" = "-version" ]; then
              echo "openjdk version \\"$FAKE_JAVA_VERSION\\" 2021-04-20" >&2
              exit 0
            fi
            echo "$$"
            printf '%s\\n' "$@"
            """, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The PID the fake java printed, then its arguments. */
    record Run(long launcherPid, long javaPid, List<String> args) {
    }

    /** The launcher's exit code and output (stdout and stderr). */
    record Exit(int code, List<String> out) {
    }

    private static Run run(String launcher, String javaVersion, String javaOpts, String... args)
        throws IOException, InterruptedException {
        Process process = start(launcher, javaVersion, javaOpts, args);
        Exit exit = exit(process);
        assertThat(exit.code()).as("output %s", exit.out()).isZero();
        List<String> out = exit.out();
        return new Run(process.pid(), Long.parseLong(out.get(0)), out.subList(1, out.size()));
    }

    private static Exit exit(Process process) throws IOException, InterruptedException {
        List<String> out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Exit(process.exitValue(), out);
    }

    private static Process start(String launcher, String javaVersion, String javaOpts, String... args) throws IOException {
        Path dist = BuiltDistributions.patched();
        List<String> command = new java.util.ArrayList<>(List.of(dist.resolve("bin").resolve(launcher).toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", fakeJavaHome.toAbsolutePath().toString());
        env.put("FAKE_JAVA_VERSION", javaVersion);
        env.remove("JAVA_OPTS");
        if (javaOpts != null) {
            env.put("JAVA_OPTS", javaOpts);
        }
        return builder.start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"mqnamesrv", "mqbroker"})
    void startsTheServerOnItsBuildJdkWithModuleFlagsDefaultHeapG1HomeAndClasspath(String launcher) throws Exception {
        Path dist = BuiltDistributions.patched().toRealPath();
        Run run = run(launcher, buildJava, null, "-c", "conf/x.properties");
        String main = launcher.equals("mqbroker") ? "org.apache.rocketmq.broker.BrokerStartup"
            : "org.apache.rocketmq.namesrv.NamesrvStartup";
        List<String> expected = new java.util.ArrayList<>(JDK17_FLAGS);
        expected.addAll(List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-Drocketmq.home.dir=" + dist,
            "-cp", dist + "/conf:" + dist + "/lib/*", main, "-c", "conf/x.properties"));
        assertThat(run.args()).isEqualTo(expected);
    }

    @Test
    void execsSoTheLauncherPidIsTheJvmPid() throws Exception {
        Run run = run("mqbroker", buildJava, null);
        assertThat(run.javaPid()).isEqualTo(run.launcherPid());
    }

    @Test
    void appendsJavaOptsAfterTheDefaults() throws Exception {
        Run run = run("mqbroker", buildJava, "-Dhotpath.log.dir=/tmp/x  -XX:+AlwaysPreTouch");
        int g1 = run.args().indexOf("-XX:+UseG1GC");
        assertThat(run.args()).contains("-Xms1g", "-Xmx1g");
        assertThat(run.args().subList(g1 + 1, g1 + 3)).containsExactly("-Dhotpath.log.dir=/tmp/x", "-XX:+AlwaysPreTouch");
    }

    @Test
    void heapOrGcInJavaOptsReplacesTheDefault() throws Exception {
        Run heap = run("mqbroker", buildJava, "-Xms512m -Xmx512m");
        assertThat(heap.args()).doesNotContain("-Xms1g", "-Xmx1g").contains("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");
        Run gc = run("mqbroker", buildJava, "-XX:+UseParallelGC");
        assertThat(gc.args()).doesNotContain("-XX:+UseG1GC").contains("-Xms1g", "-XX:+UseParallelGC");
    }

    /** Upstream's classes built on JDK 17 link Java 9+ and 17 methods (broker-dist/README.md): refused, not started. */
    @ParameterizedTest
    @ValueSource(strings = {"1.8.0_292", "11.0.22", "16.0.2"})
    void refusesAJavaOlderThanTheJdkThatBuiltIt(String javaVersion) throws Exception {
        Exit exit = exit(start("mqbroker", javaVersion, null));
        String required = buildJava.substring(0, buildJava.indexOf('.'));
        assertThat(exit.code()).isEqualTo(2);
        assertThat(exit.out()).singleElement().asString().startsWith("mqbroker: error: ")
            .contains("is Java " + javaVersion + ";", "needs Java " + required + " or newer");
    }

    @Test
    void startsOnANewerJava() throws Exception {
        int built = Integer.parseInt(buildJava.substring(0, buildJava.indexOf('.')));
        for (String newer : List.of((built + 4) + ".0.2", (built + 8) + "-ea", (built + 8) + "+35")) {
            assertThat(run("mqbroker", newer, null).args()).as(newer).startsWith(JDK17_FLAGS.toArray(String[]::new));
        }
    }

    @Test
    void javaOptsAreNeverGlobExpanded() throws Exception {
        Run run = run("mqbroker", buildJava, "-Dx=*");
        assertThat(run.args()).contains("-Dx=*");
    }
}
