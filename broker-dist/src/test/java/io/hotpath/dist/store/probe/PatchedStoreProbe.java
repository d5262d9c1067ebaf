package io.hotpath.dist.store.probe;

import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.shared.BatchPut;
import io.hotpath.dist.store.shared.PatchedStoreSites;
import io.hotpath.dist.store.shared.PutsAndRePuts;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * Patch 0003's own sites in the PATCHED rocketmq-store of the patched lib/ (DefaultMessageStore, CommitLog,
 * MessageExtBrokerInner, and io.hotpath.store.PersistedProperties): puts messages the way patched 4.9.0's normal-send
 * site does ({@code SendMessageProcessor#asyncSendMessage}: parse the client's properties, put CLUSTER, then
 * {@code setPropertiesBytes(PersistedProperties.messageProperties2Bytes(map))}; the real processor needs a live
 * BrokerController, so this restates its few calls), lets the schedule service re-put the delayed ones
 * ({@code ScheduleMessageService#messageTimeup}, a patched site), and puts a batch through the patched batch encoder.
 * Only loaded by {@code PatchedBrokerLoader}: the stock and 4.9.8 APIs have no {@code setPropertiesBytes}.
 */
public final class PatchedStoreProbe implements PatchedStoreSites {

    private static final String TOPIC = "hotpath_store_probe";
    private static final String BATCH_TOPIC = "hotpath_store_probe_batch";

    @Override
    public PutsAndRePuts putAndReadBack(String root, List<String> clientProperties, List<Integer> delayLevels) throws Exception {
        Class<?> persisted = Class.forName("io.hotpath.store.PersistedProperties", true, PatchedStoreProbe.class.getClassLoader());
        Method toBytes = persisted.getMethod("messageProperties2Bytes", Map.class);
        Method setBytes = MessageExtBrokerInner.class.getMethod("setPropertiesBytes", byte[].class);
        List<PutsAndRePuts.Put> puts = new ArrayList<>();
        List<byte[]> rePuts = new ArrayList<>();
        try (ProbeStore probeStore = ProbeStore.start(root)) {
            DefaultMessageStore store = probeStore.store;
            for (int i = 0; i < clientProperties.size(); i++) {
                MessageExtBrokerInner msg = new MessageExtBrokerInner();
                msg.setTopic(TOPIC);
                msg.setQueueId(0);
                msg.setBody(("body " + i).getBytes(StandardCharsets.UTF_8));
                msg.setFlag(0);
                MessageAccessor.setProperties(msg, MessageDecoder.string2messageProperties(clientProperties.get(i)));
                if (delayLevels.get(i) > 0) {
                    msg.setDelayTimeLevel(delayLevels.get(i));
                }
                msg.setBornTimestamp(System.currentTimeMillis());
                msg.setBornHost(new InetSocketAddress("127.0.0.1", 51234));
                msg.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
                MessageAccessor.putProperty(msg, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
                // the patched site, as SendMessageProcessor#asyncSendMessage has it after patch 0003
                setBytes.invoke(msg, toBytes.invoke(null, msg.getProperties()));
                msg.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(null, msg.getTags()));
                PutMessageResult result = store.putMessage(msg);
                byte[] record = result.getAppendMessageResult() != null && result.isOk() ? probeStore.written("message " + i, result) : null;
                puts.add(new PutsAndRePuts.Put(result.getPutMessageStatus().name(), record, new LinkedHashMap<>(msg.getProperties())));
            }
            // the delayed messages come back to the topic when due (level 1: 1 s): their re-put records follow
            long normal = delayLevels.stream().filter(level -> level == 0).count();
            long expected = clientProperties.size();
            for (int i = 0; i < 1500 && store.getMaxOffsetInQueue(TOPIC, 0) < expected; i++) {
                Thread.sleep(10);
            }
            for (long queueOffset = normal; queueOffset < store.getMaxOffsetInQueue(TOPIC, 0); queueOffset++) {
                rePuts.add(probeStore.read(store.getCommitLogOffsetInQueue(TOPIC, 0, queueOffset)));
            }
        }
        return new PutsAndRePuts(puts, rePuts);
    }

    /**
     * As patched 4.9.0's {@code SendMessageProcessor#asyncSendBatchMessage} does (outer map = the request's properties
     * parsed, plus CLUSTER; the body = the client-encoded messages), through the patched
     * {@code CommitLog.MessageExtBatchEncoder}.
     */
    @Override
    public BatchPut putBatchAndReadBack(String root, List<String> innerBlocks, String outerProperties) throws Exception {
        try (ProbeStore probeStore = ProbeStore.start(root)) {
            MessageExtBatch batch = new MessageExtBatch();
            batch.setTopic(BATCH_TOPIC);
            batch.setQueueId(0);
            batch.setBody(ClientBatchBody.encode(innerBlocks));
            batch.setFlag(0);
            MessageAccessor.setProperties(batch, MessageDecoder.string2messageProperties(outerProperties));
            MessageAccessor.putProperty(batch, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
            batch.setBornTimestamp(System.currentTimeMillis());
            batch.setBornHost(new InetSocketAddress("127.0.0.1", 51234));
            batch.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
            PutMessageResult result = probeStore.store.putMessages(batch);
            List<byte[]> records = new ArrayList<>();
            if (result.isOk()) {
                long offset = result.getAppendMessageResult().getWroteOffset();
                for (int i = 0; i < result.getAppendMessageResult().getMsgNum(); i++) {
                    byte[] record = probeStore.read(offset);
                    records.add(record);
                    offset += record.length;
                }
            }
            return new BatchPut(result.getPutMessageStatus().name(), new LinkedHashMap<>(batch.getProperties()), records);
        }
    }
}
