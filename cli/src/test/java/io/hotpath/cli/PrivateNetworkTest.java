package io.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Which unshare a cluster run gets: root's plain one; a user's own user namespace where the kernel allows it, loopback
 * only; one line naming every way out when neither works. Each candidate is tried (bringing up lo) before it is chosen.
 */
class PrivateNetworkTest {

    private final List<List<String>> tried = new ArrayList<>();

    private Function<List<String>, String> probe(String plain, String user) {
        return command -> {
            tried.add(command);
            return command.contains("--user") ? user : plain;
        };
    }

    @Test
    void rootGetsThePlainNamespace() {
        assertThat(PrivateNetwork.unshare(false, true, probe(null, "unused"))).isEqualTo(PrivateNetwork.PLAIN);
        assertThat(tried).containsExactly(List.of("unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child",
            "ip", "link", "set", "lo", "up"));
    }

    @Test
    void aUserGetsAUserNamespaceForLoopbackOnly() {
        assertThat(PrivateNetwork.unshare(false, false, probe("unshare: unshare failed: Operation not permitted", null)))
            .isEqualTo(PrivateNetwork.USER);
        assertThatThrownBy(() -> PrivateNetwork.unshare(true, false, probe("unshare: unshare failed: Operation not permitted", null)))
            .isInstanceOf(UsageException.class).hasMessageStartingWith("--net realistic needs root or CAP_SYS_ADMIN");
    }

    @Test
    void whenNothingWorksOneLineNamesEachWayOut() {
        assertThatThrownBy(() -> PrivateNetwork.unshare(false, false, probe("unshare: unshare failed: Operation not permitted",
            "unshare: write failed /proc/self/uid_map: Operation not permitted")))
            .isInstanceOf(CommandFailure.class)
            .hasMessage("cannot create a private network namespace (unshare failed: Operation not permitted; with --user"
                + " --map-root-user: write failed /proc/self/uid_map: Operation not permitted): run as root, with CAP_SYS_ADMIN,"
                + " or where unprivileged user namespaces are enabled (sysctl kernel.unprivileged_userns_clone /"
                + " user.max_user_namespaces); or pass --no-netns to run on the host network instead (brokers then listen on"
                + " all interfaces)");
        tried.clear();
        assertThatThrownBy(() -> PrivateNetwork.unshare(false, true, probe("unshare: unshare failed: Operation not permitted", null)))
            .as("root is not offered a user namespace").isInstanceOf(CommandFailure.class);
        assertThat(tried).hasSize(1);
    }
}
