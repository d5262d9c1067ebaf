package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.hotpath.profiling.fixture.BusyTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The live-attach path for real: starts {@link BusyTarget} in its own JVM, attaches through the
 * JDK attach API for 3 s and checks the flame graphs and collapsed stacks. Needs the unpacked
 * agent library (built by this module) and ~10 s; runs only with {@code -Dhotpath.profile.smoke=true}.
 */
@EnabledIfSystemProperty(named = "hotpath.profile.smoke", matches = "true")
class ProfilerSmokeTest {

    private static final String FRAME = "io/hotpath/profiling/fixture/BusyTarget.churn";

    private final Path library = Path.of(System.getProperty("hotpath.profiler.lib"));
    private Path out;
    private Process target;

    @BeforeEach
    void startTarget() throws Exception {
        out = Path.of(System.getProperty("hotpath.profile.testOutput")).resolve(Platform.stamp() + "-" + System.nanoTime());
        Files.createDirectories(out);
        target = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:-UsePerfData", "-Xmx64m", "-cp", System.getProperty("java.class.path"), BusyTarget.class.getName(), "60")
            .directory(out.toFile())
            .redirectErrorStream(true)
            .start();
        BufferedReader output = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
        assertThat(output.readLine()).isEqualTo("ready");
    }

    @AfterEach
    void stopTarget() throws Exception {
        target.destroyForcibly();
        assertThat(target.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void attachesToARunningJvmAndWritesFlameGraphsWithItsFrames() throws Exception {
        List<LiveSession.Result> results = session(null).run(List.of(new LiveSession.Target(target.pid(), "busy")),
            Duration.ofSeconds(3));

        assertThat(results).hasSize(1);
        assertThat(results.get(0).outputs()).hasSize(2);
        for (JfrExport.Output output : results.get(0).outputs()) {
            assertThat(output.samples()).as(output.event() + " samples").isPositive();
            assertThat(Files.readString(output.collapsed())).as(output.collapsed().toString()).contains(FRAME);
            assertThat(Files.readString(output.html())).as(output.html().toString())
                .contains("<html").contains("BusyTarget.churn");
        }
        assertThat(out.resolve("busy.jfr")).isNotEmptyFile();
    }

    @Test
    void samplesCpuWithItimerWhenPerfEventsAreNotWanted() throws Exception {
        List<LiveSession.Result> results = session(CpuEngine.ITIMER).run(
            List.of(new LiveSession.Target(target.pid(), "busy")), Duration.ofSeconds(3));

        assertThat(results.get(0).engine()).isEqualTo(CpuEngine.ITIMER);
        assertThat(JfrExport.engine(results.get(0).jfr())).isEqualTo("itimer");
        assertThat(Files.readString(out.resolve("busy-cpu.collapsed"))).contains(FRAME);
    }

    private LiveSession session(CpuEngine engine) {
        return new LiveSession(library, EnumSet.of(ProfileEvent.CPU, ProfileEvent.ALLOC), engine, out,
            new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }
}
