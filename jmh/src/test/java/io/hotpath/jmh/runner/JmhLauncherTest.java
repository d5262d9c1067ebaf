package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/lib/jmh.sh ({@code bin/hotpath jmh}) hands what follows {@code --} to the runner unchanged, through the file
 * {@link ArgsFile} reads. Maven is a stand-in on PATH that records its arguments and a copy of that file (the script
 * removes the file when it ends), so nothing is built or measured here.
 */
class JmhLauncherTest {

    private static final Path ROOT = Paths.get(System.getProperty("hotpath.project.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @BeforeEach
    void putAStandInMavenOnPath() throws IOException {
        assumeTrue(Files.isExecutable(Paths.get("/bin/bash")), "needs bash");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.write(mvn, Arrays.asList(
            "#!/bin/bash",
            "printf '%s\\0' \"$@\" > \"$RECORD/argv\"",
            "for a in \"$@\"; do",
            "  case \"$a\" in -Djmh.argsFile=*) f=\"${a#-Djmh.argsFile=}\"; cp \"$f\" \"$RECORD/args\"; echo \"$f\" > \"$RECORD/path\" ;; esac",
            "done"), StandardCharsets.UTF_8);
        assertThat(mvn.toFile().setExecutable(true)).isTrue();
    }

    private Process run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(Arrays.asList("bash", ROOT.resolve("bin/hotpath").toString(), "jmh"));
        command.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("RECORD", dir.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p;
    }

    @Test
    void passesWhatFollowsTheDashesThroughAFileUnderJmhTarget() throws Exception {
        List<String> jmh = Arrays.asList("-f", "1", "-jvmArgsAppend", "-XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation",
            "it's \"quoted\"", "", "PropertiesParseBenchmark.upstream490$", "-p", "corpus=small5");
        List<String> args = new ArrayList<>(Arrays.asList("--quick", "--"));
        args.addAll(jmh);

        Process p = run(args.toArray(new String[0]));

        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(ArgsFile.read(dir.resolve("args"))).containsExactlyElementsOf(jmh);
        Path file = Paths.get(Files.readString(dir.resolve("path")).trim());
        assertThat(file.getParent()).isEqualTo(ROOT.resolve("jmh/target"));
        assertThat(file).doesNotExist();
        assertThat(ArgsFile.read(dir.resolve("argv"))).contains("-Djmh.forks=1", "-Djmh.argsFile=" + file);
    }

    @Test
    void passesNoFileWithoutTheDashes() throws Exception {
        Process p = run("--quick");

        assertThat(p.exitValue()).isZero();
        assertThat(ArgsFile.read(dir.resolve("argv"))).noneMatch(a -> a.startsWith("-Djmh.argsFile"));
    }

    @Test
    void refusesOptionsForJmhWhenNoBenchmarkRuns() throws Exception {
        Process p = run("--line", "5.3.3", "--write-results", ROOT.resolve("pom.xml").toString(), "--", "-f", "1");

        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("hotpath: error: --write-results runs no benchmark: nothing to pass to JMH after --\n");
        assertThat(dir.resolve("argv")).doesNotExist();
    }
}
