package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which classes upstream's skipAfterFailureCount=1 left unrun (and are run again), and that the report names them.
 * The module below is what 5.3.3's store module reported on stock in the CI rehearsal of 2026-11-27: one failure in
 * DLedgerCommitlogTest, then three listed classes with every test skipped.
 */
class SkipCascadeTest {

    private static final SurefireReports.Outcome PASSED = SurefireReports.Outcome.PASSED;
    private static final SurefireReports.Outcome FAILED = SurefireReports.Outcome.FAILED;
    private static final SurefireReports.Outcome SKIPPED = SurefireReports.Outcome.SKIPPED;

    @Test
    void theClassesWhoseEveryTestWasSkippedAfterAFailureAreRunAgain() {
        Map<String, SurefireReports.Outcome> store = new LinkedHashMap<>();
        store.put("store.ConsumeQueueTest#a", PASSED);
        store.put("store.dledger.DLedgerCommitlogTest#testTruncateCQ", FAILED);
        store.put("store.dledger.DLedgerCommitlogTest#ignored", SKIPPED);
        store.put("store.dledger.DLedgerCommitlogTest#b", PASSED);
        store.put("store.AppendPropCRCTest#initializationError", SKIPPED);
        store.put("store.BatchPutMessageTest#initializationError", SKIPPED);
        store.put("store.DefaultMessageStoreTest#initializationError", SKIPPED);
        assertThat(SkipCascade.skippedAfterFailure(store))
            .containsExactly("store.AppendPropCRCTest", "store.BatchPutMessageTest", "store.DefaultMessageStoreTest");
    }

    @Test
    void withoutAFailureAClassSkippedWholeIsUpstreamsOwnIgnoreAndIsNotRunAgain() {
        Map<String, SurefireReports.Outcome> store = new LinkedHashMap<>();
        store.put("store.ConsumeQueueTest#a", PASSED);
        store.put("store.IgnoredTest#a", SKIPPED);
        assertThat(SkipCascade.skippedAfterFailure(store)).isEmpty();
        assertThat(SkipCascade.skippedAfterFailure(Map.of())).isEmpty();
    }

    @Test
    void theReportSaysWhichClassesRanAgain() {
        UpstreamTestReport report = UpstreamTestReport.compare("9.9.9", Map.of("store", Map.of("A#a", PASSED)),
                Map.of("store", Map.of("A#a", PASSED)), Map.of())
            .withCascadeReruns(List.of("stock: store: A skipped after a failure (upstream's skipAfterFailureCount=1), run again alone"));
        assertThat(report.passed()).isTrue();
        assertThat(report.markdown()).contains("Run again after a module stopped at its first failure")
            .contains("- stock: store: A skipped after a failure");
        assertThat(report.json()).contains("\"cascadeReruns\": [\"stock: store: A skipped after a failure");
    }
}
