package io.hotpath.testkit;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Test servers bind 127.0.0.1 only. A RocketMQ store started in a test listens for its slaves (its HA port) on every
 * interface, as upstream binds {@code new InetSocketAddress(haListenPort)} and has no setting for the host (4.9.x
 * {@code HAService.AcceptSocketService}, 5.x {@code DefaultHAService.AcceptSocketService}): {@link #toLoopback} points
 * that listener at loopback before it binds, and {@link #requireLoopbackOnly} fails when a TCP socket this JVM opened
 * since {@link #listening} was read listens elsewhere, read from {@code /proc/self/net/tcp} and {@code tcp6} while the
 * store is up. Plain JDK code, so
 * that store probes can call it from inside any release's class loader.
 */
public final class LoopbackListeners {

    private static final String LISTEN = "0A";

    private LoopbackListeners() {
    }

    /**
     * Points an HA accept service (the object behind upstream's {@code acceptSocketService}, not yet bound) at loopback,
     * keeping its port: its private final {@code socketAddressListen} is what it binds.
     */
    public static void toLoopback(Object acceptSocketService) throws ReflectiveOperationException {
        Field field = field(acceptSocketService.getClass(), "socketAddressListen");
        InetSocketAddress all = (InetSocketAddress) field.get(acceptSocketService);
        field.set(acceptSocketService, new InetSocketAddress(InetAddress.getLoopbackAddress(), all.getPort()));
    }

    /** The value of field {@code name} of {@code target}, declared by its class or a superclass. */
    public static Object get(Object target, String name) throws ReflectiveOperationException {
        return field(target.getClass(), name).get(target);
    }

    /**
     * Fails, naming them, when a TCP socket of this JVM listens on an address other than loopback, {@code before} (what
     * listened before the store started, e.g. another test's server) excepted.
     */
    public static void requireLoopbackOnly(String what, List<InetSocketAddress> before) {
        requireLoopbackOnly(what, listening(), before);
    }

    static void requireLoopbackOnly(String what, List<InetSocketAddress> listening, List<InetSocketAddress> before) {
        List<String> outside = listening.stream().filter(a -> !a.getAddress().isLoopbackAddress() && !before.contains(a))
            .map(a -> a.getAddress().getHostAddress() + ":" + a.getPort()).toList();
        if (!outside.isEmpty()) {
            throw new IllegalStateException(what + ": this JVM listens on " + outside + ", not on loopback only;"
                + " test servers bind 127.0.0.1 only");
        }
    }

    /** The local addresses of this JVM's listening TCP sockets (IPv4 and IPv6). */
    public static List<InetSocketAddress> listening() {
        Set<String> inodes = socketInodes();
        List<InetSocketAddress> found = new ArrayList<>();
        for (String table : new String[] {"tcp", "tcp6"}) {
            Path file = Path.of("/proc/self/net", table);
            if (Files.isReadable(file)) {
                try {
                    found.addAll(listening(Files.readString(file), inodes));
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
                }
            }
        }
        return found;
    }

    /** The local address of each LISTEN row of a {@code /proc/net/tcp} or {@code tcp6} table whose inode is in {@code inodes}. */
    static List<InetSocketAddress> listening(String table, Set<String> inodes) {
        List<InetSocketAddress> found = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] columns = line.trim().split("\\s+");
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
            if (columns.length < 10 || !columns[0].endsWith(":") || !columns[3].equals(LISTEN) || !inodes.contains(columns[9])) {
                continue;
            }
            String[] local = columns[1].split(":");
            found.add(new InetSocketAddress(address(local[0]), Integer.parseInt(local[1], 16)));
        }
        return found;
    }

    /** The kernel prints an address as 32-bit words in host order (little-endian here), each as 8 hex digits. */
    static InetAddress address(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = word * 8 + (3 - i) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + hex, e);
        }
    }

    /** The inodes of this JVM's open sockets ({@code /proc/self/fd/N -> socket:[inode]}). */
    private static Set<String> socketInodes() {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closed) {
                    // closed since the listing
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc/self/fd: " + e.getMessage(), e);
        }
        return inodes;
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (NoSuchFieldException e) {
                // declared higher up
            }
        }
        throw new NoSuchFieldException(name + " in " + type.getName() + " or its superclasses");
    }
}
