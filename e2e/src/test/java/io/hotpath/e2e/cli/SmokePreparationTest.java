package io.hotpath.e2e.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.spec.ReleaseLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input fails before any build; fresh distributions are not rebuilt; only a stale flavor is named for building. */
class SmokePreparationTest {

    @TempDir
    Path root;

    @Test
    void badInputFailsWithExitTwoBeforeAnythingIsBuilt() throws Exception {
        line("4.9.0");
        assertThat(SmokePreparation.run(root, "--bogus")).isEqualTo(2);
        assertThat(SmokePreparation.run(root, "--line", "9.9.9")).isEqualTo(2);
        assertThat(SmokePreparation.run(root, "-n", "many")).isEqualTo(2);
        assertThat(root.resolve("broker-dist")).doesNotExist();
    }

    @Test
    void freshDistributionsAreRunAsTheyAre() throws Exception {
        String sha = line("4.9.0");
        dist("stock", "");
        dist("patched", "patch.1=0001-common-x.patch\npatch.1.sha256=" + sha + "\n");
        assertThat(SmokePreparation.stale(ReleaseLines.line("4.9.0", root),
            List.of("stock", "patched"), root)).isEmpty();
        assertThat(SmokePreparation.run(root, "--dist", "both", "--line", "4.9.0")).isZero();
    }

    @Test
    void onlyTheStaleFlavorIsBuilt() throws Exception {
        line("4.9.0");
        dist("stock", "");
        dist("patched", "patch.1=0001-common-x.patch\npatch.1.sha256=0000\n");
        assertThat(SmokePreparation.stale(ReleaseLines.line("4.9.0", root),
            List.of("stock", "patched", root.resolve("own").toString()), root)).containsExactly("patched");
    }

    private String line(String release) throws Exception {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        Files.writeString(dir.resolve("line.properties"), "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\nupstream.tests.modules=common\n");
        Files.writeString(dir.resolve("0001-common-x.patch"), "Subject: [PATCH] x\n");
        Files.writeString(dir.resolve("series"), "0001-common-x.patch\n");
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve("0001-common-x.patch"))));
    }

    private void dist(String flavor, String patches) throws IOException {
        Path home = Files.createDirectories(root.resolve("broker-dist/target/rocketmq-4.9.0-" + flavor));
        Files.writeString(home.resolve("BUILD-INFO.txt"), "flavor=" + flavor + "\nupstream.version=4.9.0\n" + patches);
    }
}
