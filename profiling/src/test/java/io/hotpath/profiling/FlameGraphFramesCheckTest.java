package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's check that a flame graph shows broker frames ({@code expect_frames} in bin/lib/common.sh) reads the frame names
 * of async-profiler's HTML with their shared prefixes undone: a package may appear nowhere spelled out in the file.
 */
class FlameGraphFramesCheckTest {

    private static final Path ROOT = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();
    private static final String BROKER_FRAMES = "org/apache/rocketmq/(broker|store|remoting|common)/";

    /**
     * The cpool of a flame graph as async-profiler writes it: each name is one character (the length of the prefix it
     * shares with the name before it, plus 32) and the rest. '+' is 11 ("org/apache/"), '4' is 20 ("org/apache/rocketmq/").
     */
    private static String html(String... cpool) {
        StringBuilder out = new StringBuilder("<html><script>\nconst cpool = [\n");
        for (String entry : cpool) {
            out.append('\'').append(entry).append("',\n");
        }
        return out.append("];\n</script></html>\n").toString();
    }

    private int check(Path dir, String pattern, String html) throws IOException, InterruptedException {
        Path file = dir.resolve("broker-a-cpu.html");
        Files.writeString(file, html, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("bash", "-c", "set -euo pipefail; source bin/lib/common.sh; expect_frames \"$1\" \"$2\"",
            "check", pattern, file.toString()).directory(ROOT.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    @Test
    void findsBrokerFramesWhosePackageIsOnlyInTheSharedPrefix(@TempDir Path dir) throws Exception {
        // the CI run of 2026-11-26: the first broker frame followed another rocketmq frame, so "rocketmq/broker/" is
        // nowhere in the file
        String shared = html("all", " org/apache/rocketmq/auth/authentication/Factory.create", "4broker/auth/Pipeline.execute",
            "4store/CommitLog.putMessage");
        assertThat(shared).doesNotContain("rocketmq/broker/").doesNotContain("rocketmq/store/");
        assertThat(check(dir, BROKER_FRAMES, shared)).isZero();
        assertThat(check(dir, BROKER_FRAMES, html("all", " org/apache/commons/Lang.x", "+rocketmq/store/CommitLog.putMessage")))
            .isZero();
    }

    @Test
    void failsOnAFlameGraphWithoutBrokerFrames(@TempDir Path dir) throws Exception {
        // control: a codec benchmark's graph, and rocketmq frames of another package only
        assertThat(check(dir, BROKER_FRAMES, html("all", " io/hotpath/codec/PropertiesEncoder.encode", ";Encoder.x"))).isEqualTo(2);
        assertThat(check(dir, BROKER_FRAMES, html("all", " org/apache/rocketmq/auth/A.b", "4client/Producer.send"))).isEqualTo(2);
        assertThat(check(dir, "PropertiesEncoder", html("all", " io/hotpath/codec/PropertiesCodec490.encode", ";Encoder.encode")))
            .as("'PropertiesEncoder' only after decoding").isZero();
    }
}
