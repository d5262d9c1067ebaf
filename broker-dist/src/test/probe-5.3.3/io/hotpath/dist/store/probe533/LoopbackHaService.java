package io.hotpath.dist.store.probe533;

import io.hotpath.dist.store.shared.LoopbackStores;
import java.io.IOException;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.ha.DefaultHAService;

/**
 * Upstream's HA service, its accept service pointed at loopback as soon as {@code init} has made it: a 5.x store builds
 * that service inside {@code start()} and binds it there, on every interface ({@code new InetSocketAddress(haListenPort)}).
 */
final class LoopbackHaService extends DefaultHAService {

    @Override
    public void init(DefaultMessageStore defaultMessageStore) throws IOException {
        super.init(defaultMessageStore);
        try {
            LoopbackStores.acceptToLoopback(acceptSocketService);
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot point the HA listener at loopback: " + e, e);
        }
    }
}
