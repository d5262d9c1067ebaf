package io.hotpath.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads compilations out of a real recording of this JVM, made to compile a loop on purpose. */
class WindowCompilationsTest {

    @TempDir
    Path node;

    @Test
    void namesWhatCompiledInTheWindowAndNothingOutsideIt() throws Exception {
        Instant before;
        Instant start;
        Instant end;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.Compilation").withThreshold(java.time.Duration.ZERO);
            recording.enable("jdk.Deoptimization");
            before = Instant.now();
            Thread.sleep(20);
            recording.start();
            start = Instant.now();
            long sum = 0;
            for (int i = 0; i < 2_000_000; i++) {
                sum += hot(i);
            }
            assertThat(sum).isNotZero();
            // the compiler threads work behind the caller: the window ends when their queue has drained
            Thread.sleep(500);
            end = Instant.now();
            recording.stop();
            recording.dump(node.resolve(BrokerFlightRecording.FILE_NAME));
        }
        WindowCompilations window = WindowCompilations.read(node, start, end);
        assertThat(window.compilations()).isPositive();
        assertThat(window.slowest()).as(window.line()).isNotEmpty().hasSizeLessThanOrEqualTo(WindowCompilations.NAMED);
        assertThat(window.slowest().keySet()).allMatch(method -> method.matches("[\\w$<>]+\\.[\\w$<>]+ \\(tier [1-4](, OSR)?\\)"));
        assertThat(window.slowest().values().stream().mapToDouble(Double::doubleValue).sum()).isLessThanOrEqualTo(window.compileMs() + 1e-6);
        assertThat(window.byLevel().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(window.compilations());
        assertThat(window.line()).contains("compilations");
        // control: the same recording read over a window before it began holds nothing
        assertThat(WindowCompilations.read(node, before.minusSeconds(1), before).compilations()).isZero();
        assertThat(window.plus(window).compilations()).isEqualTo(2 * window.compilations());
    }

    @Test
    void aNodeWithoutARecordingHasNone() throws Exception {
        assertThat(WindowCompilations.read(node, Instant.EPOCH, Instant.now())).isEqualTo(WindowCompilations.NONE);
    }

    private static long hot(int i) {
        return (i * 31L) ^ (i >>> 3) | 1;
    }
}
