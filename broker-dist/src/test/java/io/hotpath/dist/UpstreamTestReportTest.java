package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verdict on upstream's own tests: what counts as a new failure, and what surefire's reports say. */
class UpstreamTestReportTest {

    private static final SurefireReports.Outcome PASSED = SurefireReports.Outcome.PASSED;
    private static final SurefireReports.Outcome FLAKY = SurefireReports.Outcome.FLAKY;
    private static final SurefireReports.Outcome FAILED = SurefireReports.Outcome.FAILED;
    private static final SurefireReports.Outcome SKIPPED = SurefireReports.Outcome.SKIPPED;

    @Test
    void aTestThatPassesOnStockAndFailsIsSkippedOrMissingOnPatchedIsANewFailure() {
        Map<String, SurefireReports.Outcome> stock = outcomes("A#a", PASSED, "A#b", PASSED, "A#c", FLAKY, "A#d", PASSED);
        Map<String, SurefireReports.Outcome> patched = outcomes("A#a", FAILED, "A#b", SKIPPED, "A#c", FAILED);
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("store", stock), Map.of("store", patched), Map.of());
        assertThat(report.passed()).isFalse();
        assertThat(report.newFailures()).containsExactly("store: A#a (failed on patched)", "store: A#b (skipped on patched)",
            "store: A#c (failed on patched)", "store: A#d (not run on patched)");
        assertThat(report.markdown()).contains("New failures (pass on stock, not on patched): 4");
    }

    @Test
    void stockFailuresAndFlakyPassesAreReportedButAreNoNewFailure() {
        Map<String, SurefireReports.Outcome> stock = outcomes("A#a", FAILED, "A#b", PASSED, "A#c", SKIPPED);
        Map<String, SurefireReports.Outcome> patched = outcomes("A#a", FAILED, "A#b", FLAKY, "A#c", SKIPPED);
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("broker", stock), Map.of("broker", patched),
            Map.of("org.example.TlsTest", "needs X"));
        assertThat(report.passed()).isTrue();
        assertThat(report.stockFailures()).containsExactly("broker: A#a");
        assertThat(report.flaky()).containsExactly("broker: A#b (patched)");
        assertThat(report.modules().get("broker").stock()).isEqualTo(new UpstreamTestReport.Counts(2, 1, 1, 1));
        assertThat(report.modules().get("broker").patched()).isEqualTo(new UpstreamTestReport.Counts(2, 1, 1, 1));
        assertThat(report.markdown()).contains("| broker | 2 | 1 | 1 | 1 | 2 | 1 | 1 | 1 |", "- org.example.TlsTest: needs X",
            "- broker: A#b (patched)");
        assertThat(report.json()).contains("\"passed\": true", "\"broker\": {\"stock\": {\"run\": 2, \"passed\": 1",
            "\"excluded\": {\"org.example.TlsTest\": \"needs X\"}");
    }

    @Test
    void readsEveryOutcomeFromSurefireXml(@TempDir Path module) throws IOException {
        Path reports = Files.createDirectories(module.resolve("target/surefire-reports"));
        Files.writeString(reports.resolve("TEST-org.example.ATest.xml"), """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuite name="org.example.ATest" tests="5" failures="1" errors="1" skipped="1">
              <testcase name="passes" classname="org.example.ATest" time="0.1"/>
              <testcase name="fails" classname="org.example.ATest" time="0.1"><failure message="x">boom</failure></testcase>
              <testcase name="errs" classname="org.example.ATest" time="0.1"><error message="y">bang</error></testcase>
              <testcase name="skips" classname="org.example.ATest" time="0"><skipped/></testcase>
              <testcase name="flakes" classname="org.example.ATest" time="0.2"><flakyFailure message="z">once</flakyFailure></testcase>
            </testsuite>
            """, StandardCharsets.UTF_8);
        Files.writeString(reports.resolve("org.example.ATest.txt"), "not a report", StandardCharsets.UTF_8);
        assertThat(SurefireReports.read(module)).containsExactly(
            Map.entry("org.example.ATest#passes", PASSED), Map.entry("org.example.ATest#fails", FAILED),
            Map.entry("org.example.ATest#errs", FAILED), Map.entry("org.example.ATest#skips", SKIPPED),
            Map.entry("org.example.ATest#flakes", FLAKY));
    }

    @Test
    void aModuleWithoutReportsHasNoOutcomes(@TempDir Path module) {
        assertThat(SurefireReports.read(module)).isEmpty();
    }

    private static Map<String, SurefireReports.Outcome> outcomes(Object... pairs) {
        Map<String, SurefireReports.Outcome> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], (SurefireReports.Outcome) pairs[i + 1]);
        }
        return map;
    }
}
