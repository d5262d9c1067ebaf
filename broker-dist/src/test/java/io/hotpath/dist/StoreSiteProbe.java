package io.hotpath.dist;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Drives one release's real {@code DefaultMessageStore} through every persisting path of issue #4 item 3(b)
 * and returns each stored CommitLog record. Runs INSIDE an isolated class loader: compiled against the stock
 * 4.9.0 API on the test classpath, it links, when loaded there, either to the PATCHED 4.9.0 store and broker
 * ({@link PatchedBrokerLoader#withProbe(String)}) or to upstream 4.9.8's store ({@link Upstream498StoreLoader}).
 * It references no other test class and returns only JDK types.
 *
 * <p>What runs for real, and what is restated (the same calls, in the same order, on that release's own
 * {@code MessageExtBrokerInner}):
 * <ul>
 *   <li>store code, both releases, real: {@code DefaultMessageStore#asyncPutMessage} / {@code #putMessage} /
 *       {@code #asyncPutMessages}, the CommitLog delay branch, the batch encoder, {@code ScheduleMessageService}'s
 *       re-put of due messages (started by {@code handleScheduleMessageService}), {@code lookMessageByOffset};</li>
 *   <li>{@code TransactionalMessageBridge#parseHalfMessageInner} and {@code EndTransactionProcessor#endMessageTransaction}:
 *       real (private methods called by reflection) in the patched broker; restated for 4.9.8, whose broker jar is
 *       not on Maven Central (both are unchanged from 4.9.0 in 4.9.8 but for the patched line);</li>
 *   <li>restated for both releases (they need a live {@code BrokerController}): the normal send
 *       ({@code SendMessageProcessor#asyncSendMessage}: 4.9.8 removes WAIT, serializes, puts WAIT back; patched
 *       4.9.0 makes the trimmed block), the batch send ({@code #asyncSendBatchMessage}), consumer send-back
 *       ({@code #asyncConsumerSendMsgBack}) and {@code EndTransactionProcessor#processRequest}'s calls around
 *       {@code endMessageTransaction}.</li>
 * </ul>
 */
public final class StoreSiteProbe {

    public static final String PATCHED_490 = "patched-4.9.0";
    public static final String UPSTREAM_498 = "4.9.8";
    /** Unpatched 4.9.0 (the stock jars of the test classpath): the control that every path differs without the patch. */
    public static final String STOCK_490 = "stock-4.9.0";

    public static final String TOPIC = "hotpath_cmp";
    public static final String BATCH_TOPIC = "hotpath_cmp_batch";
    public static final String TX_TOPIC = "hotpath_cmp_tx";
    public static final String GROUP = "hotpath_cmp_group";
    /** Identical in both stores, so that only the store timestamp and offsets differ. */
    public static final long BORN_TIMESTAMP = 1_700_000_000_123L;
    static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 51234);
    static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    /** 18 levels of 1 s: the retry of a send-back (level 3) comes due as fast as a level-1 message. */
    static final String DELAY_LEVELS = "1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s";

    private StoreSiteProbe() {
    }

    /**
     * Runs every path on a fresh store under {@code root} and returns, per path label, {record bytes, the
     * record's properties as this release's {@code MessageDecoder.decode} reads them (LinkedHashMap in the
     * decoded map's order)}. Labels: {@code send/i} (one per {@code sends}; a DELAY entry sends it through the
     * CommitLog delay branch, so its record is on the schedule topic), {@code batch/i}, {@code sendback-retry}
     * and {@code sendback-dlq} (from the stored {@code send/0}), {@code half}, {@code commit}, and
     * {@code reput/<topic>/<UNIQ_KEY>} for each schedule re-put (the delayed sends and the retry).
     */
    public static LinkedHashMap<String, Object[]> runAllPaths(String release, String root, List<String> sends,
        List<String> batchInner, String batchOuter, String halfProperties) throws Exception {
        if (!PATCHED_490.equals(release) && !UPSTREAM_498.equals(release) && !STOCK_490.equals(release)) {
            throw new IllegalArgumentException(release);
        }
        LinkedHashMap<String, Object[]> out = new LinkedHashMap<>();
        DefaultMessageStore store = startedStore(root);
        try {
            long plainSends = 0;
            long delayedSends = 0;
            long send0Offset = -1;
            for (int i = 0; i < sends.size(); i++) {
                MessageExtBrokerInner msg = normalSend(release, TOPIC, sends.get(i), 0, "body " + i);
                PutMessageResult result = store.asyncPutMessage(msg).get();
                long offset = record(out, "send/" + i, store, result);
                if (i == 0) {
                    send0Offset = offset;
                }
                if (msg.getProperty(MessageConst.PROPERTY_DELAY_TIME_LEVEL) != null) {
                    delayedSends++;
                } else {
                    plainSends++;
                }
            }

            // batch: SendMessageProcessor#asyncSendBatchMessage (restated), then the real batch encoder
            MessageExtBatch batch = new MessageExtBatch();
            batch.setTopic(BATCH_TOPIC);
            batch.setQueueId(0);
            batch.setSysFlag(0);
            batch.setFlag(0);
            MessageAccessor.setProperties(batch, MessageDecoder.string2messageProperties(batchOuter));
            batch.setBody(clientEncodedBatch(batchInner));
            batch.setBornTimestamp(BORN_TIMESTAMP);
            batch.setBornHost(BORN_HOST);
            batch.setStoreHost(STORE_HOST);
            batch.setReconsumeTimes(0);
            MessageAccessor.putProperty(batch, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
            PutMessageResult batchResult = store.asyncPutMessages(batch).get();
            check("batch", batchResult);
            long offset = batchResult.getAppendMessageResult().getWroteOffset();
            for (int i = 0; i < batchResult.getAppendMessageResult().getMsgNum(); i++) {
                byte[] bytes = read(store, offset);
                out.put("batch/" + i, new Object[] {bytes, decodedProperties(bytes)});
                offset += bytes.length;
            }

            // consumer send-back of the stored send/0, to the retry topic and to the DLQ
            out.putAll(sendBack(release, store, send0Offset, 0, "sendback-retry"));
            out.putAll(sendBack(release, store, send0Offset, -1, "sendback-dlq"));

            // transaction: the half (normal send site, then parseHalfMessageInner) and its commit
            MessageExtBrokerInner prepared = normalSend(release, TX_TOPIC, halfProperties, MessageSysFlag.TRANSACTION_PREPARED_TYPE,
                "tx body");
            long halfOffset = record(out, "half", store, store.asyncPutMessage(parseHalfMessageInner(release, prepared)).get());
            MessageExt half = store.lookMessageByOffset(halfOffset);
            MessageExtBrokerInner commit = endMessageTransaction(release, half);
            // EndTransactionProcessor#processRequest around endMessageTransaction (restated; 4.9.0 == 4.9.8)
            commit.setSysFlag(MessageSysFlag.resetTransactionValue(commit.getSysFlag(), MessageSysFlag.TRANSACTION_COMMIT_TYPE));
            commit.setQueueOffset(half.getQueueOffset());
            commit.setPreparedTransactionOffset(halfOffset);
            commit.setStoreTimestamp(half.getStoreTimestamp());
            MessageAccessor.clearProperty(commit, MessageConst.PROPERTY_TRANSACTION_PREPARED);
            record(out, "commit", store, store.putMessage(commit));

            // the schedule service re-puts the delayed sends (level 1) and the retry (level 3), both 1 s here
            String retryTopic = MixAll.getRetryTopic(GROUP);
            for (int i = 0; i < 2000 && (store.getMaxOffsetInQueue(TOPIC, 0) < plainSends + delayedSends
                || store.getMaxOffsetInQueue(retryTopic, 0) < 1); i++) {
                Thread.sleep(10);
            }
            readQueue(out, store, TOPIC, plainSends);
            readQueue(out, store, retryTopic, 0);
        } finally {
            store.shutdown();
            store.destroy();
        }
        return out;
    }

    /**
     * {@code SendMessageProcessor#asyncSendMessage} up to the put, restated: parse the client's properties
     * String with this release's {@code string2messageProperties}, CLUSTER, then the release's site line.
     */
    static MessageExtBrokerInner normalSend(String release, String topic, String clientProperties, int sysFlag, String body)
        throws Exception {
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(topic);
        msgInner.setQueueId(0);
        msgInner.setSysFlag(sysFlag); // handleRetryAndDLQ: the header's sysFlag (SINGLE_TAG topic)
        msgInner.setBody(body.getBytes(StandardCharsets.UTF_8));
        msgInner.setFlag(0);
        Map<String, String> origProps = MessageDecoder.string2messageProperties(clientProperties);
        MessageAccessor.setProperties(msgInner, origProps);
        msgInner.setBornTimestamp(BORN_TIMESTAMP);
        msgInner.setBornHost(BORN_HOST);
        msgInner.setStoreHost(STORE_HOST);
        msgInner.setReconsumeTimes(0);
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        if (PATCHED_490.equals(release)) {
            // patched 4.9.0: msgInner.setPropertiesBytes(PersistedProperties.messageProperties2Bytes(msgInner.getProperties()))
            persist(release, msgInner, msgInner.getProperties());
        } else if (UPSTREAM_498.equals(release) && origProps.containsKey(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)) {
            // 4.9.8: remove WAIT, serialize, put WAIT back into the same map
            String waitStoreMsgOKValue = origProps.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
            msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
            origProps.put(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, waitStoreMsgOKValue);
        } else {
            // stock 4.9.0 (and 4.9.8 without WAIT)
            msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        }
        return msgInner;
    }

    /**
     * {@code SendMessageProcessor#asyncConsumerSendMsgBack} from {@code lookMessageByOffset}, restated
     * ({@code delayLevel} as the consumer sends it: 0 = retry at level 3 + reconsumeTimes, -1 = DLQ).
     */
    private static Map<String, Object[]> sendBack(String release, DefaultMessageStore store, long offset, int delayLevel,
        String label) throws Exception {
        MessageExt msgExt = store.lookMessageByOffset(offset);
        String newTopic = MixAll.getRetryTopic(GROUP);
        int queueIdInt = 0; // random % retryQueueNums (1)
        if (null == msgExt.getProperty(MessageConst.PROPERTY_RETRY_TOPIC)) {
            MessageAccessor.putProperty(msgExt, MessageConst.PROPERTY_RETRY_TOPIC, msgExt.getTopic());
        }
        msgExt.setWaitStoreMsgOK(false);
        if (msgExt.getReconsumeTimes() >= 16 || delayLevel < 0) {
            newTopic = MixAll.getDLQTopic(GROUP);
            queueIdInt = 0; // random % DLQ_NUMS_PER_GROUP (1)
        } else {
            if (0 == delayLevel) {
                delayLevel = 3 + msgExt.getReconsumeTimes();
            }
            msgExt.setDelayTimeLevel(delayLevel);
        }
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(newTopic);
        msgInner.setBody(msgExt.getBody());
        msgInner.setFlag(msgExt.getFlag());
        MessageAccessor.setProperties(msgInner, msgExt.getProperties());
        // (both releases also make a String here that the line below overwrites; the patched broker no longer does)
        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(null, msgExt.getTags()));
        msgInner.setQueueId(queueIdInt);
        msgInner.setSysFlag(msgExt.getSysFlag());
        msgInner.setBornTimestamp(msgExt.getBornTimestamp());
        msgInner.setBornHost(msgExt.getBornHost());
        msgInner.setStoreHost(msgExt.getStoreHost());
        msgInner.setReconsumeTimes(msgExt.getReconsumeTimes() + 1);
        String originMsgId = MessageAccessor.getOriginMessageId(msgExt);
        MessageAccessor.setOriginMessageId(msgInner, UtilAll.isBlank(originMsgId) ? msgExt.getMsgId() : originMsgId);
        persist(release, msgInner, msgExt.getProperties());
        Map<String, Object[]> out = new LinkedHashMap<>();
        record(out, label, store, store.asyncPutMessage(msgInner).get());
        return out;
    }

    /** {@code TransactionalMessageBridge#parseHalfMessageInner}: the (patched or stock) 4.9.0 broker's own, or 4.9.8's restated. */
    private static MessageExtBrokerInner parseHalfMessageInner(String release, MessageExtBrokerInner msgInner) throws Exception {
        if (!UPSTREAM_498.equals(release)) {
            Class<?> bridge = Class.forName("org.apache.rocketmq.broker.transaction.queue.TransactionalMessageBridge", true,
                StoreSiteProbe.class.getClassLoader());
            Method parse = bridge.getDeclaredMethod("parseHalfMessageInner", MessageExtBrokerInner.class);
            parse.setAccessible(true);
            // the method reads no field; the constructor needs a BrokerController, so the instance is made without it
            return (MessageExtBrokerInner) parse.invoke(allocateWithoutConstructor(bridge), msgInner);
        }
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_REAL_TOPIC, msgInner.getTopic());
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_REAL_QUEUE_ID, String.valueOf(msgInner.getQueueId()));
        msgInner.setSysFlag(MessageSysFlag.resetTransactionValue(msgInner.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
        msgInner.setTopic(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC); // TransactionalMessageUtil.buildHalfTopic()
        msgInner.setQueueId(0);
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        return msgInner;
    }

    /** {@code EndTransactionProcessor#endMessageTransaction}: the (patched or stock) 4.9.0 broker's own, or 4.9.8's restated. */
    private static MessageExtBrokerInner endMessageTransaction(String release, MessageExt msgExt) throws Exception {
        if (!UPSTREAM_498.equals(release)) {
            Class<?> processor = Class.forName("org.apache.rocketmq.broker.processor.EndTransactionProcessor", true,
                StoreSiteProbe.class.getClassLoader());
            Method end = processor.getDeclaredMethod("endMessageTransaction", MessageExt.class);
            end.setAccessible(true);
            Constructor<?> constructor = processor.getConstructors()[0]; // (BrokerController): only stored, unused here
            return (MessageExtBrokerInner) end.invoke(constructor.newInstance((Object) null), msgExt);
        }
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(msgExt.getUserProperty(MessageConst.PROPERTY_REAL_TOPIC));
        msgInner.setQueueId(Integer.parseInt(msgExt.getUserProperty(MessageConst.PROPERTY_REAL_QUEUE_ID)));
        msgInner.setBody(msgExt.getBody());
        msgInner.setFlag(msgExt.getFlag());
        msgInner.setBornTimestamp(msgExt.getBornTimestamp());
        msgInner.setBornHost(msgExt.getBornHost());
        msgInner.setStoreHost(msgExt.getStoreHost());
        msgInner.setReconsumeTimes(msgExt.getReconsumeTimes());
        msgInner.setWaitStoreMsgOK(false);
        msgInner.setTransactionId(msgExt.getUserProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
        msgInner.setSysFlag(msgExt.getSysFlag());
        TopicFilterType topicFilterType = (msgInner.getSysFlag() & MessageSysFlag.MULTI_TAGS_FLAG) == MessageSysFlag.MULTI_TAGS_FLAG
            ? TopicFilterType.MULTI_TAG : TopicFilterType.SINGLE_TAG;
        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(topicFilterType, msgInner.getTags()));
        MessageAccessor.setProperties(msgInner, msgExt.getProperties());
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));
        MessageAccessor.clearProperty(msgInner, MessageConst.PROPERTY_REAL_TOPIC);
        MessageAccessor.clearProperty(msgInner, MessageConst.PROPERTY_REAL_QUEUE_ID);
        return msgInner;
    }

    /** The line every broker-side site ends with: 4.9.x's String, or the patched 4.9.0's trimmed block. */
    private static void persist(String release, MessageExtBrokerInner msgInner, Map<String, String> map) throws Exception {
        if (!PATCHED_490.equals(release)) {
            msgInner.setPropertiesString(MessageDecoder.messageProperties2String(map));
            return;
        }
        ClassLoader loader = StoreSiteProbe.class.getClassLoader();
        Method toBytes = Class.forName("io.hotpath.store.PersistedProperties", true, loader)
            .getMethod("messageProperties2Bytes", Map.class);
        MessageExtBrokerInner.class.getMethod("setPropertiesBytes", byte[].class).invoke(msgInner, toBytes.invoke(null, map));
    }

    /** The body a client sends for a batch: MessageDecoder.encodeMessage's layout per message, the block given as is. */
    private static byte[] clientEncodedBatch(List<String> innerBlocks) {
        ByteBuffer body = ByteBuffer.allocate(1 << 16);
        for (int i = 0; i < innerBlocks.size(); i++) {
            byte[] messageBody = ("batch body " + i).getBytes(StandardCharsets.UTF_8);
            byte[] properties = innerBlocks.get(i).getBytes(StandardCharsets.UTF_8);
            body.putInt(4 + 4 + 4 + 4 + 4 + messageBody.length + 2 + properties.length);
            body.putInt(0); // MAGICCODE
            body.putInt(0); // BODYCRC
            body.putInt(0); // FLAG
            body.putInt(messageBody.length);
            body.put(messageBody);
            body.putShort((short) properties.length);
            body.put(properties);
        }
        byte[] encoded = new byte[body.position()];
        body.flip();
        body.get(encoded);
        return encoded;
    }

    private static long record(Map<String, Object[]> out, String label, DefaultMessageStore store, PutMessageResult result) {
        check(label, result);
        long offset = result.getAppendMessageResult().getWroteOffset();
        byte[] bytes = read(store, offset);
        if (bytes.length != result.getAppendMessageResult().getWroteBytes()) {
            throw new IllegalStateException(label + ": read " + bytes.length + " bytes, wrote " + result.getAppendMessageResult().getWroteBytes());
        }
        out.put(label, new Object[] {bytes, decodedProperties(bytes)});
        return offset;
    }

    private static void check(String label, PutMessageResult result) {
        if (result == null || !result.isOk() || result.getAppendMessageResult() == null) {
            throw new IllegalStateException(label + ": put failed: " + result);
        }
    }

    private static void readQueue(Map<String, Object[]> out, DefaultMessageStore store, String topic, long from) {
        for (long queueOffset = from; queueOffset < store.getMaxOffsetInQueue(topic, 0); queueOffset++) {
            byte[] bytes = read(store, store.getCommitLogOffsetInQueue(topic, 0, queueOffset));
            LinkedHashMap<String, String> properties = decodedProperties(bytes);
            out.put("reput/" + topic + "/" + properties.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX),
                new Object[] {bytes, properties});
        }
    }

    private static byte[] read(DefaultMessageStore store, long offset) {
        SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
        try {
            ByteBuffer buffer = selected.getByteBuffer();
            byte[] bytes = new byte[buffer.getInt(buffer.position())];
            buffer.get(bytes);
            return bytes;
        } finally {
            selected.release();
        }
    }

    /** This release's reading of the record's properties, in its map's order. */
    private static LinkedHashMap<String, String> decodedProperties(byte[] record) {
        Map<String, String> properties = MessageDecoder.decode(ByteBuffer.wrap(record), true, false).getProperties();
        return properties == null ? null : new LinkedHashMap<>(properties);
    }

    private static DefaultMessageStore startedStore(String root) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root);
        config.setStorePathCommitLog(root + "/commitlog");
        config.setMappedFileSizeCommitLog(1024 * 1024);
        config.setMappedFileSizeConsumeQueue(1000 * 20);
        config.setMaxIndexNum(1000);
        config.setMaxHashSlotNum(100);
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        config.setBrokerRole(BrokerRole.ASYNC_MASTER);
        config.setMessageDelayLevel(DELAY_LEVELS);
        config.setHaListenPort(0); // an ephemeral port: never collides with a broker running on this machine
        DefaultMessageStore store = new DefaultMessageStore(config, brokerStatsManager(),
            (topic, queueId, offset, tagsCode, storeTime, filter, props) -> { }, new BrokerConfig());
        if (!store.load()) {
            throw new IllegalStateException("store did not load " + root);
        }
        store.start();
        // as BrokerController does on a master: the schedule service re-puts due delayed messages
        store.handleScheduleMessageService(BrokerRole.ASYNC_MASTER);
        return store;
    }

    /** 4.9.0 has {@code BrokerStatsManager(String)}, 4.9.8 {@code (String, boolean enableQueueStat)}. */
    private static org.apache.rocketmq.store.stats.BrokerStatsManager brokerStatsManager() throws Exception {
        Class<org.apache.rocketmq.store.stats.BrokerStatsManager> type = org.apache.rocketmq.store.stats.BrokerStatsManager.class;
        try {
            return type.getConstructor(String.class).newInstance("DefaultCluster");
        } catch (NoSuchMethodException e) {
            return type.getConstructor(String.class, boolean.class).newInstance("DefaultCluster", true);
        }
    }

    private static Object allocateWithoutConstructor(Class<?> type) throws Exception {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        return unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type);
    }
}
