package io.hotpath.dist.store.shared;

import io.hotpath.testkit.LoopbackListeners;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A probe's store listens on loopback only (hotpath-codec's test kit, {@link LoopbackListeners}, says why upstream
 * would bind every interface). Here, in the package every probe loader delegates to the test class loader, so that a
 * probe inside any release's loader reaches the test kit; the objects passed are the release's own, handled by
 * reflection.
 */
public final class LoopbackStores {

    private LoopbackStores() {
    }

    /** 4.9.x: a {@code DefaultMessageStore}'s HA accept service exists from its constructor on; call before start(). */
    public static void haToLoopback(Object store) throws ReflectiveOperationException {
        acceptToLoopback(LoopbackListeners.get(LoopbackListeners.get(store, "haService"), "acceptSocketService"));
    }

    /** 5.x: the accept service {@code DefaultHAService#init} has just made, before {@code start()} binds it. */
    public static void acceptToLoopback(Object acceptSocketService) throws ReflectiveOperationException {
        LoopbackListeners.toLoopback(acceptSocketService);
    }

    /** What listens before a store starts; pass it to {@link #requireLoopbackOnly} once the store is up. */
    public static List<InetSocketAddress> listening() {
        return LoopbackListeners.listening();
    }

    /** Fails when something opened since {@code before} (the store) listens outside loopback. */
    public static void requireLoopbackOnly(String what, List<InetSocketAddress> before) {
        LoopbackListeners.requireLoopbackOnly(what, before);
    }
}
