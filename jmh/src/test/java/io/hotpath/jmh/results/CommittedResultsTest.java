package io.hotpath.jmh.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every committed JMH Result is what {@code bin/hotpath jmh --line <R> --write-results <the file it names>} writes
 * today from the line's .quotes: a Result edited by hand, or one the writer's rules (quotable rows only) would no
 * longer write, fails here. broker-dist's QuotedResults checks the figures against the file independently.
 */
class CommittedResultsTest {

    private static final Path ROOT = Paths.get(System.getProperty("hotpath.project.root", "..")).toAbsolutePath().normalize();
    private static final Pattern FILE = Pattern.compile("^Result \\(.*?: (docs/results/[\\w.+-]+\\.json)\\b.*", Pattern.DOTALL);

    static java.util.List<String> lines() throws IOException {
        return LineQuotesTest.lines();
    }

    @ParameterizedTest(name = "line {0}")
    @MethodSource("lines")
    void everyJmhResultIsWhatTheWriterMakesOfTheFileItNames(String line) throws IOException {
        LineQuotes quotes = LineQuotes.load(line);
        try (DirectoryStream<Path> patches = Files.newDirectoryStream(ROOT.resolve("patches").resolve(line), "*.patch")) {
            for (Path p : patches) {
                String number = p.getFileName().toString().substring(0, 4);
                if (quotes.endToEnd().contains(number)) {
                    continue;
                }
                String text = Files.readString(p, StandardCharsets.UTF_8);
                int end = text.indexOf("\n---\n");
                String section = text.substring(text.lastIndexOf("\nResult (", end) + 1, end + 1);
                Matcher m = FILE.matcher(section);
                assertThat(m.matches()).as("%s names a docs/results/ file: %s", p, section).isTrue();
                Path file = ROOT.resolve(m.group(1));
                JmhResults results = JmhResults.parse(Files.readString(file, StandardCharsets.UTF_8));
                assertThat(section).as("%s: bin/hotpath jmh --line %s --write-results %s", p.getFileName(), line, m.group(1))
                    .isEqualTo(ResultSection.write(quotes, number, results, m.group(1), ResultSection.command(file, line)));
            }
        }
    }
}
