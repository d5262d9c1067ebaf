package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs a module's suites, loaded by a {@link PatchedBrokerLoader}, with {@code -Dhotpath.candidate=broker}: each suite
 * then tests the broker processors of that loader (the patched distribution's lib/) against its oracle. Passes only
 * when more than {@code minimumTests} tests were found and every one of them succeeded.
 */
final class BrokerCandidateSuites {

    private BrokerCandidateSuites() {
    }

    static void assertPass(PatchedBrokerLoader loader, List<String> suites, int minimumTests) {
        assertPass(loader, suites, minimumTests, Map.of());
    }

    /** The same, with {@code properties} set as system properties while the suites run (where a suite finds its oracle). */
    static void assertPass(PatchedBrokerLoader loader, List<String> suites, int minimumTests, Map<String, String> properties) {
        Map<String, String> previous = new HashMap<>();
        Map<String, String> set = new HashMap<>(properties);
        set.put("hotpath.candidate", "broker");
        set.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        try {
            LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
            for (String suite : suites) {
                Class<?> type = loader.load(suite);
                assertThat(type.getClassLoader()).as(suite).isSameAs(loader);
                request.selectors(selectClass(type));
            }
            LauncherDiscoveryRequest discovery = request.build();
            Launcher launcher = LauncherFactory.create();
            // inside the loader: RocketMQ 5.x's shaded slf4j looks its provider up through the context loader
            loader.callInside(() -> {
                launcher.execute(discovery, listener);
                return null;
            });
        } finally {
            previous.forEach((key, value) -> {
                if (value == null) {
                    System.clearProperty(key);
                } else {
                    System.setProperty(key, value);
                }
            });
        }
        TestExecutionSummary summary = listener.getSummary();
        StringWriter report = new StringWriter();
        summary.printTo(new PrintWriter(report));
        summary.printFailuresTo(new PrintWriter(report), 40);
        System.out.println("hotpath: " + suites + " against the patched broker (" + loader.lib + "):\n" + report);
        assertThat(summary.getTestsFoundCount()).as("tests found in %s", suites).isGreaterThan(minimumTests);
        assertThat(summary.getContainersFailedCount() + summary.getTestsFailedCount()).as(report.toString()).isZero();
        assertThat(summary.getTestsSucceededCount()).as(report.toString()).isEqualTo(summary.getTestsFoundCount());
    }
}
