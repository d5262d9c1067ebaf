package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the runner writes stays in the build directory: JMH's temporary files and its lock ({@code <java.io.tmpdir>/jmh.lock},
 * which JMH 1.37's Runner reads when it loads), the forks' temporary files, and a line's run unless it is asked to
 * write into docs/results/.
 */
class TemporaryFilesTest {

    private static final Path ROOT = Paths.get(System.getProperty("hotpath.project.root", "..")).toAbsolutePath().normalize();

    @Test
    void theForksTakeATemporaryDirectoryUnderTheBuildDirectory(@TempDir Path target) throws Exception {
        JmhArguments args = new JmhArguments(List.of());
        BenchmarkRunner.forkTemporaryFiles(args, target);
        assertThat(args.toList()).containsSubsequence("-jvmArgsPrepend",
            "-XX:-UsePerfData -Djava.io.tmpdir=" + target.resolve("tmp"));
        assertThat(target.resolve("tmp")).isDirectory();
    }

    @Test
    void theUsersOwnPrependReplacesIt(@TempDir Path target) throws Exception {
        JmhArguments args = new JmhArguments(List.of("-jvmArgsPrepend", "-Dx=1"));
        BenchmarkRunner.forkTemporaryFiles(args, target);
        assertThat(args.toList()).containsExactly("-jvmArgsPrepend", "-Dx=1");
        assertThat(args.leftOut()).contains("-jvmArgsPrepend");
    }

    /** The runner's own JVM: JMH's lock and temporary files follow its java.io.tmpdir, which the pom sets. */
    @Test
    void thePomStartsTheRunnerWithItsTemporaryDirectoryUnderTarget() throws Exception {
        String pom = Files.readString(ROOT.resolve("jmh/pom.xml"), StandardCharsets.UTF_8);
        assertThat(pom).contains("<argument>-Djava.io.tmpdir=${project.build.directory}/" + BenchmarkRunner.TMP + "</argument>",
            "<argument>-XX:-UsePerfData</argument>");
    }

    @Test
    void aLinesRunWritesUnderTheBuildDirectoryUnlessAskedForAnotherPlace(@TempDir Path dir) {
        Path target = dir.resolve("jmh/target");
        assertThat(BenchmarkRunner.lineResultDir(RunnerOptions.of(), target, dir)).isEqualTo(target.resolve("results"));
        // bin/hotpath jmh --line R --to-docs
        assertThat(BenchmarkRunner.lineResultDir(RunnerOptions.of("jmh.resultDir", "docs/results"), target, dir))
            .isEqualTo(dir.resolve("docs/results"));
    }
}
