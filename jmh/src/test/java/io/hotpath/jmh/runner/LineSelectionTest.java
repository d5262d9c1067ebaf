package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;

import io.hotpath.jmh.results.LineQuotes;
import org.junit.jupiter.api.Test;

/** A line's quotable run measures what its patches quote: options after {@code --} may tune it, not re-select it. */
class LineSelectionTest {

    private static final LineQuotes LINE = LineQuotes.load("5.3.3");

    @Test
    void takesRunSettingsAfterTheDashes() {
        JmhArguments args = new JmhArguments(Arrays.asList("-f", "1", "-prof", "stack"));
        BenchmarkRunner.lineSelection(LINE, args);
        assertThat(args.toList()).startsWith(LINE.include()).endsWith("-f", "1", "-prof", "stack");
    }

    @Test
    void refusesBenchmarksOrParametersAfterTheDashes() {
        for (String[] selection : new String[][] {{"Parse"}, {"-e", "Persisted"}, {"-p", "corpus=small5"}}) {
            assertThatThrownBy(() -> BenchmarkRunner.lineSelection(LINE, new JmhArguments(Arrays.asList(selection))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("-Djmh.line runs what the line's patches quote: give no benchmark regexp, -e or -p");
        }
    }
}
