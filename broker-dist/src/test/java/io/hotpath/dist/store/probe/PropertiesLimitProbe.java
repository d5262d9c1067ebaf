package io.hotpath.dist.store.probe;

import java.util.ArrayList;
import java.util.List;
import io.hotpath.dist.store.shared.LimitPut;
import io.hotpath.dist.store.shared.Release;
import io.hotpath.dist.store.shared.StoreLimit;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * The 32767-byte limit: each client properties String through this release's normal send (restated,
 * {@link ProcessorSites#normalSend}) and the store's own {@code asyncPutMessage}, then the response code the broker
 * answers with: each release's own {@code SendMessageProcessor#handlePutMessageResult} ({@link BrokerSites#responseCode}).
 */
public final class PropertiesLimitProbe implements StoreLimit {

    @Override
    public List<LimitPut> putAtLimit(Release release, String root, List<String> clientProperties) throws Exception {
        ProcessorSites processor = new ProcessorSites(release);
        List<LimitPut> out = new ArrayList<>();
        try (ProbeStore probeStore = ProbeStore.start(root)) {
            BrokerSites broker = BrokerSites.of(probeStore.store);
            for (int i = 0; i < clientProperties.size(); i++) {
                MessageExtBrokerInner msg = processor.normalSend(StoreSiteProbe.TOPIC, clientProperties.get(i), 0, "limit body " + i);
                PutMessageResult result = probeStore.store.asyncPutMessage(msg).get();
                int code = broker.responseCode(result, msg);
                byte[] record = result.isOk() ? probeStore.read(result.getAppendMessageResult().getWroteOffset()) : null;
                out.add(new LimitPut(result.getPutMessageStatus().name(), code, record));
            }
        }
        return out;
    }
}
