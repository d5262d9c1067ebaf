package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.jmh.AbstractBenchmark;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

class RunPlanTest {

    @Test
    void usesTheSharedDefaultsWhenTheyFitTheBudget() {
        RunPlan p = RunPlan.plan(4, "", "", "", "", "", "");
        assertThat(p.forks).isEqualTo(AbstractBenchmark.FORKS);
        assertThat(p.measurementMillis).isEqualTo(AbstractBenchmark.ITERATION_MILLIS);
        assertThat(p.note).isEmpty();
    }

    @Test
    void shortensIterationsToFitTheBudgetWhenNothingWasOverridden() {
        RunPlan p = RunPlan.plan(40, "", "", "", "", "", "600");
        assertThat(p.estimateSeconds()).isLessThanOrEqualTo(600);
        assertThat(p.measurementMillis).isLessThan(AbstractBenchmark.ITERATION_MILLIS).isGreaterThanOrEqualTo(RunPlan.MIN_ITERATION_MILLIS);
        assertThat(p.forks).isEqualTo(AbstractBenchmark.FORKS);
        assertThat(p.note).contains("shortened");
    }

    @Test
    void saysSoWhenEvenTheShortestIterationsMissTheBudget() {
        RunPlan p = RunPlan.plan(100, "", "", "", "", "", "600");
        assertThat(p.measurementMillis).isEqualTo(RunPlan.MIN_ITERATION_MILLIS);
        assertThat(p.note).contains("still ~").contains("raise -Djmh.budget or narrow -Djmh.include");
    }

    @Test
    void keepsExplicitSettingsEvenOverBudget() {
        RunPlan p = RunPlan.plan(100, "4", "", "", "10", "2s", "60");
        assertThat(p.forks).isEqualTo(4);
        assertThat(p.iterations).isEqualTo(10);
        assertThat(p.measurementMillis).isEqualTo(2000);
        assertThat(p.note).isEmpty();
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
    void theBudgetNeverShortensWhatWasGivenAfterTheDashes() throws CommandLineOptionException {
        // control: shortensIterationsToFitTheBudgetWhenNothingWasOverridden, the same plan without the option
        RunPlan p = RunPlan.plan(40, new CommandLineOptions("-r", "1s"), "", "", "", "", "", "600");
        assertThat(p.measurementMillis).isEqualTo(1000);
        assertThat(p.warmupMillis).isEqualTo(AbstractBenchmark.ITERATION_MILLIS);
        assertThat(p.note).isEmpty();
    }

    @Test
    void rejectsMalformedSettingsInOneLine() {
        assertThatThrownBy(() -> RunPlan.plan(1, "two", "", "", "", "", "")).hasMessage("-Djmh.forks must be a non-negative integer, got 'two'");
        assertThatThrownBy(() -> RunPlan.plan(1, "", "", "", "", "soon", "")).hasMessageContaining("-Djmh.time must be a JMH time");
        assertThatThrownBy(() -> RunPlan.plan(1, "", "", "", "0", "", "")).hasMessageContaining("-Djmh.iterations must be a positive integer");
    }
}
