package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The {@code unshare} command that gives a cluster run a private network namespace whose only interface is loopback,
 * and a PID namespace of its own in which the controller is PID 1: if it dies in any way (even SIGKILL) the kernel
 * kills every process it started. Why: RocketMQ 4.9.x's remoting and HA servers bind 0.0.0.0 and have no bind-address
 * option.
 *
 * <p>Root, or a user with CAP_SYS_ADMIN: {@code unshare --net --pid --fork --mount-proc --kill-child}. Any other user:
 * the same inside a user namespace of their own ({@code --user --map-root-user}) where the kernel allows unprivileged
 * user namespaces, loopback only: {@code --net realistic}'s per-server namespaces, veth links and tc shaping have not
 * been run end to end in one. Each candidate is tried once (bring up lo) before any server starts; one clear error when
 * none works.
 */
final class PrivateNetwork {

    static final List<String> PLAIN = List.of("unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child");
    static final List<String> USER = List.of("unshare", "--user", "--map-root-user", "--net", "--pid", "--fork", "--mount-proc",
        "--kill-child");
    private static final String NO_NETNS = "; or pass --no-netns to run on the host network instead (brokers then listen on all interfaces)";

    private PrivateNetwork() {
    }

    /** The unshare command for this user; {@code realistic}: the run's --net mode is realistic. */
    static List<String> unshare(boolean realistic) {
        return unshare(realistic, isRoot(), PrivateNetwork::probe);
    }

    /**
     * {@code probe} runs a command and returns null when it worked, else its first line of error output (the tests give
     * a stand-in).
     */
    static List<String> unshare(boolean realistic, boolean root, Function<List<String>, String> probe) {
        String plain = probe.apply(withLoopbackUp(PLAIN));
        if (plain == null) {
            return PLAIN;
        }
        String why = strip(plain);
        if (!root) {
            String user = probe.apply(withLoopbackUp(USER));
            if (user == null) {
                if (realistic) {
                    throw new UsageException("--net realistic needs root or CAP_SYS_ADMIN (without them the run gets a user"
                        + " namespace, where its per-server namespaces, veth links and tc shaping are not verified); run it"
                        + " as root, or with --net loopback");
                }
                System.err.println("hotpath: no CAP_SYS_ADMIN: the cluster runs in a user namespace of its own (unshare --user --map-root-user)");
                return USER;
            }
            why += "; with --user --map-root-user: " + strip(user);
        }
        throw new CommandFailure("cannot create a private network namespace (" + why + "): run as root, with CAP_SYS_ADMIN,"
            + " or where unprivileged user namespaces are enabled (sysctl kernel.unprivileged_userns_clone /"
            + " user.max_user_namespaces)" + NO_NETNS);
    }

    private static List<String> withLoopbackUp(List<String> unshare) {
        List<String> command = new ArrayList<>(unshare);
        command.addAll(List.of("ip", "link", "set", "lo", "up"));
        return command;
    }

    private static String strip(String message) {
        return message.startsWith("unshare: ") ? message.substring("unshare: ".length()) : message;
    }

    /** Effective user id 0, from {@code /proc/self/status} ("Uid: real effective saved fs"). */
    private static boolean isRoot() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                .map(l -> l.split("\\s+")[2]).anyMatch("0"::equals);
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs {@code command}; null when it exits 0, else its first output line (or why it could not start). */
    static String probe(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            if (exit == 0) {
                return null;
            }
            String first = output.lines().findFirst().orElse("");
            return first.isEmpty() ? command.get(0) + " exited " + exit : first;
        } catch (IOException e) {
            return "cannot run unshare (util-linux): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
