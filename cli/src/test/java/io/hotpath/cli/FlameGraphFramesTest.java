package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's check that a flame graph shows broker frames reads the frame names of async-profiler's HTML with their shared
 * prefixes undone: a package may appear nowhere spelled out in the file.
 */
class FlameGraphFramesTest {

    private static final String BROKER_FRAMES = "org/apache/rocketmq/(broker|store|remoting|common)/";

    @TempDir
    Path dir;

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

    private boolean passes(String pattern, String html) throws IOException {
        Path file = dir.resolve("broker-a-cpu.html");
        Files.writeString(file, html, StandardCharsets.UTF_8);
        try {
            FlameGraphFrames.expect(pattern, List.of(file));
            return true;
        } catch (CommandFailure e) {
            assertThat(e.getMessage()).startsWith("flame graph " + file + " has no frame matching");
            return false;
        }
    }

    @Test
    void undoesTheSharedPrefixes() {
        assertThat(FlameGraphFrames.names(html(" all", " org/apache/rocketmq/auth/A.b", "4broker/auth/Pipeline.execute", "+commons/X.y")))
            .containsExactly("all", "org/apache/rocketmq/auth/A.b", "org/apache/rocketmq/broker/auth/Pipeline.execute",
                "org/apache/commons/X.y");
    }

    @Test
    void findsBrokerFramesWhosePackageIsOnlyInTheSharedPrefix() throws Exception {
        // the CI run of 2026-11-26: the first broker frame followed another rocketmq frame, so "rocketmq/broker/" is
        // nowhere in the file
        String shared = html("all", " org/apache/rocketmq/auth/authentication/Factory.create", "4broker/auth/Pipeline.execute",
            "4store/CommitLog.putMessage");
        assertThat(shared).doesNotContain("rocketmq/broker/").doesNotContain("rocketmq/store/");
        assertThat(passes(BROKER_FRAMES, shared)).isTrue();
        assertThat(passes(BROKER_FRAMES, html("all", " org/apache/commons/Lang.x", "+rocketmq/store/CommitLog.putMessage"))).isTrue();
    }

    @Test
    void failsOnAFlameGraphWithoutBrokerFrames() throws Exception {
        // control: a codec benchmark's graph, and rocketmq frames of another package only
        assertThat(passes(BROKER_FRAMES, html("all", " io/hotpath/codec/PropertiesEncoder.encode", ";Encoder.x"))).isFalse();
        assertThat(passes(BROKER_FRAMES, html("all", " org/apache/rocketmq/auth/A.b", "4client/Producer.send"))).isFalse();
        assertThat(passes("PropertiesEncoder", html("all", " io/hotpath/codec/PropertiesCodec490.encode", ";Encoder.encode")))
            .as("'PropertiesEncoder' only after decoding").isTrue();
    }

    @Test
    void aCollapsedFileIsReadLineByLineAndAnEmptyOrMissingOneFails() throws Exception {
        Path collapsed = Files.writeString(dir.resolve("broker-a-cpu.collapsed"),
            "java/lang/Thread.run;org/apache/rocketmq/store/CommitLog.putMessage 12\n");
        FlameGraphFrames.expect(BROKER_FRAMES, List.of(collapsed));
        Path empty = Files.writeString(dir.resolve("broker-b-cpu.collapsed"), "");
        assertThatThrownBy(() -> FlameGraphFrames.expect(BROKER_FRAMES, List.of(empty))).hasMessageContaining("expected a non-empty profile");
        assertThatThrownBy(() -> FlameGraphFrames.expect(BROKER_FRAMES, List.of(dir.resolve("none.html"))))
            .hasMessageContaining("expected a non-empty profile");
        Path other = Files.writeString(dir.resolve("c.collapsed"), "io/hotpath/X.y 3\n");
        assertThatThrownBy(() -> FlameGraphFrames.expect(BROKER_FRAMES, List.of(other))).hasMessageContaining("has no frame matching");
    }
}
