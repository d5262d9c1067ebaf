package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every patch of every line: its Result quotes a committed JMH result file (docs/results/jmh-*.json), or for an
 * end-to-end patch a campaign file, every figure it prints is that file's, at the precision printed, from quotable rows
 * and resolved verdicts only, and a subject that says faster holds beyond the errors ({@link QuotedResults}). Needs no
 * upstream tree, so it runs in the plain unit tests. Refreshed by `bin/hotpath jmh --line <release> --to-docs` on a
 * quiet machine, then `bin/hotpath jmh --line <release> --write-results <that file>`.
 */
class PatchResultsTest {

    @Test
    void everyFigureOfEveryResultIsTheQuotedResultFilesAtItsPrintedPrecision() throws IOException {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        for (ReleaseLine line : ReleaseLine.all(BuiltDistributions.projectRoot().resolve("patches"))) {
            for (PatchSeries.Patch patch : PatchSeries.read(line.dir()).patches()) {
                String message = PatchGenerator.messagePart(Files.readString(patch.file(), StandardCharsets.UTF_8));
                List<String> of = QuotedResults.problems(message, BuiltDistributions.projectRoot());
                if (!of.isEmpty()) {
                    problems.put(line.release() + "/" + patch.name(), of);
                }
            }
        }
        assertThat(problems).as("refresh with bin/hotpath jmh --line <release> --to-docs (a quiet machine), then bin/hotpath jmh"
            + " --line <release> --write-results docs/results/jmh-<release>-<date>.json").isEmpty();
    }
}
