package io.hotpath.e2e.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the e2e commands pick a line; the descriptor rules themselves are release-lines' ReleaseLineTest. */
class ReleaseLinesTest {

    @TempDir
    Path root;

    private void line(String release) throws IOException {
        line(release, "");
    }

    private void line(String release, String extra) throws IOException {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        Files.writeString(dir.resolve("line.properties"), extra + "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\n"
            + "upstream.tests.modules=common\n");
    }

    @Test
    void defaultsToTheNewestLineComparingNumbers() throws IOException {
        line("4.9.8");
        line("4.9.10");
        line("4.9.0");
        Files.createDirectories(root.resolve("patches/5.0.0")); // no descriptor: not a line

        assertThat(ReleaseLines.list(root)).containsExactly("4.9.0", "4.9.8", "4.9.10");
        assertThat(ReleaseLines.newest(root).release()).isEqualTo("4.9.10");
        assertThat(ReleaseLines.resolve(null, root).release()).isEqualTo("4.9.10");
        assertThat(ReleaseLines.resolve("4.9.8", root).release()).isEqualTo("4.9.8");
    }

    @Test
    void anUnknownLineIsTheCommandLinesOneLineErrorNamingTheKnownOnes() throws IOException {
        line("4.9.0");
        line("4.9.8");

        assertThatThrownBy(() -> ReleaseLines.resolve("4.9.9", root)).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("unknown release line '4.9.9'; known lines: 4.9.0, 4.9.8");
    }

    @Test
    void aPartialLineIsNeverTheDefaultAndIsRefusedWithTheCommandThatBuildsIt() throws IOException {
        line("4.9.0");
        line("4.9.8", "complete=false\n");

        assertThat(ReleaseLines.newest(root).release()).isEqualTo("4.9.0");
        assertThatThrownBy(() -> ReleaseLines.resolve("4.9.8", root)).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("release line '4.9.8' is partial (complete=false in its line.properties)")
                .hasMessageContaining("bin/hotpath build-broker --line 4.9.8");
    }

    @Test
    void theSmokeRunsAPartialLineOnlyWhenItIsNamed() throws IOException {
        line("4.9.0");
        line("4.9.8", "complete=false\n");

        assertThat(ReleaseLines.resolveNamedPartial("4.9.8", root).release()).isEqualTo("4.9.8");
        assertThat(ReleaseLines.resolveNamedPartial("4.9.8", root).complete()).isFalse();
        assertThat(ReleaseLines.resolveNamedPartial(null, root).release()).isEqualTo("4.9.0");
        assertThat(ReleaseLines.resolveNamedPartial(null, root).complete()).isTrue();
        assertThatThrownBy(() -> ReleaseLines.resolveNamedPartial("4.9.9", root)).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("unknown release line '4.9.9'");
    }

    @Test
    void aCheckoutWithoutLinesSaysWhatALineIs() {
        assertThatThrownBy(() -> ReleaseLines.resolve(null, root)).isInstanceOf(UsageException.class)
                .hasMessageContaining("no release line in").hasMessageContaining("line.properties");
    }

    @Test
    void aLinesDistributionsLiveUnderBrokerDistTarget() {
        assertThat(ReleaseLines.distributionHome(root, "4.9.8", "patched"))
                .isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.8-patched"));
    }

    @Test
    void thisCheckoutHasTheLineItsDistributionsAreBuiltFor() {
        Path checkout = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();

        assertThat(ReleaseLines.list(checkout)).isNotEmpty();
    }
}
