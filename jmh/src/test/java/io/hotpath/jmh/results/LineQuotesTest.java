package io.hotpath.jmh.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

class LineQuotesTest {

    private static final Path PATCHES = Paths.get("../patches");

    static List<String> lines() throws IOException {
        List<String> lines = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PATCHES, Files::isDirectory)) {
            for (Path d : dirs) {
                if (Files.isRegularFile(d.resolve("line.properties"))) {
                    lines.add(d.getFileName().toString());
                }
            }
        }
        lines.sort(null);
        return lines;
    }

    @ParameterizedTest(name = "line {0}")
    @MethodSource("lines")
    void everyPatchOfEveryLineQuotesSomething(String line) throws IOException {
        TreeSet<String> numbers = new TreeSet<>();
        try (DirectoryStream<Path> patches = Files.newDirectoryStream(PATCHES.resolve(line), "*.patch")) {
            for (Path p : patches) {
                numbers.add(p.getFileName().toString().substring(0, 4));
            }
        }
        LineQuotes quotes = LineQuotes.load(line);
        TreeSet<String> quoted = new TreeSet<>(quotes.patches());
        quoted.addAll(quotes.endToEnd());
        assertThat(quoted).containsExactlyElementsOf(numbers);
    }

    @ParameterizedTest(name = "line {0}")
    @MethodSource("lines")
    void everyQuotedMethodAndParameterValueIsABenchmarks(String line) {
        List<BenchmarkListEntry> entries = new ArrayList<>(BenchmarkList.defaultList().find(
            OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(".*"), List.of()));
        LineQuotes quotes = LineQuotes.load(line);
        for (String patch : quotes.patches()) {
            for (LineQuotes.Comparison c : quotes.comparisons(patch)) {
                for (String method : new String[] {c.stock, c.patched}) {
                    Optional<BenchmarkListEntry> entry = entries.stream()
                        .filter(e -> e.getUsername().endsWith("." + c.benchmark + "." + method))
                        .findFirst();
                    assertThat(entry).as("%s.%s quoted by %s %s", c.benchmark, method, line, patch).isPresent();
                    org.openjdk.jmh.util.Optional<Map<String, String[]>> params = entry.get().getParams();
                    assertThat(params.hasValue() ? Arrays.asList(params.get().getOrDefault(c.param, new String[0]))
                        : List.<String>of()).as("%s @Param %s", c.benchmark, c.param).containsAll(c.values);
                }
            }
        }
    }

    @Test
    void theIncludeMatchesExactlyTheQuotedMethods() {
        LineQuotes quotes = LineQuotes.parse("x", List.of(
            "0001 PropertiesEncodeBenchmark corpus=small5,large12 upstream490 -> hotpath",
            "0002 PersistedPropertiesBenchmark shape=small5 upstream490 -> hotpath"));
        Pattern include = Pattern.compile(quotes.include());
        assertThat(include.matcher("io.hotpath.jmh.codec.PropertiesEncodeBenchmark.hotpath").find()).isTrue();
        assertThat(include.matcher("io.hotpath.jmh.store.PersistedPropertiesBenchmark.upstream490").find()).isTrue();
        assertThat(include.matcher("io.hotpath.jmh.codec.PropertiesEncodeBenchmark.hotpath491").find()).isFalse();
        assertThat(include.matcher("io.hotpath.jmh.store.PersistedPropertiesEncodeBenchmark.hotpath").find()).isFalse();
        assertThat(include.matcher("io.hotpath.jmh.codec.PropertiesParseBenchmark.hotpath").find()).isFalse();
        assertThat(quotes.params()).containsOnlyKeys("corpus", "shape");
        assertThat(quotes.params().get("corpus")).containsExactly("small5", "large12");
    }

    @Test
    void aNoteCarriesNoFigures() {
        assertThatThrownBy(() -> LineQuotes.parse("x", List.of("0001 note encode takes 95.5 ns/op")))
            .hasMessageContaining("a note carries no figures");
        assertThatThrownBy(() -> LineQuotes.parse("x", List.of("0001 PropertiesEncodeBenchmark upstream490 -> hotpath")))
            .hasMessageContaining("not '<NNNN> <Benchmark>");
    }

    @Test
    void aCampaignPatchQuotesNoBenchmark() {
        LineQuotes quotes = LineQuotes.parse("x", List.of(
            "0001 PropertiesEncodeBenchmark corpus=small5 upstream490 -> hotpath", "0002 campaign"));
        assertThat(quotes.patches()).containsExactly("0001");
        assertThat(quotes.endToEnd()).containsExactly("0002");
        assertThatThrownBy(() -> LineQuotes.parse("x", List.of(
            "0002 PropertiesEncodeBenchmark corpus=small5 upstream490 -> hotpath", "0002 campaign")))
            .hasMessageContaining("patch 0002 quotes a campaign");
    }
}
