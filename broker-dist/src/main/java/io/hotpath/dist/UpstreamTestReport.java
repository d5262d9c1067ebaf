package io.hotpath.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Upstream's own unit tests of a line's modules, stock tree against patched tree: per module and tree
 * how many ran, passed, failed and were skipped, and the verdict a drop-in needs. The verdict fails when
 *
 * <ul>
 *   <li>a test that passes on stock does not pass on patched (fails, is skipped, or did not run);</li>
 *   <li>a test that only the patched tree has (one a patch adds or renames) does not pass there;</li>
 *   <li>a test passes on patched only when surefire runs it again, unless it needed a rerun on stock in the same
 *       run too, or the line's descriptor lists it as known-flaky with a reason
 *       ({@code upstream.tests.known.flaky.*}); the report says which of the two accepted it;</li>
 *   <li>a module wrote no report on a tree (0 run is no evidence), or a listed test class
 *       ({@code upstream.tests.ci.*}) wrote none, or ran none of its tests (all skipped: what upstream's
 *       {@code skipAfterFailureCount=1} leaves after a module's first failure), on a tree that has it.</li>
 * </ul>
 *
 * Written as {@code upstream-tests.json} (for tools) and {@code upstream-tests.md} (for people).
 *
 * @param release        the line
 * @param mode           {@code full} (every test of the modules) or {@code ci} (the descriptor's listed classes)
 * @param modules        module -> counts on each tree
 * @param newFailures    tests judged on patched that do not pass there, each with the reason (must be empty)
 * @param missingReports modules or listed classes without a surefire report on a tree (must be empty)
 * @param stockFailures  tests that fail on the stock tree although the descriptor does not list them
 * @param flaky          tests that failed once and passed when surefire ran them again, per tree, and for patched
 *                       why that was accepted (those not accepted are in newFailures)
 * @param excluded       tests left out of both runs, with the descriptor's reason
 * @param seconds        tree -> how long upstream's tests took on it (empty when not measured)
 * @param cascadeReruns  the classes run again, alone, because upstream's skipAfterFailureCount=1 skipped them after a
 *                       module's first failure on a tree (see SkipCascade); their reports are the rerun's
 * @param testsOf        the release whose unit tests ran: the line's own, or for a tree assembled from Central (which
 *                       publishes no tests) its skeleton's
 * @param stockScope     null when the stock tree ran every test the patched tree ran; else which of them it ran, in words
 *                       (a targeted run asks stock only about what did not pass on patched: {@code BrokerDistBuilder})
 */
public record UpstreamTestReport(String release, String mode, Map<String, ModuleCounts> modules, List<String> newFailures,
                                 List<String> missingReports, List<String> stockFailures, List<String> flaky,
                                 Map<String, String> excluded, Map<String, Long> seconds, List<String> cascadeReruns,
                                 String testsOf, String stockScope) {

    /** Counts of one module on one tree; passed includes flaky. */
    public record Counts(int run, int passed, int failed, int skipped) {

        static Counts of(Map<String, SurefireReports.Outcome> outcomes) {
            int passed = 0;
            int failed = 0;
            int skipped = 0;
            for (SurefireReports.Outcome o : outcomes.values()) {
                switch (o) {
                    case PASSED, FLAKY -> passed++;
                    case FAILED -> failed++;
                    case SKIPPED -> skipped++;
                }
            }
            return new Counts(passed + failed, passed, failed, skipped);
        }
    }

    public record ModuleCounts(Counts stock, Counts patched) {
    }

    /**
     * The test classes a targeted run listed, per module and tree: a class a patch adds is expected on the patched
     * tree only. {@link #NONE} for a full run, where only "every module wrote a report" is checked.
     */
    public record Listed(Map<String, List<String>> onStock, Map<String, List<String>> onPatched) {

        public static final Listed NONE = new Listed(Map.of(), Map.of());

        boolean targeted() {
            return !onStock.isEmpty() || !onPatched.isEmpty();
        }
    }

    /** {@link #compare(String, Map, Map, Map, Map, Listed)} of a full run with no known-flaky test. */
    public static UpstreamTestReport compare(String release, Map<String, Map<String, SurefireReports.Outcome>> stock,
                                             Map<String, Map<String, SurefireReports.Outcome>> patched,
                                             Map<String, String> excluded) {
        return compare(release, stock, patched, excluded, Map.of(), Listed.NONE);
    }

    /**
     * Compares the outcomes of each module (module -> test id -> outcome) on the two trees.
     *
     * @param knownFlaky test ({@code Class} or {@code Class#method}) -> reason: a rerun-only pass on patched accepted
     * @param listed     the classes a targeted run listed, each of which must have written a report
     */
    public static UpstreamTestReport compare(String release, Map<String, Map<String, SurefireReports.Outcome>> stock,
                                             Map<String, Map<String, SurefireReports.Outcome>> patched,
                                             Map<String, String> excluded, Map<String, String> knownFlaky, Listed listed) {
        Map<String, ModuleCounts> modules = new LinkedHashMap<>();
        List<String> newFailures = new ArrayList<>();
        List<String> missingReports = new ArrayList<>();
        List<String> stockFailures = new ArrayList<>();
        List<String> flaky = new ArrayList<>();
        Set<String> moduleNames = new LinkedHashSet<>(stock.keySet());
        moduleNames.addAll(patched.keySet());
        for (String module : moduleNames) {
            Map<String, SurefireReports.Outcome> s = stock.getOrDefault(module, Map.of());
            Map<String, SurefireReports.Outcome> p = patched.getOrDefault(module, Map.of());
            modules.put(module, new ModuleCounts(Counts.of(s), Counts.of(p)));
            // a module that wrote nothing did not show anything: surefire found no test, or never ran; unless a targeted run
            // had nothing to run there on stock (every listed class is one a patch adds: an assembled tree's module whose
            // skeleton tests cannot run on the release, see tree.untested)
            boolean nothingListedOnStock = listed.targeted() && listed.onStock().containsKey(module)
                && listed.onStock().get(module).isEmpty();
            if (s.isEmpty() && !nothingListedOnStock) {
                missingReports.add(module + ": no test report on stock");
            }
            if (p.isEmpty()) {
                missingReports.add(module + ": no test report on patched");
            }
            missingReports.addAll(unreported(module, "stock", listed.onStock().getOrDefault(module, List.of()), s));
            missingReports.addAll(unreported(module, "patched", listed.onPatched().getOrDefault(module, List.of()), p));
            Set<String> tests = new TreeSet<>(s.keySet());
            tests.addAll(p.keySet());
            for (String test : tests) {
                SurefireReports.Outcome onStock = s.get(test);
                SurefireReports.Outcome onPatched = p.get(test);
                String id = module + ": " + test;
                if (onStock == SurefireReports.Outcome.FAILED) {
                    stockFailures.add(id);
                }
                if (onStock == SurefireReports.Outcome.FLAKY) {
                    flaky.add(id + " (stock)");
                }
                if (onStock == null && !passed(onPatched)) {
                    newFailures.add(id + " (only on patched, " + onPatched.name().toLowerCase() + " there)");
                } else if (passed(onStock) && !passed(onPatched)) {
                    newFailures.add(id + " (" + (onPatched == null ? "not run" : onPatched.name().toLowerCase()) + " on patched)");
                } else if (onPatched == SurefireReports.Outcome.FLAKY) {
                    String accepted = onStock == SurefireReports.Outcome.FLAKY ? "needed a rerun on stock too"
                        : knownFlakyReason(test, knownFlaky);
                    if (accepted == null) {
                        newFailures.add(id + " (passed on patched only when surefire ran it again; not known-flaky,"
                            + " and it needed no rerun on stock)");
                    } else {
                        flaky.add(id + " (patched, accepted: " + accepted + ")");
                    }
                }
            }
        }
        return new UpstreamTestReport(release, listed.targeted() ? "ci" : "full", modules, newFailures, missingReports,
            stockFailures, flaky, excluded, Map.of(), List.of(), release, null);
    }

    /** The same report with the release whose tests ran, when not the line's own (an assembled tree's skeleton). */
    public UpstreamTestReport withTestsOf(String testsRelease) {
        return new UpstreamTestReport(release, mode, modules, newFailures, missingReports, stockFailures, flaky, excluded, seconds,
            cascadeReruns, testsRelease, stockScope);
    }

    /** The same report with how long the tests took on each tree. */
    public UpstreamTestReport withSeconds(Map<String, Long> secondsPerTree) {
        return new UpstreamTestReport(release, mode, modules, newFailures, missingReports, stockFailures, flaky, excluded,
            Map.copyOf(secondsPerTree), cascadeReruns, testsOf, stockScope);
    }

    /** The same report with what the stock tree ran, when not every test the patched tree ran. */
    public UpstreamTestReport withStockScope(String scope) {
        return new UpstreamTestReport(release, mode, modules, newFailures, missingReports, stockFailures, flaky, excluded,
            seconds, cascadeReruns, testsOf, scope);
    }

    /** The same report with the classes run again after a skip cascade. */
    public UpstreamTestReport withCascadeReruns(List<String> reruns) {
        return new UpstreamTestReport(release, mode, modules, newFailures, missingReports, stockFailures, flaky, excluded,
            seconds, List.copyOf(reruns), testsOf, stockScope);
    }

    /**
     * The same report with surefire's message appended to each new failure it explains
     * ({@code module: Class#method} -> message, from the patched tree's reports).
     */
    public UpstreamTestReport withFailureMessages(Map<String, String> patchedMessages) {
        List<String> explained = newFailures.stream().map(failure -> {
            int cut = failure.indexOf(" (");
            String message = patchedMessages.get(cut < 0 ? failure : failure.substring(0, cut));
            return message == null ? failure : failure + ": " + message;
        }).toList();
        return new UpstreamTestReport(release, mode, modules, explained, missingReports, stockFailures, flaky, excluded, seconds,
            cascadeReruns, testsOf, stockScope);
    }

    private static List<String> unreported(String module, String tree, List<String> classes,
                                           Map<String, SurefireReports.Outcome> outcomes) {
        List<String> missing = new ArrayList<>();
        for (String testClass : classes) {
            List<SurefireReports.Outcome> ran = SurefireReports.ofClass(outcomes, testClass);
            if (ran.isEmpty()) {
                missing.add(module + ": " + testClass + " is listed but wrote no report on " + tree);
            } else if (ran.stream().allMatch(o -> o == SurefireReports.Outcome.SKIPPED)) {
                // what upstream's skipAfterFailureCount=1 writes for every class after a module's first failure
                missing.add(module + ": " + testClass + " is listed but ran no test on " + tree + " (all skipped)");
            }
        }
        return missing;
    }

    /** The descriptor's reason when it lists the test, or its class, as known-flaky; else null. */
    private static String knownFlakyReason(String test, Map<String, String> knownFlaky) {
        String reason = knownFlaky.get(test);
        if (reason == null) {
            reason = knownFlaky.get(test.substring(0, test.indexOf('#') < 0 ? test.length() : test.indexOf('#')));
        }
        return reason == null ? null : "known flaky: " + reason;
    }

    private static boolean passed(SurefireReports.Outcome outcome) {
        return outcome == SurefireReports.Outcome.PASSED || outcome == SurefireReports.Outcome.FLAKY;
    }

    public boolean passed() {
        return newFailures.isEmpty() && missingReports.isEmpty();
    }

    /** The verdict's first failure, for a one-line error; null when it passed. */
    public String firstFailure() {
        if (!newFailures.isEmpty()) {
            return newFailures.get(0);
        }
        return missingReports.isEmpty() ? null : missingReports.get(0);
    }

    /** The table {@code bin/hotpath build-broker} prints. */
    public String markdown() {
        StringBuilder md = new StringBuilder()
            .append(testsOf.equals(release) ? "Upstream " + release + "'s own unit tests"
                : "Upstream " + testsOf + "'s unit tests on the " + release + " tree (Central publishes no " + release
                  + " tests: the line's tree.deviation.tests)")
            .append(", stock tree vs patched tree (upstream's Maven build; ")
            .append(mode.equals("ci") ? "the line's listed test classes, upstream.tests.ci.*" : "every test of the modules")
            .append(")\n\n")
            .append(stockScope == null ? "" : "Stock tree: " + stockScope + "\n\n")
            .append("| module | stock run | stock passed | stock failed | stock skipped | patched run | patched passed | patched failed | patched skipped |\n")
            .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        modules.forEach((module, c) -> md.append("| ").append(module)
            .append(" | ").append(c.stock().run()).append(" | ").append(c.stock().passed())
            .append(" | ").append(c.stock().failed()).append(" | ").append(c.stock().skipped())
            .append(" | ").append(c.patched().run()).append(" | ").append(c.patched().passed())
            .append(" | ").append(c.patched().failed()).append(" | ").append(c.patched().skipped()).append(" |\n"));
        md.append("\nVerdict: ").append(passed() ? "PASS" : "FAIL").append('\n');
        if (!seconds.isEmpty()) {
            md.append("Time of upstream's tests: ");
            seconds.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> md.append(e.getKey()).append(' ').append(e.getValue()).append(" s; "));
            md.setLength(md.length() - 2);
            md.append('\n');
        }
        md.append("\nNew failures (judged on patched, not passing there): ").append(newFailures.size()).append('\n');
        newFailures.forEach(f -> md.append("- ").append(f).append('\n'));
        md.append("\nMissing reports (a module or listed class that wrote no surefire report): ").append(missingReports.size())
            .append('\n');
        missingReports.forEach(f -> md.append("- ").append(f).append('\n'));
        if (!excluded.isEmpty()) {
            md.append("\nLeft out of both runs, because they fail on the stock tree in this environment:\n");
            excluded.forEach((test, reason) -> md.append("- ").append(test).append(": ").append(reason).append('\n'));
        }
        if (!flaky.isEmpty()) {
            md.append("\nFailed once, passed when surefire ran them again (counted as passed; on patched only where accepted, and why):\n");
            flaky.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        if (!stockFailures.isEmpty()) {
            md.append("\nFailed on the stock tree this run (not listed in the line's descriptor):\n");
            stockFailures.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        if (!cascadeReruns.isEmpty()) {
            md.append("\nRun again after a module stopped at its first failure (the table counts the second run):\n");
            cascadeReruns.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        return md.toString();
    }

    public String json() {
        StringBuilder json = new StringBuilder("{\n  \"release\": ").append(Json.string(release))
            .append(",\n  \"testsOf\": ").append(Json.string(testsOf))
            .append(",\n  \"mode\": ").append(Json.string(mode))
            .append(",\n  \"stockScope\": ").append(stockScope == null ? "null" : Json.string(stockScope))
            .append(",\n  \"passed\": ").append(passed()).append(",\n  \"seconds\": {");
        String sep0 = "";
        for (Map.Entry<String, Long> e : new TreeMap<>(seconds).entrySet()) {
            json.append(sep0).append(Json.string(e.getKey())).append(": ").append(e.getValue());
            sep0 = ", ";
        }
        json.append("},\n  \"modules\": {");
        String sep = "\n";
        for (Map.Entry<String, ModuleCounts> e : modules.entrySet()) {
            json.append(sep).append("    ").append(Json.string(e.getKey())).append(": {\"stock\": ")
                .append(counts(e.getValue().stock())).append(", \"patched\": ").append(counts(e.getValue().patched())).append('}');
            sep = ",\n";
        }
        json.append("\n  },\n  \"newFailures\": ").append(Json.strings(newFailures))
            .append(",\n  \"missingReports\": ").append(Json.strings(missingReports))
            .append(",\n  \"stockFailures\": ").append(Json.strings(stockFailures))
            .append(",\n  \"flaky\": ").append(Json.strings(flaky))
            .append(",\n  \"cascadeReruns\": ").append(Json.strings(cascadeReruns))
            .append(",\n  \"excluded\": {");
        sep = "";
        for (Map.Entry<String, String> e : excluded.entrySet()) {
            json.append(sep).append(Json.string(e.getKey())).append(": ").append(Json.string(e.getValue()));
            sep = ", ";
        }
        return json.append("}\n}\n").toString();
    }

    private static String counts(Counts c) {
        return "{\"run\": " + c.run() + ", \"passed\": " + c.passed() + ", \"failed\": " + c.failed()
            + ", \"skipped\": " + c.skipped() + "}";
    }

    /** Writes upstream-tests.json and upstream-tests.md into {@code dir}. */
    public void write(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("upstream-tests.json"), json(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("upstream-tests.md"), markdown(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot write the upstream test report to " + dir + ": " + e.getMessage());
        }
    }

    /** Just enough JSON writing for flat reports: the build tools run on the JDK alone. */
    static final class Json {

        private Json() {
        }

        static String string(String s) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            return out.append('"').toString();
        }

        static String strings(List<String> values) {
            return values.stream().map(Json::string).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
        }
    }
}
