package io.hotpath.dist;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where Maven's process-classes phase put the distributions and their inputs (see broker-dist/pom.xml). */
final class BuiltDistributions {

    private BuiltDistributions() {
    }

    static String upstreamVersion() {
        return System.getProperty("hotpath.upstream.version", "4.9.0");
    }

    static Path target() {
        return Path.of(System.getProperty("hotpath.dist.target", "target"));
    }

    static Path stock() {
        return existing(target().resolve(DistAssembler.distName(upstreamVersion(), "stock")));
    }

    static Path patched() {
        return existing(target().resolve(DistAssembler.distName(upstreamVersion(), "patched")));
    }

    static Path patchesDir() {
        return Path.of(System.getProperty("hotpath.patches.dir", "../patches/" + upstreamVersion()));
    }

    static Path upstreamSourcesJar(String module) {
        return Path.of(System.getProperty("hotpath.upstream.sources", "target/upstream-sources-jars"))
            .resolve("rocketmq-" + module + "-" + upstreamVersion() + "-sources.jar");
    }

    static Path codecSources() {
        return Path.of(System.getProperty("hotpath.codec.sources", "../hotpath-codec/src/main/java"));
    }

    static Path storeSources() {
        return Path.of(System.getProperty("hotpath.store.sources", "../hotpath-store/src/main/java"));
    }

    private static Path existing(Path dist) {
        if (!Files.isDirectory(dist.resolve("lib"))) {
            throw new IllegalStateException(dist + " is not built: run `mvn -pl broker-dist install` with"
                + " -Dhotpath.flavor=both (its process-classes phase builds both distributions)");
        }
        return dist;
    }
}
