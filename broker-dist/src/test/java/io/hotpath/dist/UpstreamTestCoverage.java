package io.hotpath.dist;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Whether a line's descriptor sends CI to upstream's tests of what its patches change: every upstream main file a
 * patch edits maps ({@code upstream.tests.exercising.<file>}) to test classes in the CI list
 * ({@code upstream.tests.ci.<module>}) that exercise it, and every upstream test a patch edits or adds is in that list.
 * The patches are read as text: the {@code diff --git a/<module>/src/...} header of each file, and whether a
 * {@code new file mode} line follows it. Files a patch adds to upstream's main sources are our modules' code (carried
 * files), covered by our own suites, and need no upstream test.
 *
 * <p>"Exercises" is decided from the sources, the same way on every machine: the class exists in upstream's tree (or
 * is a test file a patch adds) and its source names the edited class as a whole word, or a class of the same module's
 * main sources declared {@code extends} it (SendMessageProcessor for AbstractSendMessageProcessor, whose tests name
 * only the subclass). Naming is what a test that drives the class through its own API cannot avoid, and what a test of
 * an unrelated class has no reason to do; running the tests under a coverage agent would be the exact answer, but
 * takes upstream's build, and this check has to be fast and offline. That part needs the line's source release; the
 * rest needs only the descriptor and the patches.
 */
final class UpstreamTestCoverage {

    private static final Pattern DIFF_HEADER = Pattern.compile("^diff --git a/(\\S+) b/\\S+$");
    private static final Pattern UPSTREAM_SOURCE = Pattern.compile("([a-z][a-z0-9-]*)/src/(main|test)/java/(.+)\\.java");

    /** One file a patch touches: the module, main or test, the class it holds, and the text it adds if it is new. */
    record Touched(String module, boolean main, String className, String path, boolean added, String addedText) {

        String simpleName() {
            return className.substring(className.lastIndexOf('.') + 1);
        }
    }

    private UpstreamTestCoverage() {
    }

