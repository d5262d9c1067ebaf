package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The patches add no reference to JDK API that Java 8 lacks. Upstream's build compiles a tree with -source/-target 1.8
 * on the build's JDK (17 here), not with release 8, so javac links JDK 17's signatures: upstream's own classes already
 * call Java 9+ overrides such as {@code ByteBuffer.flip()} returning ByteBuffer, and so would our files and our edits of
 * upstream's. The jars the patches rebuild, as upstream's build made them in each tree, are checked against Java 8's
 * API (animal-sniffer's java18 signature): the patched ones may reference nothing beyond what the stock ones do.
 */
class PatchedJava8ApiTest {

    private static Map<String, Integer> stock;
    private static Map<String, Integer> patched;

    @BeforeAll
    static void scanBothTrees() throws IOException {
        stock = Java8ApiGaps.of(BuiltDistributions.stock(), rebuiltJars());
        patched = Java8ApiGaps.of(BuiltDistributions.patched(), rebuiltJars());
        // for the reader: what each tree references, one "<class> -> <member> x<count>" a line
        Path report = Files.createDirectories(BuiltDistributions.target().resolve("java8-api"));
        Files.write(report.resolve(BuiltDistributions.upstreamVersion() + "-stock.txt"), lines(stock));
        Files.write(report.resolve(BuiltDistributions.upstreamVersion() + "-patched.txt"), lines(patched));
    }

    private static List<String> lines(Map<String, Integer> gaps) {
        List<String> lines = new ArrayList<>();
        gaps.forEach((reference, count) -> lines.add(reference + " x" + count));
        return lines;
    }

    private static Set<String> rebuiltJars() {
        Set<String> jars = new TreeSet<>();
        for (String module : PatchSeries.read(BuiltDistributions.patchesDir()).modules()) {
            jars.add("lib/" + UpstreamLib.moduleJarName(module, BuiltDistributions.upstreamVersion()));
        }
        return jars;
    }

    @Test
    void patchedJarsReferenceNoJava9ApiBeyondStocks() {
        List<String> beyond = Java8ApiGaps.beyond(stock, patched);
        assertThat(beyond)
            .as("Java 9+ references of the patched %s beyond the stock ones (stock: %d distinct, patched: %d)",
                rebuiltJars(), stock.size(), patched.size())
            .isEmpty();
    }

    /** Control: the check sees the Java 9+ references upstream's own classes get from this build, so it can fail. */
    @Test
    void stockJarsReferenceJava9ApiOfTheirOwn() {
        assertThat(stock.keySet())
            .as("upstream's classes built on JDK 17 with -source/-target 1.8 link Java 9+ Buffer overrides")
            .anySatisfy(reference -> assertThat(reference).matches("org/apache/rocketmq/.* -> java\\.nio\\.\\w*Buffer .*"));
    }
}
