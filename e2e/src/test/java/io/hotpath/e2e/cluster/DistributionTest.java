package io.hotpath.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributionTest {

    @TempDir
    Path root;

    private Path fakeDistribution(Path home) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("conf/2m-2s-sync"));
        Files.writeString(home.resolve("bin/mqnamesrv"), "#!/bin/bash\n");
        Files.writeString(home.resolve("bin/mqbroker"), "#!/bin/bash\n");
        Files.writeString(home.resolve("conf/2m-2s-sync/broker-a.properties"), "deleteWhen=04\nbrokerName=broker-a\n");
        return home;
    }

    @Test
    void resolvesStockAndPatchedUnderBrokerDistTarget() throws IOException {
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-patched"));

        Distribution patched = Distribution.resolve("patched", "4.9.0", root);

        assertThat(patched.flavor()).isEqualTo("patched");
        assertThat(patched.release()).isEqualTo("4.9.0");
        assertThat(patched.brokerScript()).isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.0-patched/bin/mqbroker"));
        assertThat(patched.defaultConfig("broker-a").getProperty("deleteWhen")).isEqualTo("04");
        assertThat(patched.defaultConfig("broker-b")).isEmpty();
    }

    @Test
    void namesTheBuildCommandWhenAFlavorIsNotBuilt() {
        assertThatThrownBy(() -> Distribution.resolve("stock", "4.9.0", root))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("the stock distribution of 4.9.0 is not built")
                .hasMessageContaining("bin/hotpath setup");
    }

    @Test
    void rejectsAMissingDirectory() {
        assertThatThrownBy(() -> Distribution.resolve(root.resolve("nope").toString(), "4.9.0", root))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("is none of these (no such directory)");
    }

    @Test
    void rejectsADirectoryThatIsNotADistribution() throws IOException {
        Path home = fakeDistribution(root.resolve("custom"));
        Files.delete(home.resolve("bin/mqbroker"));

        assertThatThrownBy(() -> Distribution.resolve(home.toString(), "4.9.0", root))
                .isInstanceOf(UsageException.class)
                .hasMessageEndingWith("is not a RocketMQ distribution (bin/mqbroker is missing)");
    }

    @Test
    void aDirectoryIsNamedAfterItself() throws IOException {
        Path home = fakeDistribution(root.resolve("rocketmq-4.9.0-experiment"));

        assertThat(Distribution.resolve(home.toString(), "4.9.0", root).flavor()).isEqualTo("rocketmq-4.9.0-experiment");
    }

    @Test
    void picksTheDistributionOfTheRequestedLine() throws IOException {
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
        fakeDistribution(root.resolve("broker-dist/target/rocketmq-4.9.10-stock"));

        assertThat(Distribution.resolve("stock", "4.9.10", root).home()).isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.10-stock"));
        assertThat(Distribution.resolve("stock", "4.9.0", root).home()).isEqualTo(root.resolve("broker-dist/target/rocketmq-4.9.0-stock"));
    }
}
