package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Every {@code mvn ... -pl jmh verify ...} and {@code java -jar jmh/target/benchmarks.jar ...} command that jmh/README.md
 * and docs/commands.md show works as written: the runner, given that command's {@code -Djmh.*} switches, decides to run
 * and selects at least one benchmark with settings it accepts ({@link BenchmarkRunner#run(String[], RunnerOptions,
 * boolean)} rehearsing: nothing is measured or written), and JMH's own command line selects at least one benchmark.
 * In seconds, so in every build; {@code bin/hotpath jmh ...} lines are cli's JmhTest's. FreshCloneBuildTest runs one
 * such command for real, with jmh's tests, on a copy of the tree.
 *
 * <p>Control ({@link #aCommandThatSelectsNothingIsCaught}): the README's
 * {@code -Djmh.include='PropertiesEncodeBenchmark\.(upstream490|hotpath)$'} misspelt fails with "no benchmark matches".
 */
class DocumentedCommandsTest {

    private static final Path ROOT = Paths.get(System.getProperty("hotpath.project.root", "..")).toAbsolutePath().normalize();
    private static final List<String> DOCS = List.of("jmh/README.md", "docs/commands.md");

    /** The code lines of a Markdown file: indented four spaces or inside a fence; continuation lines joined. */
    static List<String> codeLines(String markdown) {
        List<String> lines = new ArrayList<>();
        boolean fenced = false;
        StringBuilder pending = null;
        for (String raw : markdown.split("\n", -1)) {
            if (raw.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced && !raw.startsWith("    ") && pending == null) {
                continue;
            }
            String line = raw.trim();
            if (pending != null) {
                line = pending + " " + line;
                pending = null;
            }
            if (line.endsWith("\\")) {
                pending = new StringBuilder(line.substring(0, line.length() - 1).trim());
                continue;
            }
            lines.add(line);
        }
        return lines;
    }

    /** A shell line's words: single and double quotes kept together, a {@code #} comment and {@code [optional]} parts dropped. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                w = w == null ? new StringBuilder() : w;
            } else if (c == '#' && w == null) {
                break;
            } else if (Character.isWhitespace(c)) {
                if (w != null) {
                    words.add(w.toString());
                    w = null;
                }
            } else {
                w = w == null ? new StringBuilder() : w;
                w.append(c);
            }
        }
        if (w != null) {
            words.add(w.toString());
        }
        words.removeIf(s -> s.startsWith("[") && s.endsWith("]"));
        return words;
    }

    static List<String> documented(String prefix) throws IOException {
        List<String> commands = new ArrayList<>();
        for (String doc : DOCS) {
            for (String line : codeLines(Files.readString(ROOT.resolve(doc), StandardCharsets.UTF_8))) {
                if (line.startsWith(prefix) && (!prefix.equals("mvn ") || words(line).containsAll(List.of("-pl", "jmh")))) {
                    commands.add(line);
                }
            }
        }
        return commands;
    }

    private static int rehearse(List<String> words) throws Exception {
        Map<String, String> switches = new LinkedHashMap<>();
        for (String w : words) {
            if (w.startsWith("-Djmh.")) {
                int eq = w.indexOf('=');
                switches.put(w.substring(2, eq), w.substring(eq + 1));
            }
        }
        Path out = ROOT.resolve("jmh/target/documented-commands");
        String[] maven = {"--selected-projects=[jmh]", "--execution-root=" + ROOT, "--basedir=" + ROOT.resolve("jmh"),
            "--module=io.hotpath:hotpath-jmh", "--output-dir=" + out, "--project-root=" + ROOT};
        return BenchmarkRunner.run(maven, RunnerOptions.of(switches), true);
    }

    @Test
    void everyDocumentedMavenCommandSelectsBenchmarksTheRunnerAccepts() throws Exception {
        List<String> commands = documented("mvn ");
        assertThat(commands).as("mvn commands in %s", DOCS).hasSizeGreaterThanOrEqualTo(8);
        for (String command : commands) {
            List<String> words = words(command);
            assertThat(words).as(command).contains("-pl", "jmh", "verify");
            assertThat(rehearse(words)).as(command).isZero();
        }
    }

    @Test
    void everyDocumentedBenchmarksJarCommandSelectsBenchmarks() throws Exception {
        List<String> commands = documented("java -jar jmh/target/benchmarks.jar");
        assertThat(commands).as("benchmarks.jar commands in %s", DOCS).hasSizeGreaterThanOrEqualTo(3);
        for (String command : commands) {
            List<String> words = words(command);
            CommandLineOptions jmh = new CommandLineOptions(words.subList(3, words.size()).toArray(new String[0]));
            if (!jmh.shouldHelp() && !jmh.shouldList() && !jmh.shouldListWithParams()) {
                assertThat(BenchmarkRunner.combinations(jmh)).as(command).isPositive();
            }
        }
    }

    @Test
    void aCommandThatSelectsNothingIsCaught() {
        List<String> words = words("mvn -B -pl jmh verify -Djmh.include='PropertiesEncodBenchmark\\.(upstream490|hotpath)$'"
            + " -Djmh.params=corpus=small5");
        assertThatThrownBy(() -> rehearse(words)).hasMessageStartingWith("no benchmark matches");
    }

    @Test
    void readsCodeLinesAsTheShellWould() {
        assertThat(codeLines("text mvn -pl jmh verify\n\n    mvn -B -pl jmh verify -Djmh.a=1 \\\n        -Djmh.b=2\n"
            + "```bash\nbin/hotpath jmh   # comment\n```\n"))
            .containsExactly("mvn -B -pl jmh verify -Djmh.a=1 -Djmh.b=2", "bin/hotpath jmh   # comment");
        assertThat(words("mvn -Djmh.include='a b|c$' [-Djmh.x=...] x   # y")).containsExactly("mvn", "-Djmh.include=a b|c$", "x");
    }
}
