package io.hotpath.e2e.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributionTest {

    @TempDir
    Path root;

    /** A line folder with one patch in its series; returns the patch's sha256. */
    private String line(String release) throws Exception {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        Files.writeString(dir.resolve("line.properties"), "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\n"
            + "upstream.tests.modules=common\n");
        Files.writeString(dir.resolve("0001-common-x.patch"), "Subject: [PATCH] x\n");
        Files.writeString(dir.resolve("series"), "0001-common-x.patch\n");
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve("0001-common-x.patch"))));
    }

    /** The line's descriptor as a command resolves it; the line folder is made first when the test has none. */
    private ReleaseLine lineOf(String release) throws Exception {
        if (!Files.exists(root.resolve("patches").resolve(release).resolve("line.properties"))) {
            line(release);
        }
        return ReleaseLines.line(release, root);
    }

    /** A distribution as broker-dist assembles it for its line and flavor (taken from the directory name). */
    private Path fakeDistribution(Path home) throws Exception {
        String name = home.getFileName().toString();
        String flavor = name.substring(name.lastIndexOf('-') + 1);
        String release = name.substring("rocketmq-".length(), name.lastIndexOf('-'));
        String sha = line(release);
        fakeDistribution(home, "flavor=" + flavor + "\nupstream.version=" + release + "\n"
            + (flavor.equals("patched") ? "patch.1=0001-common-x.patch\npatch.1.sha256=" + sha + "\n" : ""));
        return home;
    }

    private Path fakeDistribution(Path home, String buildInfo) throws IOException {
        Files.createDirectories(home);
        Files.writeString(home.resolve("BUILD-INFO.txt"), buildInfo);
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("conf/2m-2s-sync"));
        Files.writeString(home.resolve("bin/mqnamesrv"), "#!/bin/bash\n");
        Files.writeString(home.resolve("bin/mqbroker"), "#!/bin/bash\n");
        Files.writeString(home.resolve("conf/2m-2s-sync/broker-a.properties"), "deleteWhen=04\nbrokerName=broker-a\n");
        return home;
    }

    @Test
    void resolvesStockAndPatchedUnderBrokerDistTarget() throws Exception {
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-patched"));

        Distribution patched = Distribution.resolve("patched", lineOf("4.9.0"), root);

        assertThat(patched.flavor()).isEqualTo("patched");
        assertThat(patched.release()).isEqualTo("4.9.0");
        assertThat(patched.brokerScript()).isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.0-patched/bin/mqbroker"));
        assertThat(patched.defaultConfig("broker-a").getProperty("deleteWhen")).isEqualTo("04");
        assertThat(patched.defaultConfig("broker-b")).isEmpty();
    }

    @Test
    void aTunedDistributionLaysItsKnobsOverEveryBrokersOwnSettingsAndLeavesTheUntunedOneAlone() throws Exception {
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
        Distribution stock = Distribution.resolve("stock", lineOf("4.9.0"), root);
        TunedConfig knobs = TunedConfig.load(Files.writeString(root.resolve("t.properties"), "deleteWhen=01\nsendMessageThreadPoolNums=2\n"));

        Distribution tuned = stock.tuned(knobs);

        assertThat(tuned.defaultConfig("broker-a")).containsEntry("deleteWhen", "01").containsEntry("sendMessageThreadPoolNums", "2")
            .containsEntry("brokerName", "broker-a");
        assertThat(tuned.defaultConfig("broker-b")).containsOnlyKeys("deleteWhen", "sendMessageThreadPoolNums");
        assertThat(tuned.tuning()).isSameAs(knobs);
        assertThat(tuned.home()).isEqualTo(stock.home());
        assertThat(stock.defaultConfig("broker-a")).containsEntry("deleteWhen", "04").doesNotContainKey("sendMessageThreadPoolNums");
        assertThat(stock.tuning()).isNull();
    }

    @Test
    void theLinesDistributionsCarryItsSeriesAndADirectoryWhatItsBuildInfoSays() throws Exception {
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-patched"));
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
        Path own = fakeDistribution(root.resolve("own"), "upstream.version=4.9.0\npatch.1=0009-own.patch\n");

        assertThat(Distribution.resolve("patched", lineOf("4.9.0"), root).patches()).containsExactly("0001-common-x.patch");
        assertThat(Distribution.resolve("stock", lineOf("4.9.0"), root).patches()).isEmpty();
        assertThat(Distribution.resolve(own.toString(), lineOf("4.9.0"), root).patches()).containsExactly("0009-own.patch");
        assertThat(Distribution.resolve("patched", lineOf("4.9.0"), root).line()).isEqualTo(ReleaseLines.line("4.9.0", root));
    }

    @Test
    void namesTheBuildCommandWhenAFlavorIsNotBuilt() throws Exception {
        line("4.9.0");
        assertThatThrownBy(() -> Distribution.resolve("stock", lineOf("4.9.0"), root))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("the stock distribution of 4.9.0 is not built")
                .hasMessageContaining("bin/hotpath setup");
    }

    @Test
    void rejectsAMissingDirectory() {
        assertThatThrownBy(() -> Distribution.resolve(root.resolve("nope").toString(), lineOf("4.9.0"), root))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("is none of these (no such directory)");
    }

    @Test
    void rejectsADirectoryThatIsNotADistribution() throws IOException {
        Path home = fakeDistribution(root.resolve("custom"), "");
        Files.delete(home.resolve("bin/mqbroker"));

        assertThatThrownBy(() -> Distribution.resolve(home.toString(), lineOf("4.9.0"), root))
                .isInstanceOf(UsageException.class)
                .hasMessageEndingWith("is not a RocketMQ distribution (bin/mqbroker is missing)");
    }

    @Test
    void aDirectoryIsNamedAfterItself() throws Exception {
        Path home = fakeDistribution(root.resolve("rocketmq-4.9.0-experiment"), "");

        assertThat(Distribution.resolve(home.toString(), lineOf("4.9.0"), root).flavor()).isEqualTo("rocketmq-4.9.0-experiment");
    }

    @Test
    void picksTheDistributionOfTheRequestedLine() throws Exception {
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.10-stock"));

        assertThat(Distribution.resolve("stock", lineOf("4.9.10"), root).home()).isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.10-stock"));
        assertThat(Distribution.resolve("stock", lineOf("4.9.0"), root).home()).isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
    }

    @Test
    void aPatchedDistributionBuiltFromOtherPatchesIsStaleAndRefused() throws Exception {
        Path home = fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-patched"));
        Files.writeString(root.resolve("patches/4.9.0/0001-common-x.patch"), "Subject: [PATCH] x, edited\n");

        assertThatThrownBy(() -> Distribution.resolve("patched", lineOf("4.9.0"), root))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("the patched distribution of 4.9.0 is stale: built with patches [0001-common-x.patch],"
                    + " the line's series has [0001-common-x.patch] (a patch changed since)");
        Files.writeString(root.resolve("patches/4.9.0/0002-store-y.patch"), "Subject: [PATCH] y\n");
        Files.writeString(root.resolve("patches/4.9.0/series"), "0001-common-x.patch\n0002-store-y.patch\n");
        assertThat(Distribution.staleness(ReleaseLines.line("4.9.0", root), "patched", home))
                .contains("the line's series has [0001-common-x.patch, 0002-store-y.patch]");
    }

    @Test
    void aStockDistributionWithPatchesOrOfAnotherReleaseIsStale() throws Exception {
        Path home = fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
        assertThat(Distribution.staleness(ReleaseLines.line("4.9.0", root), "stock", home)).isNull();
        assertThat(Distribution.staleness(ReleaseLines.line("4.9.0", root), "patched", home)).contains("is stale");
        fakeDistribution(home, "flavor=stock\nupstream.version=4.9.8\n");
        assertThat(Distribution.staleness(ReleaseLines.line("4.9.0", root), "stock", home))
                .isEqualTo("was built from upstream 4.9.8, not 4.9.0");
        Files.delete(home.resolve("BUILD-INFO.txt"));
        assertThat(Distribution.staleness(ReleaseLines.line("4.9.0", root), "stock", home)).startsWith("has no readable BUILD-INFO.txt");
    }
}
