package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdict on upstream's own tests: what counts as a new failure, what an accepted rerun is, that no module or
 * listed class may go unreported, and what surefire's reports say.
 */
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
        assertThat(report.markdown()).contains("New failures (judged on patched, not passing there): 4");
    }

    @Test
    void theTitleNamesWhoseTestsRanWhenTheyAreNotTheLinesOwn() {
        Map<String, Map<String, SurefireReports.Outcome>> outcomes = Map.of("store", outcomes("A#a", PASSED));
        UpstreamTestReport own = UpstreamTestReport.compare("5.3.3", outcomes, outcomes, Map.of());
        UpstreamTestReport skeleton = UpstreamTestReport.compare("5.5.1", outcomes, outcomes, Map.of()).withTestsOf("5.3.3");
        assertThat(own.markdown()).startsWith("Upstream 5.3.3's own unit tests, stock tree vs patched tree");
        assertThat(skeleton.markdown()).startsWith("Upstream 5.3.3's unit tests on the 5.5.1 tree (Central publishes no 5.5.1 tests")
            .doesNotContain("5.5.1's own");
        assertThat(skeleton.json()).contains("\"release\": \"5.5.1\"", "\"testsOf\": \"5.3.3\"");
    }

    @Test
    void stockFailuresAndRerunsNeededOnBothTreesAreReportedButAreNoNewFailure() {
        Map<String, SurefireReports.Outcome> stock = outcomes("A#a", FAILED, "A#b", FLAKY, "A#c", SKIPPED);
        Map<String, SurefireReports.Outcome> patched = outcomes("A#a", FAILED, "A#b", FLAKY, "A#c", SKIPPED);
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("broker", stock), Map.of("broker", patched),
            Map.of("org.example.TlsTest", "needs X"));
        assertThat(report.passed()).isTrue();
        assertThat(report.stockFailures()).containsExactly("broker: A#a");
        assertThat(report.flaky()).containsExactly("broker: A#b (stock)", "broker: A#b (patched, accepted: needed a rerun on stock too)");
        assertThat(report.modules().get("broker").stock()).isEqualTo(new UpstreamTestReport.Counts(2, 1, 1, 1));
        assertThat(report.modules().get("broker").patched()).isEqualTo(new UpstreamTestReport.Counts(2, 1, 1, 1));
        assertThat(report.markdown()).contains("| broker | 2 | 1 | 1 | 1 | 2 | 1 | 1 | 1 |", "- org.example.TlsTest: needs X",
            "- broker: A#b (patched, accepted: needed a rerun on stock too)", "Verdict: PASS");
        assertThat(report.json()).contains("\"passed\": true", "\"broker\": {\"stock\": {\"run\": 2, \"passed\": 1",
            "\"excluded\": {\"org.example.TlsTest\": \"needs X\"}");
    }

    @Test
    void aTestOnlyThePatchedTreeHasIsJudgedAndMustPassThere() {
        // a patch adds HeaderPropertiesTest, and a case to BrokerMetricsManagerTest: stock has neither
        Map<String, SurefireReports.Outcome> stock = outcomes("M#old", PASSED);
        Map<String, SurefireReports.Outcome> patched = outcomes("M#old", PASSED, "M#added", FAILED, "H#a", PASSED, "H#b", SKIPPED);
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("broker", stock), Map.of("broker", patched), Map.of());
        assertThat(report.passed()).isFalse();
        assertThat(report.newFailures()).containsExactly("broker: H#b (only on patched, skipped there)",
            "broker: M#added (only on patched, failed there)");

        Map<String, SurefireReports.Outcome> passing = outcomes("M#old", PASSED, "M#added", PASSED, "H#a", PASSED);
        assertThat(UpstreamTestReport.compare("9.9.9", Map.of("broker", stock), Map.of("broker", passing), Map.of()).passed())
            .isTrue();
    }

    @Test
    void aModuleThatWroteNoReportOnATreeFailsTheVerdict() {
        // 0 of 0 is no evidence: surefire found nothing to run, or never ran
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("store", Map.of(), "common", outcomes("C#a", PASSED)),
            Map.of("store", Map.of(), "common", outcomes("C#a", PASSED)), Map.of());
        assertThat(report.passed()).isFalse();
        assertThat(report.newFailures()).isEmpty();
        assertThat(report.missingReports()).containsExactlyInAnyOrder("store: no test report on stock", "store: no test report on patched");
        assertThat(report.markdown()).contains("Verdict: FAIL", "- store: no test report on patched");
    }

    @Test
    void aStockTreeAskedOnlyAboutWhatDidNotPassOnPatchedSaysSoAndJudgesTheRestAsBefore() {
        // store's A failed on patched: stock ran A (and passed it); common's C passed on patched: stock ran nothing there
        UpstreamTestReport.Listed onDemand = new UpstreamTestReport.Listed(Map.of("store", List.of("org.x.A"), "common", List.of()),
            Map.of("store", List.of("org.x.A"), "common", List.of("org.x.C")));
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9",
            Map.of("store", outcomes("org.x.A#a", PASSED), "common", Map.of()),
            Map.of("store", outcomes("org.x.A#a", FAILED), "common", outcomes("org.x.C#c", PASSED)), Map.of(), Map.of(), onDemand)
            .withStockScope("asked only about the listed classes that did not pass on the patched tree: org.x.A");
        assertThat(report.newFailures()).containsExactly("store: org.x.A#a (failed on patched)");
        assertThat(report.missingReports()).isEmpty();
        assertThat(report.markdown()).contains("Stock tree: asked only about the listed classes that did not pass on the patched"
            + " tree: org.x.A", "| common | 0 | 0 | 0 | 0 | 1 | 1 | 0 | 0 |");
        assertThat(report.json()).contains("\"stockScope\": \"asked only about");
        // a stock tree that ran everything says nothing of its scope
        assertThat(UpstreamTestReport.compare("9.9.9", Map.of("store", outcomes("org.x.A#a", PASSED)),
            Map.of("store", outcomes("org.x.A#a", PASSED)), Map.of()).markdown()).doesNotContain("Stock tree:");
    }

    @Test
    void aModuleWhoseListedClassesArePatchAddedOnlyNeedsNoReportOnStock() {
        // broker lists only H, which a patch adds: the stock tree has nothing to run there
        UpstreamTestReport.Listed onlyAdded = new UpstreamTestReport.Listed(Map.of("broker", List.of()), Map.of("broker", List.of("org.x.H")));
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("broker", Map.of()),
            Map.of("broker", outcomes("org.x.H#a", PASSED)), Map.of(), Map.of(), onlyAdded);
        assertThat(report.missingReports()).isEmpty();
        assertThat(report.passed()).isTrue();
        // it must still run on patched
        UpstreamTestReport notRun = UpstreamTestReport.compare("9.9.9", Map.of("broker", Map.of()), Map.of("broker", Map.of()),
            Map.of(), Map.of(), onlyAdded);
        assertThat(notRun.missingReports()).containsExactly("broker: no test report on patched",
            "broker: org.x.H is listed but wrote no report on patched");
        // a stock tree that had a listed class and wrote nothing still fails
        UpstreamTestReport stockListed = UpstreamTestReport.compare("9.9.9", Map.of("broker", Map.of()),
            Map.of("broker", outcomes("org.x.H#a", PASSED)), Map.of(), Map.of(),
            new UpstreamTestReport.Listed(Map.of("broker", List.of("org.x.H")), Map.of("broker", List.of("org.x.H"))));
        assertThat(stockListed.missingReports()).contains("broker: no test report on stock");
    }

    @Test
    void aPassOnPatchedOnlyAfterARerunFailsTheVerdictUnlessStockNeededOneToo() {
        Map<String, SurefireReports.Outcome> stock = outcomes("A#a", PASSED, "A#b", FLAKY);
        Map<String, SurefireReports.Outcome> patched = outcomes("A#a", FLAKY, "A#b", FLAKY);
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("store", stock), Map.of("store", patched), Map.of());
        assertThat(report.passed()).isFalse();
        assertThat(report.newFailures()).containsExactly("store: A#a (passed on patched only when surefire ran it again;"
            + " not known-flaky, and it needed no rerun on stock)");
        assertThat(report.flaky()).contains("store: A#b (patched, accepted: needed a rerun on stock too)");
    }

    @Test
    void aKnownFlakyTestMayPassOnPatchedAfterARerunAndTheReportSaysWhy() {
        Map<String, SurefireReports.Outcome> stock = outcomes("org.x.A#a", PASSED, "org.x.B#b", PASSED, "org.x.C#c", PASSED);
        Map<String, SurefireReports.Outcome> patched = outcomes("org.x.A#a", FLAKY, "org.x.B#b", FLAKY, "org.x.C#c", FLAKY);
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("store", stock), Map.of("store", patched), Map.of(),
            Map.of("org.x.A", "sleeps 5 ms for the reput", "org.x.B#b", "a 3 s deadline"), UpstreamTestReport.Listed.NONE);
        assertThat(report.newFailures()).containsExactly("store: org.x.C#c (passed on patched only when surefire ran it again;"
            + " not known-flaky, and it needed no rerun on stock)");
        assertThat(report.flaky()).containsExactly("store: org.x.A#a (patched, accepted: known flaky: sleeps 5 ms for the reput)",
            "store: org.x.B#b (patched, accepted: known flaky: a 3 s deadline)");
        assertThat(report.markdown()).contains("- store: org.x.A#a (patched, accepted: known flaky: sleeps 5 ms for the reput)");
    }

    @Test
    void aListedClassThatWroteNoReportOnATreeThatHasItFailsTheVerdict() {
        // store lists X, Y and Z; Z is added by a patch (expected on patched only); Y never ran, Z not on patched
        Map<String, SurefireReports.Outcome> stock = outcomes("org.x.X#a", PASSED);
        Map<String, SurefireReports.Outcome> patched = outcomes("org.x.X#a", PASSED);
        UpstreamTestReport.Listed listed = new UpstreamTestReport.Listed(Map.of("store", List.of("org.x.X", "org.x.Y")),
            Map.of("store", List.of("org.x.X", "org.x.Y", "org.x.Z")));
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("store", stock), Map.of("store", patched), Map.of(),
            Map.of(), listed);
        assertThat(report.passed()).isFalse();
        assertThat(report.mode()).isEqualTo("ci");
        assertThat(report.missingReports()).containsExactly("store: org.x.Y is listed but wrote no report on stock",
            "store: org.x.Y is listed but wrote no report on patched", "store: org.x.Z is listed but wrote no report on patched");
        // a class name that prefixes another (X of XTest) is not the other's report
        UpstreamTestReport prefixOnly = UpstreamTestReport.compare("9.9.9", Map.of("store", outcomes("org.x.XTest#a", PASSED)),
            Map.of("store", outcomes("org.x.XTest#a", PASSED)), Map.of(), Map.of(),
            new UpstreamTestReport.Listed(Map.of("store", List.of("org.x.X")), Map.of("store", List.of("org.x.X"))));
        assertThat(prefixOnly.missingReports()).hasSize(2);

        // upstream's skipAfterFailureCount=1: after a stock failure every later class of the module is written as skipped
        UpstreamTestReport afterAFailure = UpstreamTestReport.compare("9.9.9",
            Map.of("store", outcomes("org.x.X#a", FAILED, "org.x.Y#b", SKIPPED)),
            Map.of("store", outcomes("org.x.X#a", FAILED, "org.x.Y#b", SKIPPED, "org.x.Z#c", SKIPPED)), Map.of(), Map.of(), listed);
        assertThat(afterAFailure.newFailures()).containsExactly("store: org.x.Z#c (only on patched, skipped there)");
        assertThat(afterAFailure.missingReports()).containsExactly("store: org.x.Y is listed but ran no test on stock (all skipped)",
            "store: org.x.Y is listed but ran no test on patched (all skipped)",
            "store: org.x.Z is listed but ran no test on patched (all skipped)");
        assertThat(afterAFailure.passed()).isFalse();

        Map<String, SurefireReports.Outcome> all = outcomes("org.x.X#a", PASSED, "org.x.Y#b", PASSED);
        Map<String, SurefireReports.Outcome> allPatched = outcomes("org.x.X#a", PASSED, "org.x.Y#b", PASSED, "org.x.Z#c", PASSED);
        assertThat(UpstreamTestReport.compare("9.9.9", Map.of("store", all), Map.of("store", allPatched), Map.of(), Map.of(), listed)
            .passed()).isTrue();
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
    void aNewFailureCarriesSurefiresReasonFromThePatchedReports(@TempDir Path module) throws IOException {
        Path reports = Files.createDirectories(module.resolve("target/surefire-reports"));
        Files.writeString(reports.resolve("TEST-org.example.ATest.xml"), """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuite name="org.example.ATest" tests="3" failures="1" errors="1">
              <testcase name="passes" classname="org.example.ATest" time="0.1"/>
              <testcase name="fails" classname="org.example.ATest" time="0.1"><failure message="expected:&lt;10&gt; but was:&lt;11&gt;"
                type="java.lang.AssertionError">java.lang.AssertionError: expected...
            at org.example.ATest.fails(ATest.java:9)</failure></testcase>
              <testcase name="errs" classname="org.example.ATest" time="0.1"><error type="java.lang.IllegalStateException">no store
            at org.example.ATest.errs(ATest.java:12)</error></testcase>
            </testsuite>
            """, StandardCharsets.UTF_8);
        Map<String, String> messages = SurefireReports.failureMessages(module);
        assertThat(messages).containsExactly(
            Map.entry("org.example.ATest#fails", "java.lang.AssertionError: expected:<10> but was:<11>"),
            Map.entry("org.example.ATest#errs", "java.lang.IllegalStateException: no store"));

        Map<String, String> byId = new LinkedHashMap<>();
        messages.forEach((test, message) -> byId.put("store: " + test, message));
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9",
                Map.of("store", outcomes("org.example.ATest#passes", PASSED, "org.example.ATest#fails", PASSED,
                    "org.example.ATest#errs", PASSED)),
                Map.of("store", SurefireReports.read(module)), Map.of())
            .withFailureMessages(byId);
        assertThat(report.newFailures()).containsExactly(
            "store: org.example.ATest#errs (failed on patched): java.lang.IllegalStateException: no store",
            "store: org.example.ATest#fails (failed on patched): java.lang.AssertionError: expected:<10> but was:<11>");
        assertThat(report.markdown()).contains("expected:<10> but was:<11>");
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
