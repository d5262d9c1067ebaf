package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.hotpath.lines.ReleaseLine;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    private static final Set<ProfileEvent> ALL = EnumSet.allOf(ProfileEvent.class);

    @Test
    void parsesEventListsAndBoth() {
        assertThat(ProfileEvent.parseList("--event", "cpu,alloc,wall", ALL)).containsExactly(ProfileEvent.values());
        assertThat(ProfileEvent.parseList("--event", "both", ALL)).containsExactly(ProfileEvent.CPU, ProfileEvent.ALLOC);
        assertThatThrownBy(() -> ProfileEvent.parseList("--event", "wall", EnumSet.of(ProfileEvent.CPU, ProfileEvent.ALLOC)))
            .isInstanceOf(UsageException.class)
            .hasMessage("--event takes a comma-separated list of cpu,alloc (or both), got 'wall'");
        assertThatThrownBy(() -> ProfileEvent.parseList("--event", "", ALL)).isInstanceOf(UsageException.class);
    }

    @Test
    void parsesCpuEngines() {
        assertThat(CpuEngine.parseOption("auto")).isNull();
        assertThat(CpuEngine.parseOption("perf")).isEqualTo(CpuEngine.PERF_EVENTS);
        assertThat(CpuEngine.parseOption("itimer").eventOption()).isEqualTo("itimer");
        assertThat(CpuEngine.fromJfrName("ctimer")).isEqualTo(CpuEngine.CTIMER);
        assertThatThrownBy(() -> CpuEngine.parseOption("cycles")).isInstanceOf(UsageException.class);
    }

    @Test
    void parsesOptionsWithSpaceOrEqualsAndRejectsUnknownOnes() {
        Options options = Options.parse("broker", List.of("--pid", "42", "--name=broker-a", "--param", "a=1", "--param", "b=2", "DIR"),
            Set.of("--pid", "--name", "--param"), Set.of());

        assertThat(options.number("--pid", 0, 1, 100)).isEqualTo(42);
        assertThat(options.get("--name", null)).isEqualTo("broker-a");
        assertThat(options.all("--param")).containsExactly("a=1", "b=2");
        assertThat(options.positional()).containsExactly("DIR");
        assertThatThrownBy(() -> Options.parse("broker", List.of("--pidd", "1"), Set.of("--pid"), Set.of()))
            .isInstanceOf(UsageException.class)
            .hasMessage("unknown option '--pidd' for profile broker (see bin/hotpath profile broker --help)");
        assertThatThrownBy(() -> Options.parse("broker", List.of("--pid"), Set.of("--pid"), Set.of()))
            .isInstanceOf(UsageException.class)
            .hasMessageStartingWith("option --pid needs a value");
        assertThatThrownBy(() -> options.number("--pid", 0, 1, 10))
            .isInstanceOf(UsageException.class)
            .hasMessage("--pid must be between 1 and 10, got 42");
    }

    @Test
    void buildsAgentOptionsWithEveryEventInOneJfr() {
        LiveSession all = new LiveSession(Path.of("lib.so"), ALL, null, Path.of("out"), System.out);
        LiveSession allocOnly = new LiveSession(Path.of("lib.so"), EnumSet.of(ProfileEvent.ALLOC), null, Path.of("out"), System.out);

        assertThat(all.startOptions(CpuEngine.PERF_EVENTS, Path.of("/o/b.jfr"))).isEqualTo("event=cpu,alloc,wall,jfr,file=/o/b.jfr");
        assertThat(all.startOptions(CpuEngine.ITIMER, Path.of("/o/b.jfr"))).isEqualTo("event=itimer,alloc,wall,jfr,file=/o/b.jfr");
        assertThat(allocOnly.startOptions(null, Path.of("/o/b.jfr"))).isEqualTo("alloc,jfr,file=/o/b.jfr");
    }

    @Test
    void buildsJmhAsyncProfilerOptions() {
        JmhSession jmh = new JmhSession(Path.of("/r"), Path.of("/lib.so"), Path.of("/run"), System.out);

        assertThat(jmh.asyncProfilerOption(EnumSet.of(ProfileEvent.CPU, ProfileEvent.ALLOC), CpuEngine.PERF_EVENTS, Path.of("/run/jmh")))
            .isEqualTo("async:libPath=/lib.so;output=jfr;dir=/run/jmh;event=cpu;alloc");
        assertThat(jmh.asyncProfilerOption(EnumSet.of(ProfileEvent.CPU), CpuEngine.ITIMER, Path.of("/run/jmh")))
            .isEqualTo("async:libPath=/lib.so;output=jfr;dir=/run/jmh;event=itimer");
        assertThat(jmh.asyncProfilerOption(EnumSet.of(ProfileEvent.ALLOC), null, Path.of("/run/jmh")))
            .isEqualTo("async:libPath=/lib.so;output=jfr;dir=/run/jmh;event=alloc");
    }

    @Test
    void readsTheInnermostPidOfANamespacedProcess() {
        assertThat(ClusterSession.parseInnermostPid("NSpid:\t4242\t17")).isEqualTo(17);
        assertThat(ClusterSession.parseInnermostPid("NSpid:\t4242")).isEqualTo(4242);
    }

    @Test
    void followsTheSmokeThroughTheRunRecordItNamesNotItsConsole() {
        assertThat(ClusterSession.smokeCommand(Path.of("/r"), "patched", "4.9.0", new ClusterSession.SmokeLoad(20000, 16, 0, 0),
                Path.of("/out/run-record.json")))
            .containsExactly("bash", "/r/bin/hotpath", "smoke", "--dist", "patched", "--line", "4.9.0", "-n", "20000", "-w", "16",
                "--run-record", "/out/run-record.json", "--broker-jvm-opts=" + String.join(" ", DecoderProvenance.brokerJvmOptions()));
        assertThat(ClusterSession.smokeCommand(Path.of("/r"), "patched", "5.3.3", new ClusterSession.SmokeLoad(12000, 16, 500, 20),
                Path.of("/out/run-record.json")))
            .containsExactly("bash", "/r/bin/hotpath", "smoke", "--dist", "patched", "--line", "5.3.3", "-n", "12000", "-w", "16",
                "--rate", "500", "--warmup", "20", "--run-record", "/out/run-record.json",
                "--broker-jvm-opts=" + String.join(" ", DecoderProvenance.brokerJvmOptions()));
    }

    @Test
    void anUnknownReleaseLineIsOneLineNamingTheKnownOnes() {
        // hotpath.root is this checkout (surefire): the error names the lines its patches/ folder holds
        String known = String.join(", ", ReleaseLine.all(Path.of(System.getProperty("hotpath.root"), "patches")).stream()
            .map(ReleaseLine::release).toList());
        assertThat(known).startsWith("4.9.0");
        assertThat(stderrOf("cluster", "--dist", "patched", "--line", "4.9.9")).isEqualTo(
            "hotpath: error: unknown release line '4.9.9'; known lines: " + known + " (patches/<release>/line.properties)\n");
    }

    @Test
    void answersBadInputWithOneLineAndStatusTwo() {
        assertThat(stderrOf("broker", "--pid", "0")).isEqualTo("hotpath: error: --pid must be between 1 and 2147483647, got 0\n");
        assertThat(stderrOf("broker", "--pid", "1", "--seconds")).startsWith("hotpath: error: option --seconds needs a value");
        assertThat(stderrOf("nonsense")).isEqualTo(
            "hotpath: error: unknown profile command 'nonsense' (jmh, broker, cluster, compare, check, provenance)\n");
        assertThat(stderrOf("provenance", "/no/such/dir")).isEqualTo("hotpath: error: no run record at /no/such/dir/run-record.json"
            + " (give a profile cluster directory or a smoke run directory)\n");
        assertThat(stderrOf("compare", "/no/such/dir", "/no/such/either")).isEqualTo("hotpath: error: no such directory: /no/such/dir\n");
    }

    /** Runs the command, expects exit status 2, returns what it printed on stderr. */
    private static String stderrOf(String... args) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(ProfileCommand.run(args)).isEqualTo(2);
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
