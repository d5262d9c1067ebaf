package io.hotpath.jmh.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The written Result on canned-line-result.json (4 forks x (8 + 4) x 1 s; 125.55 ns/op +- 11.3, 264.004 B/op, ...). The
 * expected text is what broker-dist's QuotedResultsTest accepts for the same file: the writer and the check agree on
 * the format.
 */
class ResultSectionTest {

    static final String COMMAND = "bin/hotpath jmh --line 9.9.9";
    static final String EXPECTED = "Result (JMH 1.37, JDK 17.0.15, 4 forks x (8 + 4) x 1 s, -prof gc:"
        + " docs/results/jmh-9.9.9-2026-01-01.json from `bin/hotpath jmh --line 9.9.9`; stock -> patched, ns/op"
        + " (+- JMH's 99.9 % error) and B/op):\n"
        + "A note without figures.\n"
        + "- PropertiesEncodeBenchmark corpus=small5: upstream490 125.6 (+-9 %) -> hotpath 77.9 (+-7 %) ns/op;"
        + " 264 -> 144 B/op\n"
        + "- PropertiesEncodeBenchmark corpus=large12: upstream490 1822 (+-7 %) -> hotpath 815.8 (+-5 %) ns/op;"
        + " 1595 -> 506 B/op\n";

    private static final LineQuotes QUOTES = LineQuotes.parse("9.9.9", List.of(
        "0001 note A note without figures.",
        "0001 PropertiesEncodeBenchmark corpus=small5,large12 upstream490 -> hotpath"));

    static JmhResults canned() throws IOException {
        return JmhResults.parse(cannedJson());
    }

    static String cannedJson() throws IOException {
        try (InputStream in = ResultSectionTest.class.getResourceAsStream("canned-line-result.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void writesTheHeaderNotesAndOneLinePerQuotedParameterValue() throws IOException {
        assertThat(ResultSection.write(QUOTES, "0001", canned(), "docs/results/jmh-9.9.9-2026-01-01.json", COMMAND))
            .isEqualTo(EXPECTED);
    }

    @Test
    void roundsHalfUpAtThePrintedPrecision() {
        assertThat(ResultSection.nanos(125.55)).isEqualTo("125.6");
        assertThat(ResultSection.nanos(999.94)).isEqualTo("999.9");
        assertThat(ResultSection.nanos(1822.5)).isEqualTo("1823");
        assertThat(ResultSection.percent(13.81, 125.55)).isEqualTo("11");
        assertThat(ResultSection.bytes(1594.5)).isEqualTo("1595");
    }

    @Test
    void aPatchWithoutQuotesIsAnErrorAQuoteTheRunDidNotMeasureIsNotQuoted() throws IOException {
        JmhResults results = canned();
        assertThatThrownBy(() -> ResultSection.write(QUOTES, "0002", results, "f.json", COMMAND)).hasMessageContaining("quotes nothing");
        LineQuotes medium = LineQuotes.parse("9.9.9", List.of("0001 PropertiesEncodeBenchmark corpus=medium upstream490 -> hotpath"));
        assertThat(ResultSection.write(medium, "0001", results, "f.json", COMMAND)).isEqualTo(ResultSection.NONE
            + " (f.json: PropertiesEncodeBenchmark corpus=medium (not in this run)).\n");
    }

    @Test
    void aRowWithoutAnErrorEstimateIsNotQuoted() throws IOException {
        // what JMH writes for a single measurement (one fork, one iteration)
        JmhResults single = JmhResults.parse(cannedJson().replaceFirst("\"scoreError\": 11.3", "\"scoreError\": \"NaN\""));
        assertThat(ResultSection.write(QUOTES, "0001", single, "f.json", COMMAND))
            .contains("Not quoted, no quotable row in this run: PropertiesEncodeBenchmark corpus=small5 (upstream490: no error"
                + " estimate).");
    }

    /** The controls of the quotable rules: a noisy row, a short warm-up, few forks, short iterations. */
    @Test
    void aNoisyRowOrARunShorterThanTheProjectsSettingsIsNotQuoted() throws IOException {
        // 13.81 of 125.55: 11 %
        JmhResults noisy = JmhResults.parse(cannedJson().replaceFirst("\"scoreError\": 11.3", "\"scoreError\": 13.81"));
        assertThat(ResultSection.write(QUOTES, "0001", noisy, "f.json", COMMAND))
            .doesNotContain("corpus=small5: upstream490")
            .contains("- PropertiesEncodeBenchmark corpus=large12: upstream490 1822")
            .endsWith("Not quoted, no quotable row in this run: PropertiesEncodeBenchmark corpus=small5 (upstream490: error"
                + " 11 % of the score).\n");
        // the 3 s warm-up most patches quoted before this check
        JmhResults shortWarmup = JmhResults.parse(cannedJson().replace("\"warmupIterations\": 8", "\"warmupIterations\": 3"));
        assertThat(ResultSection.write(QUOTES, "0001", shortWarmup, "f.json", COMMAND)).startsWith(ResultSection.NONE)
            .contains("corpus=small5 (upstream490: warm-up 3 x 1 s, hotpath: warm-up 3 x 1 s)");
        JmhResults threeForks = JmhResults.parse(cannedJson().replace("\"forks\": 4", "\"forks\": 3"));
        assertThat(ResultSection.write(QUOTES, "0001", threeForks, "f.json", COMMAND)).startsWith(ResultSection.NONE)
            .contains("upstream490: 3 forks");
        JmhResults shortIterations = JmhResults.parse(cannedJson().replace("\"measurementTime\": \"1 s\"",
            "\"measurementTime\": \"500 ms\""));
        assertThat(ResultSection.write(QUOTES, "0001", shortIterations, "f.json", COMMAND)).startsWith(ResultSection.NONE)
            .contains("upstream490: measurement 4 x 500 ms");
    }

    @Test
    void theHeaderNamesTheCommandTheSummaryBesideTheFileRecords(@TempDir Path dir) throws IOException {
        Path json = Files.writeString(dir.resolve("jmh-all-lines-2026-01-01.json"), "[]");
        assertThat(ResultSection.command(json, "9.9.9")).isEqualTo("bin/hotpath jmh --line 9.9.9");
        Files.writeString(dir.resolve("jmh-all-lines-2026-01-01.md"), "# JMH summary\n\n- Command: `bin/hotpath jmh` -> `mvn -B"
            + " -pl jmh verify`\n");
        assertThat(ResultSection.command(json, "9.9.9")).isEqualTo("bin/hotpath jmh");
    }

    @Test
    void rewritesOnlyTheResultSectionOfEachPatch(@TempDir Path dir) throws IOException {
        String before = "From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\nMotivation:\nm\n\nResult (JMH old):\n"
            + "- encode small5 145.0 -> 95.5 ns/op\nprose 5.5.1 116.0\n---\n a.java | 1 +\n\ndiff --git a/a.java b/a.java\n"
            + "+Result (not a message)\n";
        Path patch = dir.resolve("0001-common-codec.patch");
        Files.write(patch, before.getBytes(StandardCharsets.UTF_8));
        PatchResults.rewrite(dir, QUOTES, canned(), "docs/results/jmh-9.9.9-2026-01-01.json", COMMAND);
        assertThat(new String(Files.readAllBytes(patch), StandardCharsets.UTF_8)).isEqualTo(
            "From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\nMotivation:\nm\n\n" + EXPECTED
                + "---\n a.java | 1 +\n\ndiff --git a/a.java b/a.java\n+Result (not a message)\n");
    }
}
