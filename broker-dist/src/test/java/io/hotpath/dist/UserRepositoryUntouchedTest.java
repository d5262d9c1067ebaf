package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * After the upstream build of both trees, every org.apache.rocketmq file in the user's local repository
 * is still the one Maven Central served (its bytes match the .sha1 Central sent with it). A patched tree
 * installed there would sit under the stock coordinates, and every oracle read afterwards would be our
 * own code; {@link UpstreamMavenBuild} installs into a private repository under target/ instead.
 */
class UserRepositoryUntouchedTest {

    @Test
    void everyRocketmqArtifactInTheUserRepositoryIsCentrals() throws IOException {
        Path rocketmq = Path.of(System.getProperty("hotpath.maven.repo", System.getProperty("user.home") + "/.m2/repository"))
            .resolve("org/apache/rocketmq");
        // this very build resolved the line's stock jars from there (broker-dist's oracle)
        assertThat(rocketmq.resolve("rocketmq-common").resolve(BuiltDistributions.line().oracleVersion())).isDirectory();
        List<String> checked = new ArrayList<>();
        List<String> notCentrals = new ArrayList<>();
        try (Stream<Path> files = Files.walk(rocketmq)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jar") || f.toString().endsWith(".zip")).toList()) {
                Path sha1 = file.resolveSibling(file.getFileName() + ".sha1");
                checked.add(file.getFileName().toString());
                if (!Files.isRegularFile(sha1)) {
                    notCentrals.add(file + " (no .sha1 from a remote repository: installed locally?)");
                } else if (!sha1(file).equals(Files.readString(sha1, StandardCharsets.US_ASCII).strip().substring(0, 40))) {
                    notCentrals.add(file + " (bytes differ from the .sha1 Central sent)");
                }
            }
        }
        assertThat(checked).as("rocketmq jars checked").isNotEmpty();
        assertThat(notCentrals).as("org.apache.rocketmq files in the user's repository that are not Central's").isEmpty();
    }

    static String sha1(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
