package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.jmh.AbstractBenchmark;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

class RunPlanTest {

    @Test
    void usesTheSharedDefaultsUnchangedHoweverManyBenchmarksThereAre() {
        // control for the old behaviour: 68 combinations once shortened the iterations to 200 ms to fit 480 s
        RunPlan p = RunPlan.plan(68, "", "", "", "", "", "");
        assertThat(p.forks).isEqualTo(AbstractBenchmark.FORKS).isGreaterThanOrEqualTo(3);
        assertThat(p.warmupIterations).isEqualTo(AbstractBenchmark.WARMUP_ITERATIONS);
        assertThat(p.iterations).isEqualTo(AbstractBenchmark.MEASUREMENT_ITERATIONS);
        assertThat(p.warmupMillis).isEqualTo(p.measurementMillis).isEqualTo(1000);
    }

    @Test
    void refusesInOneLineAPlanOverTheBudgetInsteadOfShorteningIt() {
        assertThatThrownBy(() -> RunPlan.plan(40, "", "", "", "", "", "600"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("40 benchmark/param combinations x 4 forks x (8 warmup x 1 s + 4 measurement x 1 s) would take"
                + " ~40 min 00 s, over -Djmh.budget=600 s: narrow -Djmh.include or lower -Djmh.forks / -Djmh.iterations"
                + " (nothing is shortened for you)")
            .message().doesNotContain("\n");
    }

    @Test
    void acceptsAPlanWithinTheBudget() {
        RunPlan p = RunPlan.plan(8, "", "", "", "", "", "480");
        assertThat(p.estimateSeconds()).isEqualTo(8 * 4 * (3.0 + 12));
        assertThat(p.measurementMillis).isEqualTo(1000);
    }

    @Test
    void keepsExplicitSettingsAndChecksThemAgainstTheBudgetToo() {
        RunPlan p = RunPlan.plan(100, "4", "", "", "10", "2s", "");
        assertThat(p.forks).isEqualTo(4);
        assertThat(p.iterations).isEqualTo(10);
        assertThat(p.measurementMillis).isEqualTo(2000);
        assertThatThrownBy(() -> RunPlan.plan(100, "4", "", "", "10", "2s", "60")).hasMessageContaining("over -Djmh.budget=60 s");
    }

    @Test
    void optionsAfterTheDashesWinOverTheProperties() throws CommandLineOptionException {
        RunPlan p = RunPlan.plan(4, new CommandLineOptions("-f", "1", "-wi", "0", "-r", "500ms"), "4", "3", "", "", "2s", "");
        assertThat(p.forks).isEqualTo(1);
        assertThat(p.warmupIterations).isZero();
        assertThat(p.measurementMillis).isEqualTo(500);
        assertThat(p.iterations).isEqualTo(AbstractBenchmark.MEASUREMENT_ITERATIONS);
    }

    @Test
    void rejectsMalformedSettingsInOneLine() {
        assertThatThrownBy(() -> RunPlan.plan(1, "two", "", "", "", "", "")).hasMessage("-Djmh.forks must be a non-negative integer, got 'two'");
        assertThatThrownBy(() -> RunPlan.plan(1, "", "", "", "", "soon", "")).hasMessageContaining("-Djmh.time must be a JMH time");
        assertThatThrownBy(() -> RunPlan.plan(1, "", "", "", "0", "", "")).hasMessageContaining("-Djmh.iterations must be a positive integer");
        assertThatThrownBy(() -> RunPlan.plan(1, "", "", "", "", "", "soon")).hasMessage("-Djmh.budget must be a positive integer, got 'soon'");
    }
}
