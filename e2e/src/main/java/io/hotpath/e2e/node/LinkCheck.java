package io.hotpath.e2e.node;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.spec.ClusterLayout;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Proves the realistic network before any server starts: a timed TCP connect from the controller to each
 * node's namespace (a closed port, so the node's kernel answers the SYN with a RST: one round trip), against the
 * same on loopback, and 32 MiB streamed from broker-a's namespace to the controller.
 */
final class LinkCheck {

    /** Nothing listens there in a fresh namespace: a connect is refused after exactly one round trip. */
    static final int PROBE_PORT = 9;
    static final int RTT_WARMUP = 5;
    static final int RTT_SAMPLES = 20;
    static final int THROUGHPUT_BYTES = 32 * 1024 * 1024;
    /** Above this, tbf is not shaping: no measurement error of a 32 MiB transfer explains 25 % over the line rate. */
    static final double THROUGHPUT_LIMIT_MBIT = LinkShaping.RATE_MBIT * 1.25;

    /** Round trips in ms (broker-a, the slowest node, loopback) and broker-a -> controller in Mbit/s. */
    record Measurement(double brokerARttMillis, double slowestRttMillis, double loopbackRttMillis, double throughputMbit) {
    }

    private LinkCheck() {
    }

    /** {@code brokerAHolderPid}: the namespace the throughput is streamed from; {@code logFile} takes its sender's output. */
    static Measurement measure(ClusterLayout layout, long brokerAHolderPid, Path logFile) {
        // the first connects of this JVM run interpreted: warm the path up on loopback before timing anything
        connectRttMillis(ClusterLayout.LOOPBACK, "loopback");
        double brokerA = 0;
        double slowest = 0;
        for (ClusterLayout.Node node : layout.nodes()) {
            double rtt = connectRttMillis(node.host(), node.name());
            slowest = Math.max(slowest, rtt);
            if (node.name().equals("broker-a")) {
                brokerA = rtt;
            }
        }
        double loopback = connectRttMillis(ClusterLayout.LOOPBACK, "loopback");
        double throughput = throughputMbit(brokerAHolderPid, logFile);
        return new Measurement(brokerA, slowest, loopback, throughput);
    }

    /** Fails when broker-a streamed faster than the links are shaped to. */
    static void requireShaped(Measurement measured, Path logFile) {
        if (measured.throughputMbit() > THROUGHPUT_LIMIT_MBIT) {
            throw new ClusterException(String.format(Locale.ROOT, "realistic network check: broker-a -> controller ran at %.0f"
                    + " Mbit/s, above the %d Mbit/s the links are shaped to: tbf is not in effect (see %s)", measured.throughputMbit(),
                    LinkShaping.RATE_MBIT, logFile));
        }
    }

    /** Median round trip of a refused TCP connect (SYN, RST), in ms. */
    static double connectRttMillis(String host, String name) {
        long[] nanos = new long[RTT_SAMPLES];
        InetSocketAddress target = new InetSocketAddress(host, PROBE_PORT);
        for (int i = -RTT_WARMUP; i < RTT_SAMPLES; i++) {
            try (Socket socket = new Socket()) {
                long start = System.nanoTime();
                try {
                    socket.connect(target, 1000);
                    throw new ClusterException("realistic network check: something listens on " + target + " (" + name
                            + "'s namespace should be empty)");
                } catch (ConnectException refused) {
                    if (i >= 0) {
                        nanos[i] = System.nanoTime() - start;
                    }
                } catch (SocketTimeoutException e) {
                    throw new ClusterException("realistic network check: " + name + " (" + host + ") does not answer from the"
                            + " controller's namespace within 1 s: the veth or bridge is not passing traffic");
                }
            } catch (IOException e) {
                throw new ClusterException("realistic network check: connect to " + name + " (" + target + ") failed: " + e, e);
            }
        }
        Arrays.sort(nanos);
        return (nanos[RTT_SAMPLES / 2 - 1] + nanos[RTT_SAMPLES / 2]) / 2e6;
    }

    /**
     * Streams {@link #THROUGHPUT_BYTES} from the node's namespace (bash's /dev/tcp, no JVM to start) to a socket
     * of the controller, through the node's shaped eth0; Mbit/s of payload from the first byte to the last.
     */
    private static double throughputMbit(long holderPid, Path logFile) {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(ClusterLayout.REALISTIC_CONTROLLER), 0), 1);
            server.setSoTimeout(10_000);
            List<String> command = new ArrayList<>(NodeNamespaces.nsenter(holderPid));
            command.addAll(List.of("bash", "-c", "head -c " + THROUGHPUT_BYTES + " /dev/zero > /dev/tcp/"
                    + ClusterLayout.REALISTIC_CONTROLLER + "/" + server.getLocalPort()));
            Process sender = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
            long received = 0;
            long firstRead = 0;
            long first = 0;
            long last = 0;
            try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
                socket.setSoTimeout(10_000);
                byte[] buffer = new byte[256 * 1024];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    if (received == 0) {
                        first = System.nanoTime();
                        firstRead = n;
                    }
                    received += n;
                    last = System.nanoTime();
                }
            } finally {
                if (!sender.waitFor(10, TimeUnit.SECONDS)) {
                    sender.destroyForcibly();
                }
            }
            if (received != THROUGHPUT_BYTES || last <= first) {
                throw new ClusterException("realistic network check: received " + received + " of " + THROUGHPUT_BYTES
                        + " bytes from broker-a's namespace (see " + logFile + ")");
            }
            // the first read's bytes arrived before `first`: the rate is of what came after it
            return (received - firstRead) * 8 / ((last - first) / 1e3);
        } catch (IOException e) {
            throw new ClusterException("realistic network check: streaming from broker-a's namespace failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted during the realistic network check", e);
        }
    }
}
