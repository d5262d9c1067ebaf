package io.hotpath.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Upstream's own unit tests of a line's modules, stock tree against patched tree: per module and tree
 * how many ran, passed, failed and were skipped, and the verdict a drop-in needs — no test that passes on
 * stock may fail (or be skipped) on patched. Written as {@code upstream-tests.json} (for tools) and
 * {@code upstream-tests.md} (for people).
 *
 * @param release       the line
 * @param modules       module -> counts on each tree
 * @param newFailures   tests that pass on stock and do not pass on patched (must be empty)
 * @param stockFailures tests that fail on the stock tree although the descriptor does not list them
 * @param flaky         tests that failed once and passed when surefire ran them again, per tree (counted as passed)
 * @param excluded      tests left out of both runs, with the descriptor's reason
 */
public record UpstreamTestReport(String release, Map<String, ModuleCounts> modules, List<String> newFailures,
                                 List<String> stockFailures, List<String> flaky, Map<String, String> excluded) {

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

    /** Compares the outcomes of each module (module -> test id -> outcome) on the two trees. */
    public static UpstreamTestReport compare(String release, Map<String, Map<String, SurefireReports.Outcome>> stock,
                                             Map<String, Map<String, SurefireReports.Outcome>> patched,
                                             Map<String, String> excluded) {
        Map<String, ModuleCounts> modules = new LinkedHashMap<>();
        List<String> newFailures = new ArrayList<>();
        List<String> stockFailures = new ArrayList<>();
        List<String> flaky = new ArrayList<>();
        for (String module : stock.keySet()) {
            Map<String, SurefireReports.Outcome> s = stock.get(module);
            Map<String, SurefireReports.Outcome> p = patched.getOrDefault(module, Map.of());
            modules.put(module, new ModuleCounts(Counts.of(s), Counts.of(p)));
            for (String test : new TreeSet<>(s.keySet())) {
                SurefireReports.Outcome onStock = s.get(test);
                SurefireReports.Outcome onPatched = p.get(test);
                if (onStock == SurefireReports.Outcome.FAILED) {
                    stockFailures.add(module + ": " + test);
                } else if (passed(onStock) && !passed(onPatched)) {
                    newFailures.add(module + ": " + test + " (" + (onPatched == null ? "not run" : onPatched.name().toLowerCase())
                        + " on patched)");
                }
                if (onStock == SurefireReports.Outcome.FLAKY) {
                    flaky.add(module + ": " + test + " (stock)");
                }
                if (onPatched == SurefireReports.Outcome.FLAKY) {
                    flaky.add(module + ": " + test + " (patched)");
                }
            }
        }
        return new UpstreamTestReport(release, modules, newFailures, stockFailures, flaky, excluded);
    }

    private static boolean passed(SurefireReports.Outcome outcome) {
        return outcome == SurefireReports.Outcome.PASSED || outcome == SurefireReports.Outcome.FLAKY;
    }

    public boolean passed() {
        return newFailures.isEmpty();
    }

    /** The table {@code bin/hotpath build-broker} prints. */
    public String markdown() {
        StringBuilder md = new StringBuilder()
            .append("Upstream ").append(release).append("'s own unit tests, stock tree vs patched tree (upstream's Maven build)\n\n")
            .append("| module | stock run | stock passed | stock failed | stock skipped | patched run | patched passed | patched failed | patched skipped |\n")
            .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        modules.forEach((module, c) -> md.append("| ").append(module)
            .append(" | ").append(c.stock().run()).append(" | ").append(c.stock().passed())
            .append(" | ").append(c.stock().failed()).append(" | ").append(c.stock().skipped())
            .append(" | ").append(c.patched().run()).append(" | ").append(c.patched().passed())
            .append(" | ").append(c.patched().failed()).append(" | ").append(c.patched().skipped()).append(" |\n"));
        md.append("\nNew failures (pass on stock, not on patched): ").append(newFailures.size()).append('\n');
        newFailures.forEach(f -> md.append("- ").append(f).append('\n'));
        if (!excluded.isEmpty()) {
            md.append("\nLeft out of both runs, because they fail on the stock tree in this environment:\n");
            excluded.forEach((test, reason) -> md.append("- ").append(test).append(": ").append(reason).append('\n'));
        }
        if (!flaky.isEmpty()) {
            md.append("\nFailed once, passed when surefire ran them again (counted as passed):\n");
            flaky.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        if (!stockFailures.isEmpty()) {
            md.append("\nFailed on the stock tree this run (not listed in the line's descriptor):\n");
            stockFailures.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        return md.toString();
    }

    public String json() {
        StringBuilder json = new StringBuilder("{\n  \"release\": ").append(Json.string(release))
            .append(",\n  \"passed\": ").append(passed()).append(",\n  \"modules\": {");
        String sep = "\n";
        for (Map.Entry<String, ModuleCounts> e : modules.entrySet()) {
            json.append(sep).append("    ").append(Json.string(e.getKey())).append(": {\"stock\": ")
                .append(counts(e.getValue().stock())).append(", \"patched\": ").append(counts(e.getValue().patched())).append('}');
            sep = ",\n";
        }
        json.append("\n  },\n  \"newFailures\": ").append(Json.strings(newFailures))
            .append(",\n  \"stockFailures\": ").append(Json.strings(stockFailures))
            .append(",\n  \"flaky\": ").append(Json.strings(flaky))
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
