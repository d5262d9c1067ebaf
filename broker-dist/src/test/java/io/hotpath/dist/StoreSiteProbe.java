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
import io.netty.channel.ChannelHandlerContext;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.mqtrace.SendMessageContext;
import org.apache.rocketmq.broker.processor.AdminBrokerProcessor;
import org.apache.rocketmq.broker.processor.PullMessageProcessor;
import org.apache.rocketmq.broker.processor.SendMessageProcessor;
import org.apache.rocketmq.broker.topic.TopicConfigManager;
import org.apache.rocketmq.broker.transaction.queue.DefaultTransactionalMessageCheckListener;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageBridge;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.ResumeCheckHalfMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.common.protocol.topic.OffsetMovedEvent;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

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
 *   <li>the transaction check service's sites, the resume command, the op record and the offset-moved event: real in
 *       the patched broker ({@link Broker490Sites}: {@code TransactionalMessageBridge#renewHalfMessageInner},
 *       {@code #renewImmunityHalfMessageInner}, {@code #putOpMessage} (which makes the op record with the private
 *       {@code makeOpMessageInner} and puts it), {@code DefaultTransactionalMessageCheckListener#resolveDiscardMsg}
 *       (its private {@code toMessageExtBrokerInner} and the put), {@code AdminBrokerProcessor#resumeCheckHalfMessage}
 *       (private; select, decode, its private {@code toMessageExtBrokerInner}, put),
 *       {@code PullMessageProcessor#generateOffsetMovedEvent} (private; builds and puts)); restated for 4.9.8 from tag
 *       {@code rocketmq-all-4.9.8} (same bodies as 4.9.0). The callers' lines around them
 *       ({@code TransactionalMessageServiceImpl#needDiscard}'s TRANSACTION_CHECK_TIMES, the put of a renewed half) are
 *       restated for both;</li>
 *   <li>restated for both releases (they need a live {@code BrokerController}): the normal send
 *       ({@code SendMessageProcessor#asyncSendMessage}: 4.9.8 removes WAIT, serializes, puts WAIT back; patched
 *       4.9.0 makes the trimmed block), the batch send ({@code #asyncSendBatchMessage}), consumer send-back
 *       ({@code #asyncConsumerSendMsgBack}) and {@code EndTransactionProcessor#processRequest}'s calls around
 *       {@code endMessageTransaction}.</li>
 * </ul>
 *
 * <p>Once everything is stored and dispatched, {@link #dispatched} reads back what each store's dispatch built from
 * each record (ConsumeQueue entry, pull, index lookups, delivery time). {@link #putAtLimit} runs the 32767-byte cases.
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
    public static final String BROKER_NAME = "broker-a";
    /** Identical in both stores, so that only the store timestamp and offsets differ. */
    public static final long BORN_TIMESTAMP = 1_700_000_000_123L;
    static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 51234);
    static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    /**
     * 18 levels, level n = n s: short enough that the retry of a send-back (level 3) comes due within the test, and
     * distinct, so that the delivery time dispatch computes from a record's DELAY tells the levels apart.
     */
    static final String DELAY_LEVELS = "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s 12s 13s 14s 15s 16s 17s 18s";

    private StoreSiteProbe() {
    }

    /**
     * Runs every path on a fresh store under {@code root} and returns, per path label, {record bytes, the
     * record's properties as this release's {@code MessageDecoder.decode} reads them (LinkedHashMap in the
     * decoded map's order)}. Labels: {@code send/i} (one per {@code sends}; a DELAY entry sends it through the
     * CommitLog delay branch, so its record is on the schedule topic), {@code batch/i}, {@code sendback-retry}
     * and {@code sendback-dlq} (from the stored {@code send/0}), {@code half}, {@code commit}, and
     * {@code check-renew}, {@code check-immunity}, {@code check-discard} (the transaction check service's re-puts of
     * the half and its move to TRANS_CHECK_MAX_TIME_TOPIC), {@code resume} (the admin command's re-put of that to the
     * half topic), {@code op} (the commit's op record), {@code offset-moved}, and {@code reput/<topic>/<UNIQ_KEY>}
     * for each schedule re-put (the delayed sends and the retry). Each entry is {record, decoded properties,
     * {@link #dispatched} view}.
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
            batch.setBody(ClientBatchBody.encode(batchInner));
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

            // the transaction check service's sites (TransactionalMessageServiceImpl#check), on the stored half
            Broker490Sites broker = UPSTREAM_498.equals(release) ? null : new Broker490Sites(store);
            // needDiscard (restated, both releases): the first check puts TRANSACTION_CHECK_TIMES=1 into the decoded map
            MessageExt checked = store.lookMessageByOffset(halfOffset);
            checked.putUserProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, "1");
            MessageExtBrokerInner renewed = broker != null ? broker.renewHalfMessageInner(checked) : renewHalfMessageInner498(checked);
            long renewedOffset = record(out, "check-renew", store, store.putMessage(renewed)); // putBackHalfMsgQueue
            checked = store.lookMessageByOffset(halfOffset);
            checked.putUserProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, "1");
            MessageExtBrokerInner immune = broker != null ? broker.renewImmunityHalfMessageInner(checked)
                : renewImmunityHalfMessageInner498(checked);
            record(out, "check-immunity", store, store.putMessage(immune)); // putImmunityMsgBackToHalfQueue
            // needDiscard of the renewed record with transactionCheckMax 1: its stored CHECK_TIMES=1 reaches the
            // maximum, the map is left as decoded, and the listener moves it to TRANS_CHECK_MAX_TIME_TOPIC
            MessageExt discarded = store.lookMessageByOffset(renewedOffset);
            if (broker != null) {
                broker.resolveDiscardMsg(discarded);
            } else {
                check("check-discard", store.putMessage(toMessageExtBrokerInner498(TopicValidator.RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC, discarded))); // resolveDiscardMsg
            }
            long discardOffset = awaitRecord(out, "check-discard", store, TopicValidator.RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC, 0);
            // the admin command that resumes a discarded message to the half topic, by its offset message id
            if (broker != null) {
                broker.resumeCheckHalfMessage(store.lookMessageByOffset(discardOffset).getMsgId());
            } else {
                resumeCheckHalfMessage498(store, discardOffset);
            }
            awaitRecord(out, "resume", store, TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, 3); // half, renew, immunity, resume
            // the op record of the commit (EndTransactionProcessor: deletePrepareMessage -> putOpMessage(half, "d"))
            MessageExt opFor = store.lookMessageByOffset(halfOffset);
            if (broker != null) {
                broker.putOpMessage(opFor);
            } else {
                putOpMessage498(store, opFor);
            }
            awaitRecord(out, "op", store, TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC, 0);

            // PullMessageProcessor: a pull whose offset was out of range, with offset-moved events enabled
            OffsetMovedEvent event = new OffsetMovedEvent();
            event.setConsumerGroup(GROUP);
            event.setMessageQueue(new MessageQueue(TOPIC, BROKER_NAME, 0));
            event.setOffsetRequest(42);
            event.setOffsetNew(7);
            if (broker != null) {
                broker.generateOffsetMovedEvent(event);
            } else {
                generateOffsetMovedEvent498(store, event);
            }
            awaitRecord(out, "offset-moved", store, TopicValidator.RMQ_SYS_OFFSET_MOVED_EVENT, 0);

            // the schedule service re-puts the delayed sends (level 1) and the retry (level 3), both 1 s here
            String retryTopic = MixAll.getRetryTopic(GROUP);
            for (int i = 0; i < 2000 && (store.getMaxOffsetInQueue(TOPIC, 0) < plainSends + delayedSends
                || store.getMaxOffsetInQueue(retryTopic, 0) < 1); i++) {
                Thread.sleep(10);
            }
            readQueue(out, store, TOPIC, plainSends);
            readQueue(out, store, retryTopic, 0);

            // what each store's dispatch (ReputMessageService) built from each record, once it has read them all
            for (int i = 0; i < 2000 && store.dispatchBehindBytes() > 0; i++) {
                Thread.sleep(10);
            }
            if (store.dispatchBehindBytes() > 0) {
                throw new IllegalStateException("dispatch still " + store.dispatchBehindBytes() + " bytes behind");
            }
            for (Map.Entry<String, Object[]> entry : out.entrySet()) {
                byte[] bytes = (byte[]) entry.getValue()[0];
                entry.setValue(new Object[] {bytes, entry.getValue()[1], dispatched(store, bytes)});
            }
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
            // the method reads no field; the constructor needs a BrokerController, so the instance is made without it
            return (MessageExtBrokerInner) invokeDeclared(allocateWithoutConstructor(bridge), "parseHalfMessageInner",
                new Class<?>[] {MessageExtBrokerInner.class}, msgInner);
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
            Constructor<?> constructor = processor.getConstructors()[0]; // (BrokerController): only stored, unused here
            return (MessageExtBrokerInner) invokeDeclared(constructor.newInstance((Object) null), "endMessageTransaction",
                new Class<?>[] {MessageExt.class}, msgExt);
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

    /**
     * The 32767-byte limit: each of {@code clientProperties} through this release's normal send (restated as in
     * {@link #normalSend}) and the store's own {@code asyncPutMessage}. Returns per message {put status name, the
     * response code the broker answers with, the stored record or null}. The response code: patched and stock 4.9.0
     * run their own {@code SendMessageProcessor#handlePutMessageResult}; for 4.9.8 (no broker jar) its switch is
     * restated from tag {@code rocketmq-all-4.9.8}: {@code MESSAGE_ILLEGAL} and {@code PROPERTIES_SIZE_EXCEEDED} both
     * answer {@code ResponseCode.MESSAGE_ILLEGAL} (13), {@code PUT_OK} answers {@code SUCCESS} (0).
     */
    public static List<Object[]> putAtLimit(String release, String root, List<String> clientProperties) throws Exception {
        List<Object[]> out = new ArrayList<>();
        DefaultMessageStore store = startedStore(root);
        try {
            Broker490Sites broker = UPSTREAM_498.equals(release) ? null : new Broker490Sites(store);
            for (int i = 0; i < clientProperties.size(); i++) {
                MessageExtBrokerInner msg = normalSend(release, TOPIC, clientProperties.get(i), 0, "limit body " + i);
                PutMessageResult result = store.asyncPutMessage(msg).get();
                String status = result.getPutMessageStatus().name();
                int code = broker != null ? broker.responseCode(result, msg) : responseCode498(status);
                byte[] bytes = null;
                if (result.isOk()) {
                    bytes = read(store, result.getAppendMessageResult().getWroteOffset());
                }
                out.add(new Object[] {status, code, bytes});
            }
        } finally {
            store.shutdown();
            store.destroy();
        }
        return out;
    }

    /** 4.9.8's {@code SendMessageProcessor#handlePutMessageResult} switch for the statuses a put can return here (restated). */
    private static int responseCode498(String status) {
        switch (status) {
            case "PUT_OK":
                return 0; // ResponseCode.SUCCESS
            case "MESSAGE_ILLEGAL":
            case "PROPERTIES_SIZE_EXCEEDED":
                return 13; // ResponseCode.MESSAGE_ILLEGAL
            default:
                throw new IllegalStateException("not expected here: " + status);
        }
    }

    /**
     * What this store's dispatch built from a stored record, read back through the store's public API: the
     * ConsumeQueue entry at the record's queue offset (is it this record: physical offset and size; its tags code,
     * or on the schedule topic the delivery time minus the store time), a consumer pull at that queue offset
     * ({@code getMessage}), and the index ({@code queryMessage}) by each KEYS key and by UNIQ_KEY: found or not.
     */
    static LinkedHashMap<String, Object> dispatched(DefaultMessageStore store, byte[] record) {
        MessageExt msg = MessageDecoder.decode(ByteBuffer.wrap(record), true, false);
        String topic = msg.getTopic();
        LinkedHashMap<String, Object> view = new LinkedHashMap<>();
        ConsumeQueue queue = store.getConsumeQueue(topic, msg.getQueueId());
        SelectMappedBufferResult entry = queue == null ? null : queue.getIndexBuffer(msg.getQueueOffset());
        if (entry == null) {
            view.put("consume queue entry", "none");
        } else {
            try {
                ByteBuffer b = entry.getByteBuffer();
                long physicalOffset = b.getLong();
                int size = b.getInt();
                long tagsCode = b.getLong();
                view.put("consume queue entry is this record", physicalOffset == msg.getCommitLogOffset() && size == record.length);
                if (TopicValidator.RMQ_SYS_SCHEDULE_TOPIC.equals(topic)) {
                    // the store timestamp differs between the two stores; what the record decides is the delay
                    view.put("delivery time - store time", tagsCode - msg.getStoreTimestamp());
                } else {
                    view.put("tags code", tagsCode);
                }
            } finally {
                entry.release();
            }
        }
        GetMessageResult pulled = store.getMessage(GROUP, topic, msg.getQueueId(), msg.getQueueOffset(), 1, null);
        try {
            List<ByteBuffer> buffers = pulled == null ? List.of() : pulled.getMessageBufferList();
            view.put("pull at its queue offset", pulled == null ? "null" : pulled.getStatus().name() + (buffers.size() == 1
                && buffers.get(0).getLong(buffers.get(0).position() + 28) == msg.getCommitLogOffset() ? ", this record" : ", " + buffers.size() + " other"));
        } finally {
            if (pulled != null) {
                pulled.release();
            }
        }
        String keys = msg.getKeys();
        if (keys != null) {
            for (String key : keys.split(MessageConst.KEY_SEPARATOR)) {
                if (!key.isEmpty()) {
                    view.put("index KEYS " + key, indexed(store, topic, key, msg.getCommitLogOffset()));
                }
            }
        }
        String uniqKey = msg.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        if (uniqKey != null) {
            view.put("index UNIQ_KEY " + uniqKey, indexed(store, topic, uniqKey, msg.getCommitLogOffset()));
        }
        return view;
    }

    /** {@code queryMessage(topic, key)} finds the record at {@code physicalOffset}. */
    private static boolean indexed(DefaultMessageStore store, String topic, String key, long physicalOffset) {
        QueryMessageResult found = store.queryMessage(topic, key, 64, 0, Long.MAX_VALUE);
        try {
            for (ByteBuffer b : found.getMessageBufferList()) {
                if (b.getLong(b.position() + 28) == physicalOffset) {
                    return true;
                }
            }
            return false;
        } finally {
            found.release();
        }
    }

    /** Waits for the put that a site made itself to be dispatched to {@code topic} queue 0 at {@code queueOffset}, and records it. */
    private static long awaitRecord(Map<String, Object[]> out, String label, DefaultMessageStore store, String topic, long queueOffset)
        throws InterruptedException {
        for (int i = 0; i < 1000 && store.getMaxOffsetInQueue(topic, 0) <= queueOffset; i++) {
            Thread.sleep(10);
        }
        if (store.getMaxOffsetInQueue(topic, 0) <= queueOffset) {
            throw new IllegalStateException(label + ": nothing at " + topic + " queue 0 offset " + queueOffset);
        }
        long offset = store.getCommitLogOffsetInQueue(topic, 0, queueOffset);
        byte[] bytes = read(store, offset);
        out.put(label, new Object[] {bytes, decodedProperties(bytes)});
        return offset;
    }

    // 4.9.8's transaction check / op / resume sites and offset-moved event, restated: rocketmq-broker 4.9.8 is not on
    // Maven Central. Read at tag rocketmq-all-4.9.8 of apache/rocketmq: each body is 4.9.0's, but for the listener's
    // queue id (ThreadLocalRandom instead of Random; 0 either way with its one queue). They run on 4.9.8's own
    // MessageExtBrokerInner, MessageDecoder and store; 4.9.0's (patched) own methods run in Broker490Sites.

    /** {@code TransactionalMessageBridge#renewHalfMessageInner}: String from the decoded map, THEN WAIT=false into it. */
    private static MessageExtBrokerInner renewHalfMessageInner498(MessageExt msgExt) {
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(msgExt.getTopic());
        msgInner.setBody(msgExt.getBody());
        msgInner.setQueueId(msgExt.getQueueId());
        msgInner.setMsgId(msgExt.getMsgId());
        msgInner.setSysFlag(msgExt.getSysFlag());
        msgInner.setTags(msgExt.getTags());
        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(msgInner.getTags()));
        MessageAccessor.setProperties(msgInner, msgExt.getProperties());
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));
        msgInner.setBornTimestamp(msgExt.getBornTimestamp());
        msgInner.setBornHost(msgExt.getBornHost());
        msgInner.setStoreHost(msgExt.getStoreHost());
        msgInner.setWaitStoreMsgOK(false);
        return msgInner;
    }

    /** {@code #renewImmunityHalfMessageInner}: renew, put TRAN_PREPARED_QUEUE_OFFSET, re-serialize (so WAIT=false is stored). */
    private static MessageExtBrokerInner renewImmunityHalfMessageInner498(MessageExt msgExt) {
        MessageExtBrokerInner msgInner = renewHalfMessageInner498(msgExt);
        String queueOffsetFromPrepare = msgExt.getUserProperty(MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET);
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET,
            null != queueOffsetFromPrepare ? queueOffsetFromPrepare : String.valueOf(msgExt.getQueueOffset()));
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        return msgInner;
    }

    /**
     * {@code DefaultTransactionalMessageCheckListener#toMessageExtBrokerInner} (topic TRANS_CHECK_MAX_TIME_TOPIC, which
     * exists with 1 queue) and {@code AdminBrokerProcessor#toMessageExtBrokerInner} (the half topic): two private
     * methods with this same body but for the topic.
     */
    private static MessageExtBrokerInner toMessageExtBrokerInner498(String topic, MessageExt msgExt) {
        MessageExtBrokerInner inner = new MessageExtBrokerInner();
        inner.setTopic(topic);
        inner.setBody(msgExt.getBody());
        inner.setFlag(msgExt.getFlag());
        MessageAccessor.setProperties(inner, msgExt.getProperties());
        inner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));
        inner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(msgExt.getTags()));
        // the listener: ThreadLocalRandom.current().nextInt(99999999) % TCMT_QUEUE_NUMS (1); the admin processor: 0
        inner.setQueueId(0);
        inner.setSysFlag(msgExt.getSysFlag());
        inner.setBornHost(msgExt.getBornHost());
        inner.setBornTimestamp(msgExt.getBornTimestamp());
        inner.setStoreHost(msgExt.getStoreHost());
        inner.setReconsumeTimes(msgExt.getReconsumeTimes());
        inner.setMsgId(msgExt.getMsgId());
        inner.setWaitStoreMsgOK(false);
        return inner;
    }

    /** {@code AdminBrokerProcessor#resumeCheckHalfMessage}: select, decode, CHECK_TIMES=0, {@code #toMessageExtBrokerInner}, put. */
    private static void resumeCheckHalfMessage498(DefaultMessageStore store, long offset) {
        SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
        MessageExt msgExt;
        try {
            msgExt = MessageDecoder.decode(selected.getByteBuffer());
        } finally {
            selected.release();
        }
        msgExt.putUserProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, String.valueOf(0));
        // TransactionalMessageUtil.buildHalfTopic()
        MessageExtBrokerInner inner = toMessageExtBrokerInner498(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, msgExt);
        check("resume", store.putMessage(inner));
    }

    /**
     * {@code TransactionalMessageBridge#putOpMessage(half, "d")}: {@code addRemoveTagInTransactionOp} (a {@code Message}
     * to the op topic, tag {@code d}, body = the half's queue offset; its constructor puts WAIT=true), {@code writeOp}
     * (op queue = the half's queue id), {@code makeOpMessageInner} (String, then WAIT=false and UNIQ_KEY), put.
     */
    private static void putOpMessage498(DefaultMessageStore store, MessageExt half) {
        Message message = new Message(TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC, "d",
            String.valueOf(half.getQueueOffset()).getBytes(StandardCharsets.UTF_8));
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(message.getTopic());
        msgInner.setBody(message.getBody());
        msgInner.setQueueId(half.getQueueId());
        msgInner.setTags(message.getTags());
        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(msgInner.getTags()));
        msgInner.setSysFlag(0);
        MessageAccessor.setProperties(msgInner, message.getProperties());
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(message.getProperties()));
        msgInner.setBornTimestamp(System.currentTimeMillis());
        msgInner.setBornHost(STORE_HOST); // the bridge's storeHost: brokerIP1 + listen port
        msgInner.setStoreHost(STORE_HOST);
        msgInner.setWaitStoreMsgOK(false);
        MessageClientIDSetter.setUniqID(msgInner);
        check("op", store.putMessage(msgInner));
    }

    /** {@code PullMessageProcessor#generateOffsetMovedEvent} (born host = store host = the broker address). */
    private static void generateOffsetMovedEvent498(DefaultMessageStore store, OffsetMovedEvent event) {
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(TopicValidator.RMQ_SYS_OFFSET_MOVED_EVENT);
        msgInner.setTags(event.getConsumerGroup());
        msgInner.setDelayTimeLevel(0);
        msgInner.setKeys(event.getConsumerGroup());
        msgInner.setBody(event.encode());
        msgInner.setFlag(0);
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(TopicFilterType.SINGLE_TAG, msgInner.getTags()));
        msgInner.setQueueId(0);
        msgInner.setSysFlag(0);
        msgInner.setBornTimestamp(System.currentTimeMillis());
        msgInner.setBornHost(STORE_HOST); // RemotingUtil.string2SocketAddress(brokerController.getBrokerAddr())
        msgInner.setStoreHost(msgInner.getBornHost());
        msgInner.setReconsumeTimes(0);
        check("offset-moved", store.putMessage(msgInner));
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
    private static BrokerStatsManager brokerStatsManager() throws Exception {
        Class<BrokerStatsManager> type = BrokerStatsManager.class;
        try {
            return type.getConstructor(String.class).newInstance("DefaultCluster");
        } catch (NoSuchMethodException e) {
            return type.getConstructor(String.class, boolean.class).newInstance("DefaultCluster", true);
        }
    }

    /** Calls a method that {@code target}'s class declares itself (private ones too), as its own callers would. */
    private static Object invokeDeclared(Object target, String name, Class<?>[] parameterTypes, Object... args)
            throws Exception {
        Method method = target.getClass().getDeclaredMethod(name, parameterTypes);
        method.setAccessible(true);
        return method.invoke(target, args);
    }

    private static Object allocateWithoutConstructor(Class<?> type) throws Exception {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        return unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type);
    }

    /**
     * The 4.9.0 broker's own transaction check / op / resume sites, offset-moved event and send-response mapping,
     * from whichever rocketmq-broker this class loader holds: the PATCHED one under {@link PatchedBrokerLoader}, the
     * stock jar for {@link #STOCK_490}. Never loaded under 4.9.8 (its loader has no broker classes; only the 4.9.0
     * branches of {@link StoreSiteProbe} reference this class).
     *
     * <p>No live broker: the {@code BrokerController} is allocated without its constructor (which would build the
     * remoting client, the managers and their executors) and only the fields these sites read are set: broker IP
     * and name, listen port, store config, the running store, its stats manager, and a {@code TopicConfigManager}
     * that already holds TRANS_CHECK_MAX_TIME_TOPIC (1 queue, as a broker has it after its first discard; creating
     * it would write topics.json and register with a name server). Public site methods are called as their callers
     * call them; private ones by reflection, as the comparison test does for the half and the commit.
     */
    static final class Broker490Sites {
        private final BrokerController controller;
        private final TransactionalMessageBridge bridge;

        Broker490Sites(DefaultMessageStore store) throws Exception {
            controller = (BrokerController) allocateWithoutConstructor(
                BrokerController.class);
            BrokerConfig brokerConfig = new BrokerConfig();
            brokerConfig.setBrokerIP1(STORE_HOST.getHostString());
            brokerConfig.setBrokerName(BROKER_NAME);
            NettyServerConfig server = new NettyServerConfig();
            server.setListenPort(STORE_HOST.getPort());
            set(controller, "brokerConfig", brokerConfig);
            set(controller, "nettyServerConfig", server);
            set(controller, "messageStoreConfig", store.getMessageStoreConfig());
            set(controller, "messageStore", store);
            set(controller, "brokerStatsManager", store.getBrokerStatsManager());
            TopicConfigManager topics = new TopicConfigManager(controller);
            TopicConfig checkMaxTime = new TopicConfig(
                TopicValidator.RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC, 1, 1,
                PermName.PERM_READ | PermName.PERM_WRITE);
            topics.getTopicConfigTable().put(checkMaxTime.getTopicName(), checkMaxTime);
            set(controller, "topicConfigManager", topics);
            bridge = new TransactionalMessageBridge(controller, store);
        }

        MessageExtBrokerInner renewHalfMessageInner(MessageExt msgExt) {
            return bridge.renewHalfMessageInner(msgExt);
        }

        MessageExtBrokerInner renewImmunityHalfMessageInner(MessageExt msgExt) {
            return bridge.renewImmunityHalfMessageInner(msgExt);
        }

        /** {@code TransactionalMessageBridge#putOpMessage}: Message, writeOp, makeOpMessageInner and the put, all its own. */
        void putOpMessage(MessageExt half) {
            bridge.putOpMessage(half, "d"); // TransactionalMessageUtil.REMOVETAG
        }

        /** {@code DefaultTransactionalMessageCheckListener#resolveDiscardMsg}: its private toMessageExtBrokerInner and the put. */
        void resolveDiscardMsg(MessageExt msgExt) {
            DefaultTransactionalMessageCheckListener listener =
                new DefaultTransactionalMessageCheckListener();
            listener.setBrokerController(controller);
            listener.resolveDiscardMsg(msgExt);
        }

        /** {@code AdminBrokerProcessor#resumeCheckHalfMessage} (private; ctx unused): select, decode, its toMessageExtBrokerInner, put. */
        void resumeCheckHalfMessage(String offsetMsgId) throws Exception {
            ResumeCheckHalfMessageRequestHeader header =
                new ResumeCheckHalfMessageRequestHeader();
            header.setMsgId(offsetMsgId);
            RemotingCommand request = RemotingCommand
                .createRequestCommand(RequestCode.RESUME_CHECK_HALF_MESSAGE, header);
            request.makeCustomHeaderToNet(); // as the request arrives: the header in extFields
            Object processor = new AdminBrokerProcessor(controller);
            RemotingCommand response = (RemotingCommand) invokeDeclared(processor, "resumeCheckHalfMessage",
                new Class<?>[] {ChannelHandlerContext.class, RemotingCommand.class}, null, request);
            if (response.getCode() != 0) {
                throw new IllegalStateException("resumeCheckHalfMessage: " + response.getCode() + " " + response.getRemark());
            }
        }

        /** {@code PullMessageProcessor#generateOffsetMovedEvent} (private): builds the record and puts it itself. */
        void generateOffsetMovedEvent(OffsetMovedEvent event) throws Exception {
            Object processor = new PullMessageProcessor(controller);
            invokeDeclared(processor, "generateOffsetMovedEvent", new Class<?>[] {OffsetMovedEvent.class}, event);
        }

        /**
         * {@code SendMessageProcessor#handlePutMessageResult} (private): the response code the broker answers a send
         * with. The request is oneway so that a PUT_OK does not write to the (absent) channel.
         */
        int responseCode(PutMessageResult result, MessageExt msg) throws Exception {
            Object processor = new SendMessageProcessor(controller);
            RemotingCommand request = RemotingCommand
                .createRequestCommand(RequestCode.SEND_MESSAGE, null);
            request.setExtFields(new java.util.HashMap<>());
            request.markOnewayRPC();
            RemotingCommand response = RemotingCommand
                .createResponseCommand(SendMessageResponseHeader.class);
            invokeDeclared(processor, "handlePutMessageResult", new Class<?>[] {PutMessageResult.class,
                RemotingCommand.class, RemotingCommand.class, MessageExt.class, SendMessageResponseHeader.class,
                SendMessageContext.class, ChannelHandlerContext.class, int.class},
                result, response, request, msg, response.readCustomHeader(), null, null, 0);
            return response.getCode();
        }

        private static void set(Object target, String field, Object value) throws Exception {
            Field f = target.getClass().getDeclaredField(field);
            f.setAccessible(true);
            f.set(target, value);
        }
    }
}
