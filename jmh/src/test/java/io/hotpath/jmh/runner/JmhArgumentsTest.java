package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * The runner's own JMH options, then the options after {@code --} unchanged, the user's winning. The controls show
 * what JMH itself does with a repeated option, i.e. why the runner has to leave its own out.
 */
class JmhArgumentsTest {

    private static JmhArguments after(String... passThrough) {
        return new JmhArguments(Arrays.asList(passThrough));
    }

    private static CommandLineOptions asJmhReadsIt(JmhArguments args) throws CommandLineOptionException {
        return new CommandLineOptions(args.toList().toArray(new String[0]));
    }

    @Test
    void appendsThePassThroughUnchangedAndInOrderAfterTheRunnersOwn() throws CommandLineOptionException {
        JmhArguments args = after("-jvmArgsAppend", "-XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation",
            "-p", "corpus=small5", "it's \"quoted\"");
        args.include(BenchmarkRunner.DEFAULT_INCLUDE).option("-f", "2").gcProfiler();

        assertThat(args.toList()).containsExactly("-f", "2", "-prof", "gc", "-jvmArgsAppend",
            "-XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation", "-p", "corpus=small5", "it's \"quoted\"");
        // JMH itself splits -jvmArgsAppend's one argument into JVM flags
        assertThat(asJmhReadsIt(args).getJvmArgsAppend().get())
            .containsExactly("-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintCompilation");
    }

    @Test
    void jmhRefusesASingleValuedOptionGivenTwice() {
        assertThatThrownBy(() -> new CommandLineOptions("-f", "2", "-f", "1"))
            .isInstanceOf(CommandLineOptionException.class).hasMessageContaining("multiple arguments for option f");
    }

    @Test
    void theUsersSettingsReplaceTheRunnersOwn() throws CommandLineOptionException {
        JmhArguments args = after("-f", "1", "-wi=2", "-i", "3", "-w", "500ms", "-r1s", "-foe", "false");
        args.option("-f", "2").option("-wi", "3").option("-w", "1s").option("-i", "5").option("-r", "1s")
            .option("-foe", "true");

        CommandLineOptions jmh = asJmhReadsIt(args);
        assertThat(jmh.getForkCount().get()).isEqualTo(1);
        assertThat(jmh.getWarmupIterations().get()).isEqualTo(2);
        assertThat(jmh.getMeasurementIterations().get()).isEqualTo(3);
        assertThat(jmh.getWarmupTime().get().toString()).isEqualTo("500 ms");
        assertThat(jmh.shouldFailOnError().get()).isFalse();
        assertThat(args.leftOut()).containsExactly("-f", "2", "-wi", "3", "-w", "1s", "-i", "5", "-r", "1s", "-foe", "true");
    }

    @Test
    void keepsTheRunnersSettingsThatThePassThroughDoesNotGive() throws CommandLineOptionException {
        JmhArguments args = after("-i", "3");
        args.option("-f", "2").option("-i", "5");

        assertThat(args.toList()).containsExactly("-f", "2", "-i", "3");
        assertThat(args.leftOut()).containsExactly("-i", "5");
    }

    @Test
    void jmhRunsTheUnionOfRepeatedBenchmarkRegexpsAndParamValues() throws CommandLineOptionException {
        CommandLineOptions jmh = new CommandLineOptions("A", "-p", "corpus=small5", "B", "-p", "corpus=large12");
        assertThat(jmh.getIncludes()).containsExactly("A", "B");
        assertThat(jmh.getParameter("corpus").get()).containsExactly("small5", "large12");
    }

    @Test
    void benchmarksNamedAfterTheDashesReplaceTheRunnersSelection() throws CommandLineOptionException {
        JmhArguments args = after("PropertiesParseBenchmark.upstream490$");
        args.include(BenchmarkRunner.DEFAULT_INCLUDE).exclude("Persisted");

        assertThat(asJmhReadsIt(args).getIncludes()).containsExactly("PropertiesParseBenchmark.upstream490$");
        assertThat(asJmhReadsIt(args).getExcludes()).containsExactly("Persisted");
    }

