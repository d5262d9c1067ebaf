package io.hotpath.e2e.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A tiny real smoke through {@code bin/hotpath smoke} (so in the private network namespace) on the
 * patched distribution. Takes a minute and needs broker-dist/target/, so it runs only with
 * {@code mvn -pl e2e test -Dhotpath.e2e=true}.
 */
@EnabledIfSystemProperty(named = "hotpath.e2e", matches = "true")
class SmokeCommandTest {

    @Test
    void patchedSmokeDeliversEveryAcknowledgedMessageAndLeavesNoProcess() throws Exception {
        Path root = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();
        Process smoke = new ProcessBuilder(root.resolve("bin/hotpath").toString(), "smoke", "--dist", "patched",
                "-n", "500", "-w", "4", "-s", "256", "-t", "2", "--base-port", "21876")
                .directory(root.toFile()).redirectErrorStream(true).start();
        String output = new String(smoke.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(smoke.waitFor(5, TimeUnit.MINUTES)).isTrue();

        assertThat(smoke.exitValue()).as(output).isZero();
        assertThat(output).contains("== patched: PASS ==").contains("lost 0, corrupt 0, misplaced 0");
        assertThat(javaProcessesNaming("BrokerStartup -c " + root.resolve("e2e/target/e2e"))).as(output).isEmpty();
    }

    private static List<String> javaProcessesNaming(String text) throws IOException {
        return ProcessHandle.allProcesses()
                .map(p -> p.info().commandLine().orElse(""))
                .filter(cmd -> cmd.contains(text))
                .toList();
    }
}
