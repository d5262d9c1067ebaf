package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/hotpath jmh} hands what follows {@code --} to the runner unchanged, through a NUL-separated file under
 * jmh/target/ (io.hotpath.jmh.runner.ArgsFile reads it), removed when the command ends. Maven is a stand-in that
 * records its arguments and a copy of that file, so nothing is built or measured here.
 */
class JmhTest {

    @TempDir
    Path root;

    private StandInMaven maven() throws Exception {
        new Checkout(root).line("5.3.3", true);
        // copies the file -Djmh.argsFile names, and where it was
        return new StandInMaven(root, 0, "for a in \"$@\"; do case \"$a\" in -Djmh.argsFile=*) f=\"${a#-Djmh.argsFile=}\";"
            + " cp \"$f\" '" + root.resolve("args") + "'; echo \"$f\" > '" + root.resolve("path") + "' ;; esac; done");
    }

    private static List<String> nulSeparated(byte[] bytes) {
        List<String> args = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                args.add(new String(bytes, from, i - from, StandardCharsets.UTF_8));
                from = i + 1;
            }
        }
        assertThat(from).as("every argument ends in NUL").isEqualTo(bytes.length);
        return args;
    }

    @Test
    void passesWhatFollowsTheDashesThroughAFileUnderJmhTarget() throws Exception {
        StandInMaven maven = maven();
        List<String> jmh = Arrays.asList("-f", "1", "-jvmArgsAppend", "-XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation",
            "it's \"quoted\"", "", "PropertiesParseBenchmark.upstream490$", "-p", "corpus=small5");
        List<String> args = new ArrayList<>(Arrays.asList("jmh", "--quick", "--"));
        args.addAll(jmh);

        assertThat(Hotpath.run(root, maven.run(), args.toArray(String[]::new))).isZero();

        assertThat(nulSeparated(Files.readAllBytes(root.resolve("args")))).containsExactlyElementsOf(jmh);
        Path file = Path.of(Files.readString(root.resolve("path")).trim());
        assertThat(file.getParent()).isEqualTo(root.resolve("jmh/target"));
        assertThat(file).doesNotExist();
        assertThat(maven.calls()).singleElement().asString().contains("-pl jmh verify", "-Djmh.forks=1", "-Djmh.argsFile=" + file);
    }

    @Test
    void passesNoFileWithoutTheDashesAndForksWinOverQuick() throws Exception {
        StandInMaven maven = maven();
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--forks", "3", "--quick", "--include", "Parse")).isZero();
        assertThat(maven.calls()).singleElement().asString().contains("-Djmh.forks=3", "-Djmh.include=Parse")
            .doesNotContain("-Djmh.forks=1", "-Djmh.argsFile");
    }

    @Test
    void refusesBadInputBeforeMavenRuns() throws Exception {
        StandInMaven maven = maven();
        Path results = Files.writeString(root.resolve("jmh-5.3.3.json"), "[]");
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--line", "5.3.3", "--write-results", results.toString(), "--", "-f", "1"))
            .isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--line", "9.9.9")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--forks", "0")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--include", "")).isEqualTo(2);
        assertThat(maven.calls()).isEmpty();
    }

    @Test
    void aLinesRunWritesUnderJmhTargetUnlessToldToWriteIntoDocs() throws Exception {
        StandInMaven maven = maven();
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--line", "5.3.3")).isZero();
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--line", "5.3.3", "--to-docs")).isZero();
        assertThat(maven.calls()).hasSize(2);
        // the runner's default for a line's run is jmh/target/results/ (io.hotpath.jmh.runner.BenchmarkRunner)
        assertThat(maven.calls().get(0)).contains("-Djmh.line=5.3.3").doesNotContain("-Djmh.resultDir");
        assertThat(maven.calls().get(1)).contains("-Djmh.line=5.3.3", "-Djmh.resultDir=" + root.resolve("docs/results"));
        // control: --to-docs means nothing without a line's run
        assertThat(Hotpath.run(root, maven.run(), "jmh", "--to-docs")).isEqualTo(2);
        assertThat(maven.calls()).hasSize(2);
    }

    /**
     * Every {@code bin/hotpath jmh ...} line that jmh/README.md and docs/commands.md show is accepted as written, and
     * each {@code -Djmh.*} switch it becomes is one jmh's pom hands to the runner (jmh's DocumentedCommandsTest rehearses
     * the runner with such switches). Control: {@code --quick} misspelt {@code --quik} is refused.
     */
    @Test
    void everyDocumentedCommandIsAcceptedAndBecomesSwitchesTheRunnerReads() throws Exception {
        Path project = Path.of(System.getProperty("user.dir")).resolve("..").toAbsolutePath().normalize();
        String pom = Files.readString(project.resolve("jmh/pom.xml"), StandardCharsets.UTF_8);
        List<String> commands = new ArrayList<>();
        for (String doc : List.of("jmh/README.md", "docs/commands.md")) {
            for (String line : Files.readAllLines(project.resolve(doc), StandardCharsets.UTF_8)) {
                String code = line.trim().replaceFirst("\\s+#.*$", "");
                if (code.startsWith("bin/hotpath jmh") && (line.startsWith("    ") || doc.endsWith("commands.md"))) {
                    commands.add(code);
                }
            }
        }
        assertThat(commands).as("bin/hotpath jmh lines").hasSizeGreaterThanOrEqualTo(6);
        for (String command : commands) {
            List<String> args = new ArrayList<>();
            for (String word : command.substring("bin/hotpath jmh".length()).trim().split("\\s+")) {
                if (!word.isEmpty()) {
                    args.add(word.replaceAll("^'(.*)'$", "$1"));
                }
            }
            int file = args.indexOf("--write-results") + 1;
            if (file > 0) {
                // resolved as the shell would from the repository root
                args.set(file, project.resolve(args.get(file)).toString());
            }
            Jmh.Plan plan = Jmh.plan(project, args);
            for (String m : plan.maven()) {
                if (m.startsWith("-Djmh.")) {
                    String name = m.substring(2, m.indexOf('='));
                    assertThat(pom).as("%s: the jmh pom passes -D%s to the runner", command, name)
                        .contains("<argument>-D" + name + "=${" + name + "}</argument>");
                }
            }
        }
        assertThatThrownBy(() -> Jmh.plan(project, List.of("--quik"))).isInstanceOf(io.hotpath.e2e.UsageException.class);
    }

    @Test
    void theCommandAsTypedIsQuotedWhereItMustBe() {
        assertThat(Hotpath.typed("jmh", "--quick", "--", "-jvmArgsAppend", "-Da=1 -Db=2", "it's"))
            .isEqualTo("bin/hotpath jmh --quick -- -jvmArgsAppend '-Da=1 -Db=2' 'it'\\''s'");
    }
}
