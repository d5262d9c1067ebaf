package io.hotpath.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagedProcessTest {

    @TempDir
    Path dir;

    private ManagedProcess start(String script) {
        return ManagedProcess.start("test", List.of("bash", "-c", script), Map.of(), List.of(), dir, dir.resolve("out.log"));
    }

    @Test
    void stopsAProcessThatHonoursSigtermWithinTheGracePeriod() throws Exception {
        ManagedProcess process = start("echo started; exec sleep 300");

        assertThat(process.stop(Duration.ofSeconds(10))).isTrue();
        assertThat(process.isAlive()).isFalse();
        assertThat(Files.readString(dir.resolve("pid")).strip()).isEqualTo(Long.toString(process.pid()));
    }

    @Test
    void killsAProcessThatIgnoresSigtermAfterTheGracePeriod() {
        ManagedProcess process = start("trap '' TERM; echo ready; while true; do sleep 0.1; done");
        awaitOutput("ready");

        assertThat(process.stop(Duration.ofMillis(500))).isFalse();
        assertThat(process.isAlive()).isFalse();
    }

    @Test
    void killsDescendantsThatOutliveTheirParent() throws Exception {
        // the child ignores SIGTERM and would be orphaned when its parent shell exits
        ManagedProcess process = start("bash -c \"trap '' TERM; exec sleep 300\" & echo $! > child.pid; wait");
        long child = awaitChildPid();

        process.stop(Duration.ofSeconds(5));

        Optional<ProcessHandle> handle = ProcessHandle.of(child);
        assertThat(handle.map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void freezesAndResumesTheProcessAndItsDescendants() throws Exception {
        ManagedProcess process = start("bash -c 'exec sleep 300' & echo $! > child.pid; wait");
        long child = awaitChildPid();
        try {
            process.freeze(true);
            assertThat(state(process.pid())).isEqualTo('T');
            assertThat(state(child)).isEqualTo('T');

            process.freeze(false);
            assertThat(state(process.pid())).isNotEqualTo('T');
            assertThat(state(child)).isNotEqualTo('T');
        } finally {
            process.freeze(false);
            process.stop(Duration.ofSeconds(5));
        }
    }

    /** The state letter of /proc/<pid>/stat: T = stopped by a signal. */
    private static char state(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    @Test
    void reportsExitCodeAndLogTailOfAProcessThatDied() throws Exception {
        ManagedProcess process = start("echo first; echo 'last words'; exit 3");
        assertThat(process.awaitExit(Duration.ofSeconds(10))).isTrue();

        assertThat(process.exitCode()).isEqualTo(3);
        assertThat(process.tail(1)).isEqualTo("last words");
    }

    private long awaitChildPid() throws Exception {
        Path file = dir.resolve("child.pid");
        for (int i = 0; i < 100 && (!Files.exists(file) || Files.readString(file).isBlank()); i++) {
            Thread.sleep(50);
        }
        Thread.sleep(200); // let the child install its trap
        return Long.parseLong(Files.readString(file).strip());
    }

    private void awaitOutput(String text) {
        for (int i = 0; i < 100; i++) {
            try {
                if (Files.readString(dir.resolve("out.log")).contains(text)) {
                    return;
                }
                Thread.sleep(50);
            } catch (Exception e) {
                // not written yet
            }
        }
    }
}
