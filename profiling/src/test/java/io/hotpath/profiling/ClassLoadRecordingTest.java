package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import io.hotpath.profiling.fixture.LoadedLazily;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads a real recording of this JVM: the class-load event of a class first used by one method names that
 * method as the innermost frame outside the JDK, which is what {@link DecoderProvenance} relies on.
 */
class ClassLoadRecordingTest {

    /** Named, never referenced as a class literal: used by {@link #parseRequestHeader} only, so loaded when it first runs. */
    private static final String LOADED_LAZILY = "io.hotpath.profiling.fixture.LoadedLazily";

    private static int parseRequestHeader(String header) {
        return LoadedLazily.decode(header);
    }

    @Test
    void namesTheMethodWhoseFirstRunLoadedTheClass(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("loads.jfr");
        try (Recording recording = new Recording()) {
            // the same settings DecoderProvenance gives the brokers on their command line
            recording.enable("jdk.ClassLoad").withStackTrace().withThreshold(Duration.ZERO);
            recording.start();
            Thread sender = new Thread(() -> parseRequestHeader("abc"), "SendMessageThread_1");
            sender.start();
            sender.join();
            recording.stop();
            recording.dump(file);
        }

        List<ClassLoadRecording.Load> loads = ClassLoadRecording.loadsOf(file, LOADED_LAZILY);

        assertThat(loads).hasSize(1);
        assertThat(loads.get(0).thread()).isEqualTo("SendMessageThread_1");
        assertThat(DecoderProvenance.caller(loads.get(0))).isEqualTo(getClass().getName() + ".parseRequestHeader");
        assertThat(ClassLoadRecording.loadsOf(file, "no.such.Class")).isEmpty();
    }
}
