package io.hotpath.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReleaseLinesTest {

    @TempDir
    Path root;

    private void line(String release, String descriptor) throws IOException {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        if (descriptor != null) {
            Files.writeString(dir.resolve(ReleaseLines.DESCRIPTOR), descriptor);
        }
    }

    @Test
    void listsOnlyFoldersWithADescriptorOldestFirstComparingNumbers() throws IOException {
        line("4.9.8", "release=4.9.8\n");
        line("4.9.10", "release=4.9.10\n");
        line("4.9.0", "release=4.9.0\n");
        line("5.0.0", null);

        assertThat(ReleaseLines.list(root)).containsExactly("4.9.0", "4.9.8", "4.9.10");
        assertThat(ReleaseLines.newest(root)).isEqualTo("4.9.10");
        assertThat(ReleaseLines.resolve(null, root)).isEqualTo("4.9.10");
        assertThat(ReleaseLines.resolve("4.9.8", root)).isEqualTo("4.9.8");
    }

    @Test
    void anUnknownLineIsOneLineNamingTheKnownOnes() throws IOException {
        line("4.9.0", "release=4.9.0\n");
        line("4.9.8", "release=4.9.8\n");

        assertThatThrownBy(() -> ReleaseLines.resolve("4.9.9", root)).isInstanceOf(UsageException.class)
                .hasMessage("unknown release line '4.9.9'; known lines: 4.9.0, 4.9.8 (patches/<release>/line.properties)");
    }

    @Test
    void aCheckoutWithoutLinesSaysWhatALineIs() {
        assertThatThrownBy(() -> ReleaseLines.resolve(null, root)).isInstanceOf(UsageException.class)
                .hasMessageContaining("no release line in").hasMessageContaining("patches/<release>/line.properties");
    }

    @Test
    void aDescriptorMustNameItsOwnFolder() throws IOException {
        line("4.9.8", "release=4.9.0\n");

        assertThatThrownBy(() -> ReleaseLines.resolve("4.9.8", root)).isInstanceOf(UsageException.class)
                .hasMessageEndingWith("line.properties says release=4.9.0, not 4.9.8");
    }

    @Test
    void versionsCompareByNumberNotByText() {
        assertThat(ReleaseLines.VERSION_ORDER.compare("4.9.10", "4.9.8")).isPositive();
        assertThat(ReleaseLines.VERSION_ORDER.compare("5.0", "4.9.10")).isPositive();
        assertThat(ReleaseLines.VERSION_ORDER.compare("4.9", "4.9.0")).isZero();
    }

    @Test
    void thisCheckoutHasTheLineItsDistributionsAreBuiltFor() {
        Path checkout = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();

        assertThat(ReleaseLines.list(checkout)).contains("4.9.0");
    }
}
