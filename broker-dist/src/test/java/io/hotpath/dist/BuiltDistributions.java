package io.hotpath.dist;

import io.hotpath.lines.ReleaseLine;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where Maven's process-classes phase put the distributions and their inputs (see broker-dist/pom.xml). */
final class BuiltDistributions {

    /**
     * A test about one line's behaviour (its oracle, its patches) carries {@code @Tag(LINE_TAG_PREFIX + release)}:
     * surefire runs the untagged tests and those of the line this build assembled (broker-dist/pom.xml, groups).
     */
    static final String LINE_TAG_PREFIX = "line-";

    private BuiltDistributions() {
    }

    /** The release line this build assembled ({@code -Dhotpath.line}, see the root pom). */
    static ReleaseLine line() {
        return ReleaseLine.load(Path.of(System.getProperty("hotpath.line.dir", "../patches/" + System.getProperty("hotpath.line"))));
    }

    static String upstreamVersion() {
        return line().release();
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
        return line().dir();
    }

    /** Upstream's source-release archive of the line, as Maven copied it from Central. */
    static Path sourceRelease() {
        return Path.of(System.getProperty("hotpath.source.release", "target/upstream/" + upstreamVersion() + "/source-release.zip"));
    }

    static Path projectRoot() {
        return Path.of(System.getProperty("hotpath.project.root", ".."));
    }

    private static Path existing(Path dist) {
        if (!Files.isDirectory(dist.resolve("lib"))) {
            throw new IllegalStateException(dist + " is not built: run `mvn -pl broker-dist verify` with"
                + " -Dhotpath.flavor=both (its process-classes phase builds both distributions)");
        }
        return dist;
    }
}
