package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.campaign.Arm;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdleOptionsTest {

    @TempDir
    Path root;

    /** A release line as ReleaseLines reads it: patches/<release>/line.properties, and tuned.properties when asked. */
    private ReleaseLine line(String release, boolean tuned) throws IOException {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        Files.writeString(dir.resolve("line.properties"), "release=" + release + "\n"
                + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
                + "oracle=org.apache.rocketmq:" + release + "\n"
                + "upstream.tests.modules=common\n");
        if (tuned) {
            Files.writeString(dir.resolve("tuned.properties"), "sendMessageThreadPoolNums=4\n");
        }
        return IdleOptions.parse("--line", release).releaseLine(root);
    }

    @Test
    void defaultsAreTheIssuesWindowThreeRoundsAndTheReportUnderTarget() {
        IdleOptions options = IdleOptions.parse();

        assertThat(options.rounds()).isEqualTo(3);
        assertThat(options.settleSeconds()).isEqualTo(60);
        assertThat(options.maxSettleSeconds()).isEqualTo(480);
        assertThat(options.seconds()).isEqualTo(60);
        assertThat(options.line()).isNull();
        assertThat(options.privateNetwork()).isTrue();
        assertThat(options.outDir(root)).isEqualTo(root.resolve("target/idle"));
    }

    @Test
    void readsEveryOptionInBothSpellings() {
        IdleOptions options = IdleOptions.parse("--rounds", "5", "--settle=30", "--max-settle", "120", "--seconds", "90", "--line", "5.5.1", "--arms",
                "stock,patched+tuned", "--out", "docs/results", "--base-port", "29876", "--no-netns");

        assertThat(options.rounds()).isEqualTo(5);
        assertThat(options.settleSeconds()).isEqualTo(30);
        assertThat(options.maxSettleSeconds()).isEqualTo(120);
        assertThat(options.seconds()).isEqualTo(90);
        assertThatThrownBy(() -> IdleOptions.parse("--settle", "120", "--max-settle", "60")).isInstanceOf(UsageException.class)
                .hasMessage("--max-settle 60 is below --settle 120");
        assertThat(options.line()).isEqualTo("5.5.1");
        assertThat(options.armKinds()).containsExactly("stock", "patched+tuned");
        assertThat(options.outDir(root)).isEqualTo(root.resolve("docs/results"));
        assertThat(options.basePort()).isEqualTo(29876);
        assertThat(options.privateNetwork()).isFalse();
        assertThat(IdleOptions.parse("-h").help()).isTrue();
    }

    @Test
    void badInputIsOneLineNamingTheOption() {
        assertThatThrownBy(() -> IdleOptions.parse("--rounds", "0")).isInstanceOf(UsageException.class)
                .hasMessage("--rounds must be between 1 and 100, got 0");
        assertThatThrownBy(() -> IdleOptions.parse("--seconds", "ten")).isInstanceOf(UsageException.class)
                .hasMessage("--seconds must be a whole number, got 'ten'");
        assertThatThrownBy(() -> IdleOptions.parse("--settle")).isInstanceOf(UsageException.class)
                .hasMessage("option --settle needs a value (see bin/hotpath idle --help)");
        assertThatThrownBy(() -> IdleOptions.parse("--rate", "250")).isInstanceOf(UsageException.class)
                .hasMessage("unknown option '--rate' for idle (see bin/hotpath idle --help)");
        assertThatThrownBy(() -> IdleOptions.parse("5.5.1")).isInstanceOf(UsageException.class)
                .hasMessage("unexpected argument '5.5.1' for idle (see bin/hotpath idle --help)");
        assertThatThrownBy(() -> IdleOptions.parse("--arms", "stock")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--arms needs at least two arms");
        assertThatThrownBy(() -> IdleOptions.parse("--out=")).isInstanceOf(UsageException.class)
                .hasMessage("--out needs a folder, got ''");
        for (String[] bad : List.of(new String[] {"--rounds", "0"}, new String[] {"--arms", "stock,stock"}, new String[] {"--x"})) {
            assertThatThrownBy(() -> IdleOptions.parse(bad)).satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void theDefaultArmsAddPatchedTunedOnlyWhereTheLineShipsATunedConfiguration() throws IOException {
        assertThat(IdleOptions.parse().arms(line("5.5.1", false))).extracting(Arm::label).containsExactly("stock", "patched");
        List<Arm> tuned = IdleOptions.parse().arms(line("4.9.8", true));
        assertThat(tuned).extracting(Arm::label).containsExactly("stock", "patched", "patched+tuned");
        assertThat(tuned.get(2)).isEqualTo(new Arm("patched+tuned", "4.9.8", "patched", true, false));
        assertThat(IdleOptions.parse("--arms", "patched,stock").arms(line("4.9.0", true))).extracting(Arm::label)
                .containsExactly("patched", "stock");
    }

    @Test
    void threeArmsRunInReverseOnEvenRoundsAndTwoAlternateAsTheyAre() {
        List<Arm> three = List.of(new Arm("stock", "5.5.1", "stock"), new Arm("patched", "5.5.1", "patched"),
                new Arm("patched+tuned", "5.5.1", "patched", true));
        assertThat(IdleOptions.roundOrder(three, 1)).isEqualTo(three);
        assertThat(IdleOptions.roundOrder(three, 2)).extracting(Arm::label).containsExactly("patched+tuned", "patched", "stock");
        assertThat(IdleOptions.roundOrder(three.subList(0, 2), 2)).isEqualTo(three.subList(0, 2));
    }
}
