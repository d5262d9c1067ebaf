package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
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

    @BeforeAll
    static void fakeJdk() throws IOException {
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

    private static Run run(String launcher, String javaVersion, String javaOpts, String... args)
        throws IOException, InterruptedException {
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
        Process process = builder.start();
        List<String> out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("output %s", out).isZero();
        return new Run(process.pid(), Long.parseLong(out.get(0)), out.subList(1, out.size()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mqnamesrv", "mqbroker"})
    void startsTheServerOnJdk17WithModuleFlagsDefaultHeapG1HomeAndClasspath(String launcher) throws Exception {
        Path dist = BuiltDistributions.patched().toRealPath();
        Run run = run(launcher, "17.0.15", null, "-c", "conf/x.properties");
        String main = launcher.equals("mqbroker") ? "org.apache.rocketmq.broker.BrokerStartup"
            : "org.apache.rocketmq.namesrv.NamesrvStartup";
        List<String> expected = new java.util.ArrayList<>(JDK17_FLAGS);
        expected.addAll(List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-Drocketmq.home.dir=" + dist,
            "-cp", dist + "/conf:" + dist + "/lib/*", main, "-c", "conf/x.properties"));
        assertThat(run.args()).isEqualTo(expected);
    }

    @Test
    void execsSoTheLauncherPidIsTheJvmPid() throws Exception {
        Run run = run("mqbroker", "17.0.15", null);
        assertThat(run.javaPid()).isEqualTo(run.launcherPid());
    }

    @Test
    void appendsJavaOptsAfterTheDefaults() throws Exception {
        Run run = run("mqbroker", "17.0.15", "-Dhotpath.log.dir=/tmp/x  -XX:+AlwaysPreTouch");
        int g1 = run.args().indexOf("-XX:+UseG1GC");
        assertThat(run.args()).contains("-Xms1g", "-Xmx1g");
        assertThat(run.args().subList(g1 + 1, g1 + 3)).containsExactly("-Dhotpath.log.dir=/tmp/x", "-XX:+AlwaysPreTouch");
    }

    @Test
    void heapOrGcInJavaOptsReplacesTheDefault() throws Exception {
        Run heap = run("mqbroker", "17.0.15", "-Xms512m -Xmx512m");
        assertThat(heap.args()).doesNotContain("-Xms1g", "-Xmx1g").contains("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");
        Run gc = run("mqbroker", "17.0.15", "-XX:+UseParallelGC");
        assertThat(gc.args()).doesNotContain("-XX:+UseG1GC").contains("-Xms1g", "-XX:+UseParallelGC");
    }

    @Test
    void omitsModuleFlagsOnJava8() throws Exception {
        Run run = run("mqbroker", "1.8.0_292", null);
        assertThat(run.args()).doesNotContainAnyElementsOf(JDK17_FLAGS).startsWith("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");
    }

    @Test
    void javaOptsAreNeverGlobExpanded() throws Exception {
        Run run = run("mqbroker", "17.0.15", "-Dx=*");
        assertThat(run.args()).contains("-Dx=*");
    }
}
