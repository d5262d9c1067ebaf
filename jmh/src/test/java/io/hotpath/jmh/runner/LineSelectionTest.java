package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import io.hotpath.jmh.results.LineQuotes;
import org.junit.jupiter.api.Test;

/** A line's quotable run measures what its patches quote: options after {@code --} may tune it, not re-select it. */
class LineSelectionTest {

    private static final LineQuotes LINE = LineQuotes.load("5.3.3");

    @Test
    void takesRunSettingsAfterTheDashes() {
        JmhArguments args = new JmhArguments(Arrays.asList("-f", "1", "-prof", "stack"));
        BenchmarkRunner.lineSelection(LINE, args, RunnerOptions.of());
        assertThat(args.toList()).startsWith(LINE.include()).endsWith("-f", "1", "-prof", "stack");
    }

    @Test
    void refusesBenchmarksOrParametersAfterTheDashes() {
        for (String[] selection : new String[][] {{"Parse"}, {"-e", "Persisted"}, {"-p", "corpus=small5"}}) {
            assertThatThrownBy(() -> BenchmarkRunner.lineSelection(LINE, new JmhArguments(Arrays.asList(selection)),
                RunnerOptions.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("-Djmh.line runs what the line's patches quote: give no benchmark regexp, -e or -p");
        }
    }

    @Test
    void refusesASelectionOfItsOwn() {
        for (String name : List.of("jmh.include", "jmh.exclude", "jmh.params")) {
            assertThatThrownBy(() -> BenchmarkRunner.lineSelection(LINE, new JmhArguments(List.of()),
                RunnerOptions.of(name, "corpus=small5")))
                .as(name).hasMessageStartingWith("-Djmh.line runs what the line's patches quote: give no -Djmh.include");
        }
    }

    /**
     * The selection reads only the switches it is given: surefire hands {@code mvn ... -Djmh.include=X} to this JVM as a
     * system property (the command jmh/README.md shows), and that must not change what a test sees. Control: the
     * runner as it read System.getProperty("jmh.include") failed here with "-Djmh.line runs what the line's patches
     * quote: give no -Djmh.include, -Djmh.exclude or -Djmh.params with it".
     */
    @Test
    void aCallersSystemPropertyIsNoSwitch() {
        String kept = System.getProperty("jmh.include");
        System.setProperty("jmh.include", "PropertiesEncodeBenchmark");
        try {
            JmhArguments args = new JmhArguments(List.of());
            BenchmarkRunner.lineSelection(LINE, args, RunnerOptions.of());
            assertThat(args.toList()).startsWith(LINE.include());
        } finally {
            if (kept == null) {
                System.clearProperty("jmh.include");
            } else {
                System.setProperty("jmh.include", kept);
            }
        }
    }
}
