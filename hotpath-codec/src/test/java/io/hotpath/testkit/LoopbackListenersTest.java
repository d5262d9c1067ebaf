package io.hotpath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoopbackListenersTest {

    // rows as the kernel writes them: 127.0.0.1:8080 and 0.0.0.0:10912 listening, one established connection
    private static final String TCP = String.join("\n",
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
        "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0 100 0 0 10 0",
        "   1: 00000000:2AA0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1002 1 0 100 0 0 10 0",
        "   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 1003 1 0 20 4 30 10 -1");
    // [::ffff:127.0.0.1]:9876, what Java's dual-stack socket bound to 127.0.0.1 shows, and [::]:10912
    private static final String TCP6 = String.join("\n",
        "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
        "   0: 0000000000000000FFFF00000100007F:2694 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2001 1 0 100 0 0 10 0",
        "   1: 00000000000000000000000000000000:2AA0 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2002 1 0 100 0 0 10 0");

    @Test
    void readsTheListeningRowsOfTheGivenSocketsWithTheirAddresses() throws Exception {
        assertThat(LoopbackListeners.listening(TCP, Set.of("1001", "1002", "1003"))).containsExactly(
            new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080), new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 10912));
        assertThat(LoopbackListeners.listening(TCP, Set.of("1001"))).hasSize(1);
        assertThat(LoopbackListeners.listening(TCP6, Set.of("2001", "2002"))).containsExactly(
            new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 9876), new InetSocketAddress(InetAddress.getByName("::"), 10912));
    }

    @Test
    void findsThisJvmsLoopbackServerAndPassesIt() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThat(LoopbackListeners.listening()).anyMatch(a -> a.getPort() == server.getLocalPort()
                && a.getAddress().isLoopbackAddress());
            LoopbackListeners.requireLoopbackOnly("a loopback server", List.of());
        }
    }

    @Test
    void aListenerOnAllInterfacesFails() {
        // the rows above, as a store on all interfaces would show them (no real server binds beyond loopback here)
        List<InetSocketAddress> all = LoopbackListeners.listening(TCP + "\n" + TCP6.substring(TCP6.indexOf('\n') + 1),
            Set.of("1001", "1002", "2001", "2002"));
        assertThatThrownBy(() -> LoopbackListeners.requireLoopbackOnly("a store", all, List.of()))
            .hasMessage("a store: this JVM listens on [0.0.0.0:10912, 0:0:0:0:0:0:0:0:10912], not on loopback only;"
                + " test servers bind 127.0.0.1 only");
        LoopbackListeners.requireLoopbackOnly("loopback only", LoopbackListeners.listening(TCP, Set.of("1001", "1003")), List.of());
        // what listened before the store started is another's
        assertThatThrownBy(() -> LoopbackListeners.requireLoopbackOnly("a store", all, all.subList(0, 2)))
            .hasMessageStartingWith("a store: this JVM listens on [0:0:0:0:0:0:0:0:10912], not");
        LoopbackListeners.requireLoopbackOnly("nothing new", all, all);
    }

    @Test
    void pointsAnAcceptServiceAtLoopbackKeepingItsPort() throws Exception {
        Object service = new Object() {
            private final InetSocketAddress socketAddressListen = new InetSocketAddress(10912);

            @Override
            public String toString() {
                return socketAddressListen.toString();
            }
        };

        LoopbackListeners.toLoopback(service);

        InetSocketAddress bound = (InetSocketAddress) LoopbackListeners.get(service, "socketAddressListen");
        assertThat(bound.getAddress().isLoopbackAddress()).isTrue();
        assertThat(bound.getPort()).isEqualTo(10912);
    }
}
