package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.spec.NetMode;
import io.hotpath.e2e.spec.ReleaseLines;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input fails before any build; fresh distributions are not rebuilt; only a stale flavor is built. */
class ClusterPreparationTest {

    @TempDir
    Path root;

    @Test
    void badInputFailsWithExitTwoBeforeAnythingIsBuilt() throws Exception {
        Checkout checkout = new Checkout(root);
        checkout.line("4.9.0", true);
        StandInMaven maven = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "smoke", "--bogus")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "smoke", "--line", "9.9.9")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "smoke", "-n", "many")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "campaign", "--rounds", "zero")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "idle", "--settle", "soon")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "idle", "--rate", "0")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "idle", "--seconds", "0")).isEqualTo(2);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "nothing")).isEqualTo(2);
        assertThat(maven.calls()).isEmpty();
        assertThat(root.resolve("broker-dist")).doesNotExist();
    }

    @Test
    void aCampaignRefusesAnUnknownLineBeforeBuildingAnyLine() throws Exception {
        Checkout checkout = new Checkout(root);
        checkout.line("4.9.0", true);
        checkout.line("4.9.8", false);
        StandInMaven maven = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "campaign", "--lines", "4.9.0,4.9.9")).isEqualTo(2);
        assertThat(maven.calls()).isEmpty();
    }

    @Test
    void anIdleTunedArmOfALineWithoutTunedPropertiesFailsBeforeAnyBuild() throws Exception {
        new Checkout(root).line("4.9.0", true);
        StandInMaven maven = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "idle", "--line", "4.9.0", "--arms", "stock,patched+tuned")).isEqualTo(2);
        assertThat(maven.calls()).isEmpty();
    }

    @Test
    void freshDistributionsAreRunAsTheyAre() throws Exception {
        Checkout checkout = new Checkout(root);
        String sha = checkout.line("4.9.0", true);
        checkout.dist("4.9.0", "stock", "");
        checkout.dist("4.9.0", "patched", "patch.1=0001-common-x.patch\npatch.1.sha256=" + sha + "\n");
        StandInMaven maven = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, maven.run(), "prepare", "smoke", "--dist", "both", "--line", "4.9.0")).isZero();
        assertThat(Hotpath.run(root, maven.run(), "prepare", "campaign", "--line", "4.9.0")).isZero();
        assertThat(Hotpath.run(root, maven.run(), "prepare", "idle", "--line", "4.9.0")).isZero();
        assertThat(maven.calls()).isEmpty();
    }

    @Test
    void theLauncherTakesHelpAndTheNetworkFromTheParsedOptions() throws Exception {
        Checkout checkout = new Checkout(root);
        String sha = checkout.line("4.9.0", true);
        checkout.dist("4.9.0", "stock", "");
        checkout.dist("4.9.0", "patched", "patch.1=0001-common-x.patch\npatch.1.sha256=" + sha + "\n");
        StandInMaven maven = new StandInMaven(root, 0);
        assertThat(ClusterPreparation.prepare(root, "smoke", List.of("--line", "4.9.0"), maven.run()))
            .isEqualTo(new ClusterPreparation.Launch(false, true, NetMode.LOOPBACK));
        assertThat(ClusterPreparation.prepare(root, "smoke", List.of("--line=4.9.0", "--no-netns"), maven.run()))
            .isEqualTo(new ClusterPreparation.Launch(false, false, NetMode.LOOPBACK));
        assertThat(ClusterPreparation.prepare(root, "campaign", List.of("--line", "4.9.0", "--net", "realistic"), maven.run()))
            .isEqualTo(new ClusterPreparation.Launch(false, true, NetMode.REALISTIC));
        assertThat(ClusterPreparation.prepare(root, "campaign", List.of("--help"), maven.run()).help()).isTrue();
        assertThat(ClusterPreparation.prepare(root, "idle", List.of("--line", "4.9.0", "--no-netns"), maven.run()))
            .isEqualTo(new ClusterPreparation.Launch(false, false, NetMode.LOOPBACK));
        assertThat(ClusterPreparation.prepare(root, "idle", List.of("-h"), maven.run()).help()).isTrue();
        assertThat(maven.calls()).isEmpty();
    }

    @Test
    void onlyTheStaleFlavorIsBuiltAndAFailedBuildIsExitOne() throws Exception {
        Checkout checkout = new Checkout(root);
        checkout.line("4.9.0", true);
        checkout.dist("4.9.0", "stock", "");
        checkout.dist("4.9.0", "patched", "patch.1=0001-common-x.patch\npatch.1.sha256=0000\n");
        assertThat(ClusterPreparation.stale(ReleaseLines.line("4.9.0", root),
            List.of("stock", "patched", root.resolve("own").toString()), root)).containsExactly("patched");

        StandInMaven built = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, built.run(), "prepare", "campaign", "--line", "4.9.0")).isZero();
        assertThat(built.calls()).singleElement().asString()
            .contains("-pl broker-dist verify", "-Dhotpath.line=4.9.0", "-Dhotpath.flavor=patched", "-Dhotpath.upstream.tests=false");

        StandInMaven idle = new StandInMaven(root, 0);
        assertThat(Hotpath.run(root, idle.run(), "prepare", "idle", "--line", "4.9.0", "--arms", "patched,stock")).isZero();
        assertThat(idle.calls()).singleElement().asString().contains("-Dhotpath.line=4.9.0", "-Dhotpath.flavor=patched");

        StandInMaven failing = new StandInMaven(root, 1);
        assertThat(Hotpath.run(root, failing.run(), "prepare", "smoke", "--dist", "patched", "--line", "4.9.0")).isEqualTo(1);
        assertThat(failing.calls()).hasSize(1);
    }
}
