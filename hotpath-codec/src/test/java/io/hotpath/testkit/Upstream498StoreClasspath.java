package io.hotpath.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * rocketmq-store 4.9.8's runtime class path (module upstream/rocketmq-4.9.8-store), as the module's build copied its
 * build-classpath list to target/: absolute paths in the local repository Maven used (a {@code ${M2_REPO}} prefix,
 * should a list have one, is that repository, {@code -Dhotpath.maven.repo}). Every org.apache.rocketmq jar must be 4.9.8.
 */
public final class Upstream498StoreClasspath {

    private Upstream498StoreClasspath() {
    }

    public static List<Path> jars() {
        Path file = Path.of(System.getProperty("hotpath.upstream498.store.classpath", "target/upstream-498-store.classpath"));
        String repo = System.getProperty("hotpath.maven.repo", System.getProperty("user.home") + "/.m2/repository");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(file + " is missing: the module's build copies it from upstream/rocketmq-4.9.8-store"
                + " (generate-test-resources; mvn -B -q install -DskipTests at the root)", e);
        }
        List<Path> jars = new ArrayList<>();
        for (String entry : text.split(File.pathSeparator)) {
            Path jar = Path.of(entry.replace("${M2_REPO}", repo));
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("listed in " + file + " but not on disk: " + jar);
            }
            String name = jar.getFileName().toString();
            if (name.startsWith("rocketmq-") && !name.endsWith("-4.9.8.jar")) {
                throw new IllegalStateException("not a 4.9.8 RocketMQ jar: " + jar);
            }
            jars.add(jar);
        }
        return jars;
    }
}
