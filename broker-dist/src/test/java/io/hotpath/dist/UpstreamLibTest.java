package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lib/ against the servers' META-INF/DEPENDENCIES, on fake server jars in a temp dir (no upstream build). */
class UpstreamLibTest {

    private static final String VERSION = "9.9.9";

    @TempDir
    Path lib;

    /** Each server jar records {@code dependencies} (META-INF/DEPENDENCIES lines, as the Apache parent pom writes them). */
    private void servers(String... dependencies) throws IOException {
        StringBuilder text = new StringBuilder("// DEPENDENCIES\n\nFrom: 'an unknown organization'\n");
        for (String dependency : dependencies) {
            text.append("  - Some Library (https://example.org/) ").append(dependency).append('\n')
                .append("    License: Apache License, Version 2.0\n");
        }
        for (String server : UpstreamLib.SERVERS) {
            try (OutputStream out = Files.newOutputStream(lib.resolve(UpstreamLib.moduleJarName(server, VERSION)));
                 ZipOutputStream zip = new ZipOutputStream(out)) {
                zip.putNextEntry(new ZipEntry("META-INF/DEPENDENCIES"));
                zip.write(text.toString().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
    }

    private void jars(String... names) throws IOException {
        for (String name : names) {
            Files.write(lib.resolve(name), new byte[0]);
        }
    }

    @Test
    void acceptsExactlyTheRecordedJarsWithAnExplicitClassifier() throws IOException {
        servers("io.netty:netty-common:jar:4.1.114.Final", "io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.1.114.Final");
        jars("netty-common-4.1.114.Final.jar", "netty-transport-native-epoll-4.1.114.Final-linux-x86_64.jar");

        assertThatCode(() -> UpstreamLib.at(lib, VERSION).verifyIsRecordedServerClasspath()).doesNotThrowAnyException();
    }

    @Test
    void aLineThatLeavesTheClassifierOutStandsForEveryClassifiedJarOfThatVersion() throws IOException {
        // rocketmq-namesrv 5.3.3 records io.netty:netty-resolver-dns-native-macos:jar:4.1.114.Final twice (osx-x86_64, osx-aarch_64)
        servers("io.netty:netty-resolver-dns-native-macos:jar:4.1.114.Final", "io.netty:netty-resolver-dns-native-macos:jar:4.1.114.Final");
        jars("netty-resolver-dns-native-macos-4.1.114.Final-osx-x86_64.jar", "netty-resolver-dns-native-macos-4.1.114.Final-osx-aarch_64.jar");

        assertThatCode(() -> UpstreamLib.at(lib, VERSION).verifyIsRecordedServerClasspath()).doesNotThrowAnyException();
    }

    @Test
    void anotherVersionIsStillMissingAndAnUnrecordedJarUnexpected() throws IOException {
        servers("io.netty:netty-resolver-dns-native-macos:jar:4.1.114.Final");
        jars("netty-resolver-dns-native-macos-4.1.100.Final-osx-x86_64.jar");

        assertThatThrownBy(() -> UpstreamLib.at(lib, VERSION).verifyIsRecordedServerClasspath()).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("has no netty-resolver-dns-native-macos-4.1.114.Final.jar");

        servers("io.netty:netty-common:jar:4.1.114.Final");
        jars("netty-common-4.1.114.Final.jar", "extra-1.0.jar");
        assertThatThrownBy(() -> UpstreamLib.at(lib, VERSION).verifyIsRecordedServerClasspath()).isInstanceOf(DistBuildException.class)
            .hasMessageContaining("unexpected [extra-1.0.jar, netty-resolver-dns-native-macos-4.1.100.Final-osx-x86_64.jar]");
    }
}
