package io.hotpath.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * e2e's packages are layers, bottom up (e2e/README.md): a round's spec, the nodes, the load, the checks, the
 * measurements, the round itself, the campaign, the command line. Each package may use only the packages below it, so
 * that a layer can be read, tested and changed without the ones above it; an import that is there only for a javadoc
 * link counts as a use no one sees, and is refused too.
 */
class LayeringTest {

    /** Bottom up; "" is the root package {@code io.hotpath.e2e}. */
    static final List<String> LAYERS = List.of("", "spec", "node", "load", "check", "measure", "run", "campaign", "idle", "cli");

    private static final Path MAIN = Path.of("src/main/java/io/hotpath/e2e");

    @Test
    void everyPackageUsesOnlyTheLayersBelowIt() throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                sources.put(MAIN.relativize(file).toString(), Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        assertThat(sources).as("e2e's main sources").hasSizeGreaterThan(50);
        assertThat(ImportScan.problems(sources, LAYERS)).isEmpty();
    }

    @Test
    void theScanRejectsAnUpwardImportACycleAJavadocOnlyImportAndAnUnplacedPackage() {
        Map<String, String> fixture = new LinkedHashMap<>();
        // spec -> run: upward; run -> spec back: with it a cycle
        fixture.put("spec/Options.java", """
            package io.hotpath.e2e.spec;

            import io.hotpath.e2e.run.Result;

            final class Options {
                Result result;
            }
            """);
        fixture.put("run/Result.java", """
            package io.hotpath.e2e.run;

            import io.hotpath.e2e.spec.Options;
            import io.hotpath.e2e.node.Cluster;

            /** Made by {@link Cluster}; "io.hotpath.e2e.cli.Main" in a string is no use. */
            public final class Result {
                Options options;
            }
            """);
        fixture.put("node/Cluster.java", """
            package io.hotpath.e2e.node;

            public final class Cluster {
                Object admin = new io.hotpath.e2e.cli.Admin();
            }
            """);
        fixture.put("extra/Helper.java", """
            package io.hotpath.e2e.extra;

            final class Helper {
            }
            """);

        List<String> problems = ImportScan.problems(fixture, LAYERS);

        assertThat(problems).containsExactlyInAnyOrder(
            "spec/Options.java: io.hotpath.e2e.spec (layer 1) uses io.hotpath.e2e.run (layer 6), a layer above it",
            "node/Cluster.java: io.hotpath.e2e.node (layer 2) uses io.hotpath.e2e.cli (layer 9), a layer above it",
            "run/Result.java: imports io.hotpath.e2e.node.Cluster only for a javadoc link or comment",
            "extra/Helper.java: io.hotpath.e2e.extra is in no layer of " + LAYERS,
            "package cycle: io.hotpath.e2e.run -> io.hotpath.e2e.spec -> io.hotpath.e2e.run");
        // the same fixture without its faults passes
        fixture.remove("extra/Helper.java");
        fixture.put("spec/Options.java", "package io.hotpath.e2e.spec;\n\nfinal class Options {\n}\n");
        fixture.put("node/Cluster.java", "package io.hotpath.e2e.node;\n\npublic final class Cluster {\n}\n");
        fixture.put("run/Result.java", fixture.get("run/Result.java").replace("{@link Cluster}", "Cluster")
            .replace("    Options options;\n", "    Options options;\n    Cluster cluster;\n"));
        assertThat(ImportScan.problems(fixture, LAYERS)).isEmpty();
    }

    /** The uses between e2e's packages, read from the source text: imports and fully qualified names in code. */
    static final class ImportScan {

        private static final String ROOT = "io.hotpath.e2e";
        /** A use of a class by its qualified name: its package is everything before the first capital. */
        private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.hotpath\\.e2e((?:\\.[a-z]\\w*)*)\\.[A-Z]");

        private ImportScan() {
        }

