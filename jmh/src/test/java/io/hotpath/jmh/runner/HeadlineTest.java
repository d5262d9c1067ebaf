package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import io.hotpath.jmh.AbstractBenchmark;
import io.hotpath.jmh.results.LineQuotes;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The default run ({@code mvn -pl jmh verify} with no selection): what JMH selects from its generated benchmark list
 * for it, the settings, and the time per line that the settings and selection add up to.
 */
class HeadlineTest {

    private static final int PER_LINE = Headline.BENCHMARKS.size() * 2; // each benchmark: the line's stock and one drop-in

    @Test
    void selectsEachLinesStockAndOneDropInOnEveryHeadlineBenchmarkWithOneParameterValue() throws Exception {
        CommandLineOptions all = defaultSelection();
        // each line's rows (a drop-in two lines share once) and the two machine-control rows
        int shared = LineMethods.ALL.size() - Headline.groups().size();
        assertThat(BenchmarkRunner.combinations(all))
            .isEqualTo(LineMethods.ALL.size() * PER_LINE - shared * Headline.BENCHMARKS.size() + 2).isEqualTo(30);
        for (LineMethods line : LineMethods.ALL) {
            List<String> methods = new ArrayList<>();
            for (BenchmarkListEntry e : entries(List.of(Headline.include(line)))) {
                String name = e.getUsername();
                methods.add(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1));
            }
            assertThat(methods).as("line %s", line.release()).hasSize(PER_LINE);
            for (String benchmark : Headline.BENCHMARKS) {
                List<String> own = methods.stream().filter(m -> m.startsWith(benchmark + ".")).toList();
                assertThat(own).as("%s on line %s", benchmark, line.release()).hasSize(2)
                    .contains(benchmark + "." + line.stock());
            }
        }
        assertThat(new TreeSet<>(all.getParameter("corpus").get())).containsExactly("large12");
        assertThat(new TreeSet<>(all.getParameter("shape").get())).containsExactly("large12");
        assertThat(new TreeSet<>(all.getParameter("header").get())).containsExactly("V2");
    }

    @Test
    void runsTheControlBeforeTheFirstLineAndAfterEveryLineSoThatItsForksAddUpToALinesForkCount() throws Exception {
        List<Headline.Part> parts = Headline.parts();
        assertThat(parts).hasSize(2 * Headline.groups().size() + 1);
        for (int i = 0; i < parts.size(); i++) {
            Headline.Part part = parts.get(i);
            assertThat(part.control()).as("part %d", i).isEqualTo(i % 2 == 0);
            List<String> methods = new ArrayList<>();
            for (BenchmarkListEntry e : entries(List.of(part.include()))) {
                methods.add(e.getUsername());
            }
            if (part.control()) {
                assertThat(methods).hasSize(2).allMatch(m -> m.contains("." + Headline.CONTROL + "."));
            } else {
                assertThat(part.include()).isEqualTo(Headline.include(Headline.groups().get(i / 2)));
            }
        }
        // the control's forks over the whole run: as many as a line's rows get in one part
        assertThat(Headline.CONTROL_FORKS_PER_PART * (Headline.groups().size() + 1))
            .isEqualTo(RunPlan.plan(PER_LINE, "", "", "", "", "", "").forks);
    }

    @Test
    void runsEachLineWithFourForksAndOneSecondIterationsInEightMinutes() {
        RunPlan line = RunPlan.plan(PER_LINE, "", "", "", "", "", "");
        assertThat(line.forks).isEqualTo(4);
        assertThat(line.warmupIterations).isEqualTo(8);
        assertThat(line.iterations).isEqualTo(4);
        assertThat(line.warmupMillis).isEqualTo(line.measurementMillis).isEqualTo(AbstractBenchmark.ITERATION_MILLIS).isEqualTo(1000);
        // 8 methods x 4 forks x ((8 + 4) x 1 s + 3 s fork start-up) = 480 s
        assertThat(line.estimateSeconds()).isEqualTo(480.0).isLessThanOrEqualTo(8 * 60);
        // the four lines (28 rows: 5.5.1 adds its stock's 4) and the two control rows
        assertThat(RunPlan.plan(3 * PER_LINE + 4 + 2, "", "", "", "", "", "").estimateSeconds()).isLessThanOrEqualTo(30 * 60);
    }

    @Test
    void appliesOnlyWhenNothingElseSelects() {
        JmhArguments none = new JmhArguments(List.of());
        assertThat(Headline.applies("", "", "", "", none)).isTrue();
        assertThat(Headline.applies("headline", "", "", "", none)).isTrue();
        assertThat(Headline.applies("full", "", "", "", none)).isFalse();
        assertThat(Headline.applies("", "Parse", "", "", none)).isFalse();
        assertThat(Headline.applies("", "", "Floor", "", none)).isFalse();
        assertThat(Headline.applies("", "", "", "corpus=small5", none)).isFalse();
        assertThat(Headline.applies("", "", "", "", new JmhArguments(List.of("Parse")))).isFalse();
        assertThat(Headline.applies("", "", "", "", new JmhArguments(List.of("-p", "header=V1")))).isFalse();
        // settings after -- keep the default selection
        assertThat(Headline.applies("", "", "", "", new JmhArguments(List.of("-f", "1", "-prof", "stack")))).isTrue();
    }

    @Test
    void refusesAnUnknownMatrixOrAHeadlineWithASelectionInOneLine() {
        JmhArguments none = new JmhArguments(List.of());
        assertThatThrownBy(() -> Headline.applies("all", "", "", "", none))
            .hasMessage("-Djmh.matrix must be headline (the default) or full, got 'all'");
        assertThatThrownBy(() -> Headline.applies("headline", "Parse", "", "", none))
            .hasMessageStartingWith("-Djmh.matrix=headline is a fixed selection");
    }

    @Test
    void agreesWithWhatEachLinesPatchesQuote() {
        // two records of the same fact: LineMethods (the summary's and the default run's) and <line>.quotes
        for (LineMethods line : LineMethods.ALL) {
            LineQuotes quotes = LineQuotes.load(line.release());
            for (String patch : quotes.patches()) {
                for (LineQuotes.Comparison c : quotes.comparisons(patch)) {
                    assertThat(c.stock).as("%s %s %s", line.release(), patch, c.benchmark).isEqualTo(line.stock());
                    assertThat(line.dropIns()).as("%s %s %s", line.release(), patch, c.benchmark).contains(c.patched);
                }
            }
        }
    }

    @Test
    void measuresALineWhoseDropInsAnOlderLineHasInThatLinesPartWithEachDropInOnce() {
        assertThat(Headline.groups()).extracting(g -> g.stream().map(LineMethods::release).toList())
            .containsExactly(List.of("4.9.0"), List.of("4.9.8"), List.of("5.3.3", "5.5.1"));
        Headline.Part both = Headline.parts().get(5);
        assertThat(both.label()).isEqualTo("5.3.3 and 5.5.1 lines");
        List<String> rows = entries(List.of(both.include())).stream().map(BenchmarkListEntry::getUsername).toList();
        // per benchmark: the two stocks and the one drop-in both lines run, each once
        assertThat(rows).hasSize(3 * Headline.BENCHMARKS.size()).doesNotHaveDuplicates();
        assertThat(new TreeSet<>(rows.stream().map(n -> n.substring(n.lastIndexOf('.') + 1)).toList()))
            .containsExactly("hotpath520", "hotpath533", "upstream533", "upstream551");
        assertThat(LineMethods.forRelease("5.5.1")).map(LineMethods::stock).contains("upstream551");
        assertThat(LineMethods.forRelease("9.9.9")).isEmpty();
    }

    private static CommandLineOptions defaultSelection() throws CommandLineOptionException {
        JmhArguments args = new JmhArguments(List.of());
        Headline.select(args);
        return new CommandLineOptions(args.toList().toArray(new String[0]));
    }

    private static List<BenchmarkListEntry> entries(List<String> includes) {
        List<BenchmarkListEntry> out = new ArrayList<>();
        for (BenchmarkListEntry e : BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), includes, List.of())) {
            out.add(e);
        }
        return out;
    }
}
