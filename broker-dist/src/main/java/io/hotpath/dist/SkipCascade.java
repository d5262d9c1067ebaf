package io.hotpath.dist;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What upstream's surefire configuration ({@code skipAfterFailureCount=1}) leaves unrun after a module's first
 * failure: every later test class of the module is reported with all its tests skipped. One flaky failure on one
 * tree (5.3.3's {@code DLedgerCommitlogTest#testTruncateCQ} on stock, CI rehearsal 2026-11-27) would otherwise turn
 * the classes after it into "ran no test", and fail a verdict that has nothing to compare. Those classes are run
 * again, alone; the failure that stopped the module stays in the report as it was.
 */
final class SkipCascade {

    private SkipCascade() {
    }

    /**
     * The classes of one module's outcomes (test id {@code Class#method} -> outcome) whose every test was skipped, in
     * report order, when some test of the module failed; none when nothing failed (a class skipped whole then is
     * upstream's own {@code @Ignore}, not the cascade).
     */
    static List<String> skippedAfterFailure(Map<String, SurefireReports.Outcome> outcomes) {
        if (!outcomes.containsValue(SurefireReports.Outcome.FAILED)) {
            return List.of();
        }
        Map<String, Boolean> allSkipped = new LinkedHashMap<>();
        outcomes.forEach((test, outcome) -> {
            int hash = test.indexOf('#');
            String testClass = hash < 0 ? test : test.substring(0, hash);
            allSkipped.merge(testClass, outcome == SurefireReports.Outcome.SKIPPED, Boolean::logicalAnd);
        });
        List<String> classes = new ArrayList<>();
        allSkipped.forEach((testClass, skipped) -> {
            if (skipped) {
                classes.add(testClass);
            }
        });
        return classes;
    }
}