    /** The Java files of upstream modules the line's patches touch, in patch order. */
    static List<Touched> touched(ReleaseLine line) {
        List<Touched> touched = new ArrayList<>();
        for (PatchSeries.Patch patch : PatchSeries.read(line.dir()).patches()) {
            List<String> lines;
            try {
                lines = Files.readAllLines(patch.file(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (int i = 0; i < lines.size(); i++) {
                Matcher header = DIFF_HEADER.matcher(lines.get(i));
                if (!header.matches()) {
                    continue;
                }
                Matcher source = UPSTREAM_SOURCE.matcher(header.group(1));
                if (!source.matches()) {
                    continue;
                }
                boolean added = i + 1 < lines.size() && lines.get(i + 1).startsWith("new file mode");
                StringBuilder text = new StringBuilder();
                if (added) {
                    for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("diff --git "); j++) {
                        if (lines.get(j).startsWith("+") && !lines.get(j).startsWith("+++ ")) {
                            text.append(lines.get(j), 1, lines.get(j).length()).append('\n');
                        }
                    }
                }
                touched.add(new Touched(source.group(1), source.group(2).equals("main"), source.group(3).replace('/', '.'),
                    header.group(1), added, text.toString()));
            }
        }
        return touched;
    }

    /** What the descriptor and the patches alone say is wrong; empty when nothing is. */
    static List<String> problems(ReleaseLine line) {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> ci = line.ciTests();
        Set<String> editedMain = new LinkedHashSet<>();
        for (Touched t : touched(line)) {
            if (t.main() && !t.added()) {
                editedMain.add(t.path());
                List<String> mapped = line.testsOfEditedFiles().get(t.path());
                if (mapped == null || mapped.isEmpty()) {
                    // an assembled tree that has no runnable test of the file says why (tree.untested.<file>)
                    if (!line.tree().untested().containsKey(t.path())) {
                        problems.add(t.path() + " is edited by a patch, and upstream.tests.exercising." + t.path() + " names no test");
                    }
                    continue;
                }
                for (String testClass : mapped) {
                    if (!ci.getOrDefault(t.module(), List.of()).contains(testClass)) {
                        problems.add(testClass + " exercises " + t.path() + " but is not in upstream.tests.ci." + t.module());
                    }
                }
            } else if (!t.main() && t.simpleName().endsWith("Test")
                && !ci.getOrDefault(t.module(), List.of()).contains(t.className())) {
                problems.add(t.className() + " is " + (t.added() ? "added" : "edited") + " by a patch but is not in upstream.tests.ci."
                    + t.module());
            }
        }
        for (String file : line.tree().untested().keySet()) {
            if (!editedMain.contains(file)) {
                problems.add("tree.untested." + file + " names a file no patch edits");
            }
        }
        for (String file : line.testsOfEditedFiles().keySet()) {
            if (!editedMain.contains(file)) {
                problems.add("upstream.tests.exercising." + file + " names a file no patch edits");
            }
        }
        ci.values().stream().flatMap(List::stream).filter(line.stockFailures()::containsKey)
            .forEach(c -> problems.add(c + " is in upstream.tests.ci.* and a stock.failure: -Dtest would run it on both trees"));
        return problems;
    }

    /**
     * What the source release shows is wrong: a listed class that is neither in upstream's tree nor added by a patch,
     * and a mapped class whose source does not name the file it is said to exercise (nor a subclass of it).
     */
    static List<String> problems(ReleaseLine line, Path sourceRelease) {
        List<String> problems = new ArrayList<>();
        Map<String, String> added = new LinkedHashMap<>();
        for (Touched t : touched(line)) {
            if (t.added()) {
                added.put(t.module() + "/src/" + (t.main() ? "main" : "test") + "/java/" + t.className().replace('.', '/') + ".java",
                    t.addedText());
            }
        }
        try (ZipFile zip = new ZipFile(sourceRelease.toFile())) {
            String root = "rocketmq-all-" + line.release() + "/";
            line.ciTests().forEach((module, classes) -> {
                for (String testClass : classes) {
                    if (testSource(zip, root, added, module, testClass) == null) {
                        problems.add(testClass + " (upstream.tests.ci." + module + ") is neither in " + sourceRelease.getFileName()
                            + " nor added by a patch");
                    }
                }
            });
            line.testsOfEditedFiles().forEach((file, classes) -> {
                Matcher m = UPSTREAM_SOURCE.matcher(file);
                if (!m.matches()) {
                    problems.add("upstream.tests.exercising." + file + " is not <module>/src/main/java/<class>.java");
                    return;
                }
                String module = m.group(1);
                String edited = m.group(3).substring(m.group(3).lastIndexOf('/') + 1);
                Set<String> names = new LinkedHashSet<>(List.of(edited));
                names.addAll(subclasses(zip, root + module + "/src/main/java/", edited));
                for (String testClass : classes) {
                    String source = testSource(zip, root, added, module, testClass);
                    if (source != null && names.stream().noneMatch(n -> Pattern.compile("\\b" + n + "\\b").matcher(source).find())) {
                        problems.add(testClass + " is said to exercise " + file + " but its source names none of " + names);
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return problems;
    }

    /** The test class's source: a file a patch adds, else upstream's; null when neither has it. */
    private static String testSource(ZipFile zip, String root, Map<String, String> added, String module, String testClass) {
        String path = module + "/src/test/java/" + testClass.replace('.', '/') + ".java";
        if (added.containsKey(path)) {
            return added.get(path);
        }
        ZipEntry entry = zip.getEntry(root + path);
        return entry == null ? null : read(zip, entry);
    }

    /** Simple names of the classes under {@code mainPrefix} declared {@code extends <superName>}. */
    private static Set<String> subclasses(ZipFile zip, String mainPrefix, String superName) {
        Pattern extendsIt = Pattern.compile("\\bclass\\s+(\\w+)(?:<[^{]*?>)?\\s+extends\\s+" + superName + "\\b");
        Set<String> subclasses = new LinkedHashSet<>();
        for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
            ZipEntry entry = entries.nextElement();
            if (entry.getName().startsWith(mainPrefix) && entry.getName().endsWith(".java")) {
                Matcher m = extendsIt.matcher(read(zip, entry));
                while (m.find()) {
                    subclasses.add(m.group(1));
                }
            }
        }
        return subclasses;
    }

    private static String read(ZipFile zip, ZipEntry entry) {
        try {
            return new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
