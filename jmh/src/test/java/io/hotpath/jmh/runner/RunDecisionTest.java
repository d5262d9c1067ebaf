package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDecisionTest {

    private static final String MODULE = "io.hotpath:hotpath-jmh";

    @TempDir
    static Path root;
    private static String jmh;

    @BeforeAll
    static void layOutProject() throws Exception {
        Path dir = Files.createDirectories(root.resolve("jmh"));
        Files.createFile(dir.resolve("pom.xml"));
        jmh = dir.toString();
    }

    private static boolean runs(String flag, String selected, String executionRoot) {
        return RunDecision.decide(flag, selected, executionRoot, jmh, MODULE).run;
    }

    @Test
    void skipsAPlainRootBuild() {
        assertThat(runs("", "[]", root.toString())).isFalse();
    }

    @Test
    void runsWhenSelectedByPathOrCoordinates() {
        for (String sel : new String[] {"[jmh]", "[./jmh/]", "[jmh/pom.xml]", "[:hotpath-jmh]", "[io.hotpath:hotpath-jmh]",
                "[hotpath-codec, jmh]", "[" + jmh + "]"}) {
            assertThat(runs("", sel, root.toString())).as(sel).isTrue();
        }
    }

    @Test
    void skipsWhenOtherModulesOrAnExclusionAreSelected() {
        for (String sel : new String[] {"[hotpath-codec]", "[!jmh]", "[-jmh]", "[:hotpath-codec]", "[jmh-other]",
                "${session.request.selectedProjects}"}) {
            assertThat(runs("", sel, root.toString())).as(sel).isFalse();
        }
    }

    @Test
    void runsWhenMavenStartsInTheModule() {
        assertThat(runs("", "[]", jmh)).isTrue();
    }

    @Test
    void explicitFlagWins() {
        assertThat(runs("true", "[]", root.toString())).isTrue();
        assertThat(runs("false", "[jmh]", root.toString())).isFalse();
        assertThatThrownBy(() -> runs("yes", "[]", root.toString())).hasMessageContaining("-Djmh.run must be true or false");
    }
}
