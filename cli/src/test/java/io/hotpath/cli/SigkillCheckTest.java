package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SigkillCheck}: how it finds a run's processes (always), and the check itself on a real cluster (gated: it needs
 * the newest line's patched distribution and about a minute; CI runs it in step 2 through {@code bin/hotpath test}).
 */
class SigkillCheckTest {

    @TempDir
    Path dir;

    @Test
    void aProcessIsTheRunsWhileItRunsWithTheMarkInItsCommandLine() throws Exception {
        String mark = dir.resolve("e2e/target/e2e").toString() + "/";
        Process broker = new ProcessBuilder("bash", "-c", "exec -a 'java -Duser.home=" + mark + "x-patched/broker-a' sleep 60").start();
        try {
            for (int i = 0; i < 50 && !SigkillCheck.running(mark).contains(broker.pid()); i++) {
                Thread.sleep(50);
            }
            assertThat(SigkillCheck.running(mark)).containsExactly(broker.pid());
            assertThat(SigkillCheck.running(dir.resolve("elsewhere").toString())).isEmpty();
        } finally {
            broker.destroyForcibly();
        }
        assertThat(broker.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(SigkillCheck.running(mark)).isEmpty();
    }

    @Test
    @EnabledIfSystemProperty(named = "hotpath.e2e", matches = "true")
    void aSmokeWhoseBinHotpathIsSigkilledLeavesNothingRunning() {
        Path root = Path.of("").toAbsolutePath().getParent();

        SigkillCheck.run(root);

        assertThat(SigkillCheck.running(root.resolve("e2e/target/e2e").toString() + "/")).isEqualTo(List.of());
    }
}
