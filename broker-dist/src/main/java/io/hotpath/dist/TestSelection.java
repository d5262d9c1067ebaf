package io.hotpath.dist;

import io.hotpath.lines.ReleaseLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which of upstream's tests a run of a line covers, on each tree: every test of the line's tested modules
 * ({@code full}), or only the test classes its descriptor lists for CI ({@code ci}, {@code upstream.tests.ci.<module>}),
 * those that exercise what the patches change.
 *
 * @param modules         the upstream modules whose tests run
 * @param listed          module -> listed test classes (fully qualified); empty for a full run
 * @param excludedMethods listed class -> its methods the descriptor lists as stock failures
 *                        ({@code stock.failure.<Class>#<method>}), left out of a targeted run on both trees
 */
record TestSelection(List<String> modules, Map<String, List<String>> listed, Map<String, List<String>> excludedMethods) {

    static TestSelection of(ReleaseLine line, boolean ci) {
        if (!ci) {
            // a full run leaves out only whole classes (an excludes file): surefire 2.19.1 refuses a method there
            // ("Method filter prohibited in includes|excludes|includesFile|excludesFile parameter", measured 2026-11-26)
            return new TestSelection(line.testedModules(), Map.of(), Map.of());
        }
        if (line.ciTests().isEmpty()) {
            throw new DistBuildException(line.dir().resolve(ReleaseLine.DESCRIPTOR) + " lists no upstream.tests.ci.<module> classes:"
                + " a targeted run of upstream's tests would run nothing");
        }
        Map<String, List<String>> excludedMethods = new LinkedHashMap<>();
        for (List<String> classes : line.ciTests().values()) {
            for (String testClass : classes) {
                List<String> methods = stockFailingMethods(line, testClass);
                if (!methods.isEmpty()) {
                    excludedMethods.put(testClass, methods);
                }
                if (line.stockFailures().containsKey(testClass)) {
                    // -Dtest replaces surefire's excludes: the class would run, and fail on both trees
                    throw new DistBuildException(testClass + " is listed in upstream.tests.ci.* and as a stock.failure of line "
                        + line.release() + "; a class is one or the other");
                }
            }
        }
        return new TestSelection(List.copyOf(line.ciTests().keySet()), line.ciTests(), excludedMethods);
    }

    /** The methods of {@code testClass} the descriptor lists as stock failures ({@code Class#method} keys). */
    static List<String> stockFailingMethods(ReleaseLine line, String testClass) {
        List<String> methods = new ArrayList<>();
        for (String test : line.stockFailures().keySet()) {
            int hash = test.indexOf('#');
            if (hash > 0 && test.substring(0, hash).equals(testClass)) {
                String method = test.substring(hash + 1);
                if (!method.matches("[A-Za-z_$][A-Za-z0-9_$]*")) {
                    throw new DistBuildException("stock.failure." + test + " of line " + line.release()
                        + " names no method: expected Class#method, one method a key");
                }
                methods.add(method);
            }
        }
        return methods;
    }

    boolean targeted() {
        return !listed.isEmpty();
    }

    /** A targeted selection of {@code classes} (module -> listed classes) only, with their excluded methods. */
    TestSelection only(Map<String, List<String>> classes) {
        Map<String, List<String>> kept = new LinkedHashMap<>();
        classes.forEach((module, listedHere) -> {
            if (!listedHere.isEmpty()) {
                kept.put(module, List.copyOf(listedHere));
            }
        });
        Map<String, List<String>> methods = new LinkedHashMap<>();
        excludedMethods.forEach((testClass, excluded) -> {
            if (kept.values().stream().anyMatch(l -> l.contains(testClass))) {
                methods.put(testClass, excluded);
            }
        });
        return new TestSelection(List.copyOf(kept.keySet()), kept, methods);
    }

    /**
     * The stock failures this run leaves out, with their reasons: every class ({@code stock.failure.<Class>}), and the
     * methods a targeted run excludes. A full run runs a listed method (its excludes file takes whole classes only).
     */
    Map<String, String> leftOut(ReleaseLine line) {
        Map<String, String> leftOut = new TreeMap<>();
        line.stockFailures().forEach((test, reason) -> {
            int hash = test.indexOf('#');
            if (hash < 0 || excludedMethods.getOrDefault(test.substring(0, hash), List.of()).contains(test.substring(hash + 1))) {
                leftOut.put(test, reason);
            }
        });
        return leftOut;
    }

    /** Every listed class; empty for a full run. */
    List<String> classes() {
        return listed.values().stream().flatMap(List::stream).toList();
    }

    /**
     * Surefire's {@code -Dtest} patterns of a targeted run: every listed class, then {@code !Class#m1+m2} for the
     * methods left out (surefire 2.19's syntax; measured on 5.3.3's store, 2026-11-26: DefaultMessageStoreTest ran 29
     * of its 31 tests with its two stock-failing methods excluded). Empty for a full run.
     */
    List<String> surefireTests() {
        List<String> patterns = new ArrayList<>(classes());
        excludedMethods.forEach((testClass, methods) -> patterns.add("!" + testClass + "#" + String.join("+", methods)));
        return patterns;
    }

    /**
     * The listed classes the tree has, per module ({@code <module>/src/test/java/<class>.java}): on the stock tree a
     * class a patch adds is missing, and is then expected on the patched tree only. The patched tree must have every
     * listed class: a name there that matches no file is a mistake in the descriptor, which a run would not notice
     * (surefire runs what matches, and nothing for a name that matches nothing).
     */
    Map<String, List<String>> presentIn(Path treeRoot, String tree) {
        Map<String, List<String>> present = new LinkedHashMap<>();
        listed.forEach((module, classes) -> {
            List<String> found = new ArrayList<>();
            for (String testClass : classes) {
                Path source = treeRoot.resolve(module).resolve("src/test/java").resolve(testClass.replace('.', '/') + ".java");
                if (Files.isRegularFile(source)) {
                    found.add(testClass);
                } else if (tree.equals("patched")) {
                    throw new DistBuildException("upstream.tests.ci." + module + " lists " + testClass + ", which the patched tree"
                        + " does not have (no " + treeRoot.relativize(source) + ")");
                }
            }
            present.put(module, found);
        });
        return present;
    }
}