    @Test
    void aParameterSetAfterTheDashesReplacesThatParameterOnly() throws CommandLineOptionException {
        JmhArguments args = after("-p", "corpus=small5");
        args.param("corpus", "small5,large12").param("header", "V1,V2");

        CommandLineOptions jmh = asJmhReadsIt(args);
        assertThat(jmh.getParameter("corpus").get()).containsExactly("small5");
        assertThat(jmh.getParameter("header").get()).containsExactly("V1", "V2");
    }

    @Test
    void theGcProfilerRunsOnceAndOtherProfilersBesideIt() {
        assertThat(after("-prof", "gc").gcProfiler().toList()).containsExactly("-prof", "gc");
        assertThat(after("-prof", "org.openjdk.jmh.profile.GCProfiler").gcProfiler().toList())
            .containsExactly("-prof", "org.openjdk.jmh.profile.GCProfiler");
        assertThat(after("-prof", "stack").gcProfiler().toList()).containsExactly("-prof", "gc", "-prof", "stack");
    }

    @Test
    void resultFormatOrFileAfterTheDashesReplacesBothOfTheRunners() {
        JmhArguments csv = after("-rf", "csv");
        assertThat(csv.results("json", "/t/jmh-result.json")).isFalse();
        assertThat(csv.toList()).containsExactly("-rf", "csv");

        JmhArguments own = after();
        assertThat(own.results("json", "/t/jmh-result.json")).isTrue();
        assertThat(own.toList()).containsExactly("-rf", "json", "-rff", "/t/jmh-result.json");
    }

    @Test
    void knowsWhenThePassThroughChoosesBenchmarks() {
        List<String> params = Arrays.asList("corpus", "header");
        assertThat(after("-f", "1", "-prof", "stack").givesSelection(params)).isFalse();
        assertThat(after("Parse").givesSelection(params)).isTrue();
        assertThat(after("-e", "Parse").givesSelection(params)).isTrue();
        assertThat(after("-p", "header=V1").givesSelection(params)).isTrue();
    }

    @Test
    void whatJmhRejectsIsOneLineSayingWhere() {
        assertThatThrownBy(() -> after("-f", "two")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("JMH rejects the options after --: ");
        assertThatThrownBy(() -> after("-f", "1", "-f", "2"))
            .hasMessageContaining("multiple arguments for option f");
    }

    @Test
    void showsAnArgumentWithSpacesOrQuotesAsOneShellWord() {
        assertThat(JmhArguments.shellWords(Arrays.asList("-jvmArgsAppend", "-XX:+A -XX:+B", "it's", "X.y$", "-f", "1")))
            .isEqualTo("-jvmArgsAppend '-XX:+A -XX:+B' 'it'\\''s' 'X.y$' -f 1");
    }

    @Test
    void aPartOfTheRunSwapsTheIncludesAndTheRunnersForkCount() throws CommandLineOptionException {
        JmhArguments args = after("-p", "corpus=small5");
        args.include("A").include("B").option("-f", "4").gcProfiler();

        assertThat(args.part("C", 1)).containsExactly("C", "-f", "1", "-prof", "gc", "-p", "corpus=small5");
        assertThat(args.toList()).containsExactly("A", "B", "-f", "4", "-prof", "gc", "-p", "corpus=small5");
    }

    @Test
    void aPartKeepsTheUsersForkCount() throws CommandLineOptionException {
        JmhArguments args = after("-f", "2");
        args.include("A").option("-f", "4");

        CommandLineOptions part = new CommandLineOptions(args.part("C", 1).toArray(new String[0]));
        assertThat(part.getForkCount().get()).isEqualTo(2);
        assertThat(part.getIncludes()).containsExactly("C");
    }
}
