package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fork wrapper: what it runs (through a stand-in taskset that prints its arguments), and when there is none. */
class ForkPinningTest {

    @TempDir
    Path dir;

    private Path fakeTaskset() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path taskset = bin.resolve("taskset");
        Files.write(taskset, "#!/bin/sh\necho \"$@\"\n".getBytes(StandardCharsets.UTF_8));
        assertThat(taskset.toFile().setExecutable(true)).isTrue();
        return bin;
    }

    @Test
    void wrapsJavaInTasksetOnTheLastCpuPassingEveryArgumentThrough() throws Exception {
        Path bin = fakeTaskset();

        ForkPinning pinning = ForkPinning.of(dir.resolve("target"), 2, "", bin.toString(), "/opt/my jdk").orElseThrow();

        assertThat(pinning.wrapper()).isEqualTo(dir.resolve("target").resolve(ForkPinning.WRAPPER)).isExecutable();
        Process p = new ProcessBuilder(List.of(pinning.wrapper().toString(), "-Xmx1g", "a b")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(out).isEqualTo("-c 1 /opt/my jdk/bin/java -Xmx1g a b\n");
        assertThat(pinning.describe(2)).startsWith("every fork pinned to CPU 1 of 2");
        assertThat(ForkPinning.of(dir.resolve("t4"), 4, "true", bin.toString(), "/jdk").orElseThrow().describe(4))
            .startsWith("every fork pinned to CPU 3 of 4");
    }

    @Test
    void pinsNothingWithOneCpuWithoutTasksetOrWhenTurnedOff() throws Exception {
        Path bin = fakeTaskset();

        assertThat(ForkPinning.of(dir.resolve("a"), 1, "", bin.toString(), "/jdk")).isEmpty();
        assertThat(ForkPinning.of(dir.resolve("b"), 2, "false", bin.toString(), "/jdk")).isEmpty();
        assertThat(ForkPinning.of(dir.resolve("c"), 2, "", dir.resolve("empty").toString(), "/jdk")).isEmpty();
        assertThat(dir.resolve("a")).doesNotExist();
        assertThatThrownBy(() -> ForkPinning.of(dir.resolve("d"), 2, "yes", bin.toString(), "/jdk"))
            .hasMessage("-Djmh.pin must be true or false, got 'yes'");
    }

    @Test
    void forksNameTheBrokersCollectorSoThatAPinnedForkDoesNotFallBackToSerialGc() {
        // a JVM that sees one CPU picks SerialGC by ergonomics; the brokers run G1
        org.openjdk.jmh.annotations.Fork fork =
            io.hotpath.jmh.AbstractBenchmark.class.getAnnotation(org.openjdk.jmh.annotations.Fork.class);
        assertThat(fork.jvmArgs()).contains("-XX:+UseG1GC");
    }
}