        static List<String> problems(Map<String, String> sources, List<String> layers) {
            List<String> problems = new ArrayList<>();
            Map<String, List<String>> uses = new LinkedHashMap<>();
            sources.forEach((file, source) -> {
                String pkg = declaredPackage(source);
                int layer = layers.indexOf(sub(pkg));
                if (layer < 0) {
                    problems.add(file + ": " + pkg + " is in no layer of " + layers);
                    return;
                }
                String code = codeOnly(source);
                List<String> used = new ArrayList<>();
                for (String line : source.lines().filter(l -> l.startsWith("import ")).toList()) {
                    String name = line.substring("import ".length(), line.length() - 1).replace("static ", "");
                    String simple = name.substring(name.lastIndexOf('.') + 1);
                    String body = code.replaceAll("(?m)^import .*$", "");
                    if (!simple.equals("*") && !body.matches("(?s).*\\b" + simple + "\\b.*")) {
                        problems.add(file + ": imports " + name + " only for a javadoc link or comment");
                    }
                }
                Matcher m = QUALIFIED.matcher(code);
                while (m.find()) {
                    String target = ROOT + m.group(1);
                    if (!target.equals(pkg) && !used.contains(target)) {
                        used.add(target);
                    }
                }
                for (String target : used) {
                    int targetLayer = layers.indexOf(sub(target));
                    if (targetLayer > layer) {
                        problems.add(file + ": " + pkg + " (layer " + layer + ") uses " + target + " (layer " + targetLayer
                            + "), a layer above it");
                    }
                }
                uses.computeIfAbsent(pkg, k -> new ArrayList<>()).addAll(used);
            });
            cycles(uses).forEach(cycle -> problems.add("package cycle: " + String.join(" -> ", cycle)));
            return problems;
        }

        private static String sub(String pkg) {
            return pkg.equals(ROOT) ? "" : pkg.startsWith(ROOT + ".") ? pkg.substring(ROOT.length() + 1) : pkg;
        }

        private static String declaredPackage(String source) {
            return source.lines().filter(l -> l.startsWith("package ")).findFirst()
                .map(l -> l.substring("package ".length(), l.indexOf(';'))).orElse("");
        }

        /** Each cycle once, as the path from its smallest package back to it. */
        private static List<List<String>> cycles(Map<String, List<String>> uses) {
            List<List<String>> cycles = new ArrayList<>();
            for (String start : uses.keySet().stream().sorted().toList()) {
                walk(start, start, new ArrayList<>(List.of(start)), uses, cycles);
            }
            return cycles;
        }

        private static void walk(String start, String at, List<String> path, Map<String, List<String>> uses, List<List<String>> cycles) {
            for (String next : uses.getOrDefault(at, List.of())) {
                if (next.equals(start)) {
                    List<String> cycle = new ArrayList<>(path);
                    cycle.add(start);
                    cycles.add(cycle);
                } else if (next.compareTo(start) > 0 && !path.contains(next)) {
                    path.add(next);
                    walk(start, next, path, uses, cycles);
                    path.remove(path.size() - 1);
                }
            }
        }

        /** The source without comments, string and character literals and text blocks. */
        static String codeOnly(String source) {
            StringBuilder out = new StringBuilder();
            int i = 0;
            int n = source.length();
            while (i < n) {
                if (source.startsWith("\"\"\"", i)) {
                    int end = source.indexOf("\"\"\"", i + 3);
                    while (end > 0 && source.charAt(end - 1) == '\\') {
                        end = source.indexOf("\"\"\"", end + 1);
                    }
                    out.append("\"\"");
                    i = end < 0 ? n : end + 3;
                } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                    char quote = source.charAt(i);
                    int j = i + 1;
                    while (j < n && source.charAt(j) != quote) {
                        j += source.charAt(j) == '\\' ? 2 : 1;
                    }
                    out.append("\"\"");
                    i = j + 1;
                } else if (source.startsWith("//", i)) {
                    int end = source.indexOf('\n', i);
                    i = end < 0 ? n : end;
                } else if (source.startsWith("/*", i)) {
                    int end = source.indexOf("*/", i + 2);
                    i = end < 0 ? n : end + 2;
                } else {
                    out.append(source.charAt(i++));
                }
            }
            return out.toString();
        }
    }
}
