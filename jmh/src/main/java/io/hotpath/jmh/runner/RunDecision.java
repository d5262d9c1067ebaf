package io.hotpath.jmh.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Whether this {@code verify} should run the benchmarks. Benchmarks never run in a plain root
 * build; they run when the jmh module was asked for:
 * <ul>
 *   <li>{@code -Djmh.run=true} runs, {@code -Djmh.run=false} skips, whatever else holds;</li>
 *   <li>the module is named in {@code -pl} (Maven's {@code session.request.selectedProjects}):
 *       as a directory ({@code jmh}, {@code ./jmh/}, an absolute path, its pom.xml) or as
 *       {@code :hotpath-jmh} / {@code io.hotpath:hotpath-jmh}; excluded entries ({@code !jmh},
 *       {@code -jmh}) do not count;</li>
 *   <li>Maven was started in the module directory ({@code cd jmh && mvn verify}).</li>
 * </ul>
 */
public final class RunDecision {

    public final boolean run;
    public final String reason;

    private RunDecision(boolean run, String reason) {
        this.run = run;
        this.reason = reason;
    }

    /**
     * @param jmhRun            value of {@code -Djmh.run}, empty when not given
     * @param selectedProjects  {@code ${session.request.selectedProjects}}, e.g. {@code [jmh]} or {@code []}
     * @param executionRoot     {@code ${session.executionRootDirectory}}
     * @param basedir           this module's directory
     * @param module            {@code groupId:artifactId} of this module
     */
    public static RunDecision decide(String jmhRun, String selectedProjects, String executionRoot,
            String basedir, String module) {
        String flag = jmhRun == null ? "" : jmhRun.trim().toLowerCase(Locale.ROOT);
        if (flag.equals("true")) {
            return new RunDecision(true, "-Djmh.run=true");
        }
        if (flag.equals("false")) {
            return new RunDecision(false, "-Djmh.run=false");
        }
        if (!flag.isEmpty()) {
            throw new IllegalArgumentException("-Djmh.run must be true or false, got '" + jmhRun + "'");
        }
        Path base = normalize(Paths.get(basedir));
        Path root = executionRoot == null || executionRoot.isEmpty() ? null : normalize(Paths.get(executionRoot));
        for (String entry : entries(selectedProjects)) {
            if (names(entry, root, base, module)) {
                return new RunDecision(true, "selected with -pl " + entry);
            }
        }
        if (base.equals(root)) {
            return new RunDecision(true, "Maven started in " + base);
        }
        return new RunDecision(false, "module not selected with -pl");
    }

    private static String[] entries(String selectedProjects) {
        if (selectedProjects == null) {
            return new String[0];
        }
        String s = selectedProjects.trim();
        if (s.startsWith("${")) {
            return new String[0]; // expression not resolved by this Maven: nothing selected
        }
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        return s.trim().isEmpty() ? new String[0] : s.split(",");
    }

    private static boolean names(String rawEntry, Path root, Path base, String module) {
        String entry = rawEntry.trim();
        if (entry.isEmpty() || entry.startsWith("!") || entry.startsWith("-")) {
            return false;
        }
        if (entry.startsWith(":")) {
            return module.endsWith(entry);
        }
        if (entry.contains(":")) {
            return module.equals(entry);
        }
        Path p = Paths.get(entry);
        if (!p.isAbsolute()) {
            if (root == null) {
                return false;
            }
            p = root.resolve(p);
        }
        p = normalize(p);
        if (Files.isRegularFile(p)) {
            p = p.getParent();
        }
        return base.equals(p);
    }

    private static Path normalize(Path p) {
        Path n = p.toAbsolutePath().normalize();
        try {
            return n.toRealPath();
        } catch (java.io.IOException e) {
            return n;
        }
    }
}
