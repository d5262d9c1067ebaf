package io.hotpath.dist;

import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * Runs INSIDE {@link PatchedBrokerLoader#withProbe()}: compiled against the stock 4.9.0 store API on
 * the test classpath, but linked, when loaded there, to the PATCHED rocketmq-store of the patched
 * lib/ (DefaultMessageStore, CommitLog, MessageExtBrokerInner, and io.hotpath.store.PersistedProperties
 * from patch 0003). It puts messages the way patched 4.9.0's normal-send site does
 * ({@code SendMessageProcessor#asyncSendMessage}: parse the client's properties, put CLUSTER, then
 * {@code setPropertiesBytes(PersistedProperties.messageProperties2Bytes(map))}; the real processor
 * needs a live BrokerController, so this restates its few calls) and returns only JDK types: per
 * message the put status, the stored record's bytes, and the in-memory map after the put (as a
 * LinkedHashMap in the map's iteration order); then, once the schedule service has re-put the
 * delayed ones ({@code ScheduleMessageService#messageTimeup}, a patched site), {"REPUT", record, null} for each.
 */
public final class PatchedStoreProbe {

    private PatchedStoreProbe() {
    }

    /** {@code clientProperties}: the properties strings a 4.9.0 client sends; {@code delayLevels}: 0 = none. */
    public static List<Object[]> putAndReadBack(String root, List<String> clientProperties, List<Integer> delayLevels)
        throws Exception {
        DefaultMessageStore store = startedStore(root);
        // as BrokerController does on a master: the schedule service re-puts due delayed messages
        store.handleScheduleMessageService(BrokerRole.ASYNC_MASTER);
        Class<?> persisted = Class.forName("io.hotpath.store.PersistedProperties", true, PatchedStoreProbe.class.getClassLoader());
        Method toBytes = persisted.getMethod("messageProperties2Bytes", Map.class);
        Method setBytes = MessageExtBrokerInner.class.getMethod("setPropertiesBytes", byte[].class);
        List<Object[]> out = new ArrayList<>();
        try {
            for (int i = 0; i < clientProperties.size(); i++) {
                MessageExtBrokerInner msg = new MessageExtBrokerInner();
                msg.setTopic("hotpath_store_probe");
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
                byte[] record = null;
                if (result.getAppendMessageResult() != null && result.isOk()) {
                    long offset = result.getAppendMessageResult().getWroteOffset();
                    SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset, result.getAppendMessageResult().getWroteBytes());
                    try {
                        ByteBuffer buffer = selected.getByteBuffer();
                        record = new byte[selected.getSize()];
                        buffer.get(record);
                    } finally {
                        selected.release();
                    }
                }
                // the map in its own iteration order (a HashMap copy could have another capacity, so another order)
                out.add(new Object[] {result.getPutMessageStatus().name(), record, new LinkedHashMap<>(msg.getProperties())});
            }
            // the delayed messages come back to the topic when due (level 1: 1 s): their re-put records follow
            long normal = delayLevels.stream().filter(level -> level == 0).count();
            long expected = clientProperties.size();
            for (int i = 0; i < 1500 && store.getMaxOffsetInQueue("hotpath_store_probe", 0) < expected; i++) {
                Thread.sleep(10);
            }
            for (long queueOffset = normal; queueOffset < store.getMaxOffsetInQueue("hotpath_store_probe", 0); queueOffset++) {
                long offset = store.getCommitLogOffsetInQueue("hotpath_store_probe", 0, queueOffset);
                SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
                try {
                    ByteBuffer buffer = selected.getByteBuffer();
                    byte[] record = new byte[buffer.getInt(buffer.position())];
                    buffer.get(record);
                    out.add(new Object[] {"REPUT", record, null});
                } finally {
                    selected.release();
                }
            }
        } finally {
            store.shutdown();
            store.destroy();
        }
        return out;
    }
    /**
     * Puts one batch the way patched 4.9.0's {@code SendMessageProcessor#asyncSendBatchMessage} does
     * (outer map = the request's properties parsed, plus CLUSTER; the body = the client-encoded messages)
     * through the patched {@code CommitLog.MessageExtBatchEncoder}, and returns {status, the outer map as
     * a LinkedHashMap, record 0, record 1, ...}. {@code innerBlocks}: each message's properties block as
     * its client encoded it (4.9.0 clients end it with a separator, 4.9.1+ clients do not).
     */
    public static List<Object> putBatchAndReadBack(String root, List<String> innerBlocks, String outerProperties) throws Exception {
        DefaultMessageStore store = startedStore(root);
        List<Object> out = new ArrayList<>();
        try {
            byte[] encoded = ClientBatchBody.encode(innerBlocks);

            MessageExtBatch batch = new MessageExtBatch();
            batch.setTopic("hotpath_store_probe_batch");
            batch.setQueueId(0);
            batch.setBody(encoded);
            batch.setFlag(0);
            MessageAccessor.setProperties(batch, MessageDecoder.string2messageProperties(outerProperties));
            MessageAccessor.putProperty(batch, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
            batch.setBornTimestamp(System.currentTimeMillis());
            batch.setBornHost(new InetSocketAddress("127.0.0.1", 51234));
            batch.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
            PutMessageResult result = store.putMessages(batch);
            out.add(result.getPutMessageStatus().name());
            out.add(new LinkedHashMap<>(batch.getProperties()));
            if (result.isOk()) {
                long offset = result.getAppendMessageResult().getWroteOffset();
                for (int i = 0; i < result.getAppendMessageResult().getMsgNum(); i++) {
                    SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
                    try {
                        ByteBuffer buffer = selected.getByteBuffer();
                        byte[] record = new byte[buffer.getInt(buffer.position())];
                        buffer.get(record);
                        out.add(record);
                        offset += record.length;
                    } finally {
                        selected.release();
                    }
                }
            }
        } finally {
            store.shutdown();
            store.destroy();
        }
        return out;
    }

    private static DefaultMessageStore startedStore(String root) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root);
        config.setStorePathCommitLog(root + "/commitlog");
        config.setMappedFileSizeCommitLog(4 * 1024 * 1024);
        config.setMappedFileSizeConsumeQueue(1000 * 20);
        config.setMaxIndexNum(1000);
        config.setMaxHashSlotNum(100);
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager("DefaultCluster"),
            (topic, queueId, offset, tagsCode, storeTime, filter, props) -> { }, new BrokerConfig());
        if (!store.load()) {
            throw new IllegalStateException("patched store did not load " + root);
        }
        store.start();
        return store;
    }
}
