package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file bin/hotpath jmh writes (each argument followed by NUL) comes back as the same arguments. */
class ArgsFileTest {

    @TempDir
    Path dir;

    private Path write(byte[] bytes) throws IOException {
        return Files.write(dir.resolve("jmh-args"), bytes);
    }

    private static byte[] nulTerminated(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String a : args) {
            out.writeBytes(a.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    @Test
    void keepsEachArgumentWholeWithItsSpacesAndQuotesInOrder() throws IOException {
        List<String> args = Arrays.asList("-jvmArgsAppend", "-XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation",
            "-p", "corpus=small5", "it's \"quoted\"", "", "two\nlines", "PropertiesParseBenchmark.upstream490$",
            "-prof", "async:libPath=/opt/a b/lib.so;dir=ü");

        assertThat(ArgsFile.read(write(nulTerminated(args)))).containsExactlyElementsOf(args);
    }

    @Test
    void anEmptyFileHoldsNoArguments() throws IOException {
        assertThat(ArgsFile.read(write(new byte[0]))).isEmpty();
    }

    @Test
    void aMissingFileIsOneLineNamingIt() {
        Path missing = dir.resolve("gone");
        assertThatThrownBy(() -> ArgsFile.read(missing)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("no JMH arguments file " + missing + " (-Djmh.argsFile)");
    }

    @Test
    void anUnreadableFileIsOneLineNamingIt() {
        // a directory: unreadable as a file even for root, which file permissions would not stop
        assertThatThrownBy(() -> ArgsFile.read(dir)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("cannot read the JMH arguments file " + dir + " (-Djmh.argsFile): ")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void refusesACutOffLastArgument() throws IOException {
        Path file = write("-f\u00001".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ArgsFile.read(file)).hasMessageContaining("does not end with a NUL byte");
    }

    @Test
    void refusesBytesThatAreNotUtf8() throws IOException {
        Path file = write(new byte[] {'-', 'f', (byte) 0xff, 0});
        assertThatThrownBy(() -> ArgsFile.read(file)).hasMessageEndingWith("(-Djmh.argsFile) is not UTF-8");
    }
}
