package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;

class ReactorClasspathTest {

    private static final Path ROOT = Paths.get("/work/checkout");

    private static String classPath(String... entries) {
        return String.join(File.pathSeparator, entries);
    }

    @Test
    void acceptsTheSiblingModulesOfTheReactor() {
        assertThat(ReactorClasspath.repositoryCopies(classPath(
            "/work/checkout/jmh/target/classes",
            "/work/checkout/hotpath-codec/target/hotpath-codec-0.1.0-SNAPSHOT.jar",
            "/work/checkout/hotpath-line-4.9.8/target/hotpath-line-4.9.8-0.1.0-SNAPSHOT-v498.jar",
            "/root/.m2/repository/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar"), ROOT)).isEmpty();
    }

    @Test
    void namesEveryIoHotpathJarFromARepository() {
        String installed = "/root/.m2/repository/io/hotpath/hotpath-codec/0.1.0-SNAPSHOT/hotpath-codec-0.1.0-SNAPSHOT.jar";
        String privateRepo = "/work/checkout/jmh/target/m2/io/hotpath/hotpath-store/0.1.0-SNAPSHOT/hotpath-store-0.1.0-SNAPSHOT.jar";
        assertThat(ReactorClasspath.repositoryCopies(classPath("/work/checkout/jmh/target/classes", installed,
            "/root/.m2/repository/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar", privateRepo), ROOT))
            .containsExactly(installed, privateRepo);
    }

    @Test
    void aCheckoutUnderADirectoryNamedIoHotpathIsNotARepository() {
        Path root = Paths.get("/src/io/hotpath/rocketmq-hotpath");
        assertThat(ReactorClasspath.repositoryCopies(classPath(
            "/src/io/hotpath/rocketmq-hotpath/hotpath-codec/target/hotpath-codec-0.1.0-SNAPSHOT.jar"), root)).isEmpty();
    }
}
