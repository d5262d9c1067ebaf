package io.hotpath.dist.store.probe533;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.shared.Store533Paths;
import io.hotpath.dist.store.shared.Store533Run;
import io.hotpath.dist.store.shared.Stored533;
import org.apache.rocketmq.broker.schedule.ScheduleMessageService;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageUtil;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageBatch;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.MessageExtEncoder;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.pop.PopCheckPoint;
import org.apache.rocketmq.store.timer.TimerMessageStore;

/**
 * Drives a REAL 5.3.3 {@code DefaultMessageStore} (the stock or the patched distribution's, whichever this class
 * loader holds) through every path that sets a message's properties String, and returns each CommitLog record.
 * Compiled at test time against the STOCK 5.3.3 distribution's lib/ ({@code Probe533Classes}) and loaded child-first
 * into each distribution's loader, so every RocketMQ class it names (MessageDecoder, Message, the store, the broker
 * sites) is that distribution's.
 *
 * <p><b>Real site code</b> (the distribution's own bytecode): the client side's {@code Message} constructor (TAGS, KEYS,
 * WAIT=true), {@code setDelayTimeLevel} / {@code setDeliverTimeMs}, {@code MessageBatch#generateFromList} and
 * {@code #encode} ({@code MessageDecoder.encodeMessages}) and {@code MessageDecoder.messageProperties2String} /
 * {@code string2messageProperties} everywhere; the put hooks' {@code HookUtils.checkBeforePutMessage},
 * {@code checkInnerBatch} and {@code handleScheduleMessage} (so {@code transformDelayLevelMessage} and the timer
 * transform make the delay, timer, retry and pop check point Strings); {@code TransactionalMessageBridge}'s
 * {@code parseHalfMessageInner}, {@code renewHalfMessageInner}, {@code renewImmunityHalfMessageInner},
 * {@code makeOpMessageInner}; {@code EndTransactionProcessor#endMessageTransaction};
 * {@code AbstractSendMessageProcessor#consumerSendMsgBack} (the consumer's request; retry and DLQ; it puts);
 * {@code TransactionalMessageUtil.buildTransactionalMessageFromHalfMessage}; {@code PopMessageProcessor#buildCkMsg};
 * {@code ScheduleMessageService#messageTimeUp}; {@code TimerMessageStore#convertMessage}; the store itself (CommitLog,
 * {@code MessageExtEncoder}, the LMQ append branch, dispatch).
 *
 * <p><b>Restated</b> (the caller's lines in 5.3.3's order, on the distribution's classes): the client's send request
 * ({@code DefaultMQProducerImpl}: UNIQ_KEY, MSG_REGION, TRACE_ON, then {@code messageProperties2String}), the broker's
 * {@code SendMessageProcessor#sendMessage} (parse, UNIQ_KEY, CLUSTER, String; half through the bridge) and
 * {@code #sendBatchMessage}, {@code ReplyMessageProcessor} (stores the request's String verbatim),
 * {@code EndTransactionProcessor#processRequest}'s lines around {@code endMessageTransaction}, the op
 * message {@code TransactionalMessageServiceImpl} writes (TAGS=d, WAIT=true from the {@code Message} constructor),
 * and the junk blocks, which no site makes: a String set as is, its map parsed from it.
 *
 * <p>Labels: {@code send/0..2} (normal), {@code send-delay} (level 3, to SCHEDULE_TOPIC_XXXX), {@code send-timer}
 * (to rmq_sys_wheel_timer), {@code reply}, {@code lmq/0..1} (INNER_MULTI_DISPATCH; the LMQ branch in an LMQ store),
 * {@code delay-reput} (the schedule service's re-put of send-delay when due), {@code timer-roll} (the timer's roll of
 * send-timer), {@code junk/0..6}, {@code batch/0..3}, {@code half}, {@code commit}, {@code tx-renew}, {@code tx-immunity},
 * {@code tx-from-half}, {@code op}, {@code sendback-retry} (delay level 3, to SCHEDULE_TOPIC_XXXX),
 * {@code sendback-dlq}, {@code pop-ck} (the check point, to rmq_sys_wheel_timer).
 */
public final class Store533Probe implements Store533Paths {

    static final String TOPIC = "hotpath_cmp";
    static final String TX_GROUP = "hotpath_tx_group";
    static final String UNIQ = "7F0000010B5718B4AAC2170C8D5000";
    /** Junk blocks: no site makes them, the encoder must still store them as the rule says. */
    static final List<String> JUNK = List.of("", "WAIT\1true", "WAIT\1true\2WAIT\1false\2",
        "a\1b\2\2WAIT\1\2c\1\u00e9\2", "WAITING\1x\2TAGS\1J\2WAIT\1true\2\u4e16\1\ud83d\ude00",
        "\2\2\2", "KEYS\1junk6\2WAIT\1true\2\2");

    private Store533Run run;
    private Probe533Store probe;
    private Broker533Sites sites;
    private final Map<String, byte[]> records = new LinkedHashMap<>();

    @Override
    public String encoderLocation() {
        CodeSource source = MessageExtEncoder.class.getProtectionDomain().getCodeSource();
        return source.getLocation().getPath();
    }

    @Override
    public LinkedHashMap<String, String> decodeProperties(byte[] record) {
        return ReadBack533.decodedProperties(record);
    }

    @Override
    public Map<String, Stored533> runAllPaths(String root, Store533Run run) throws Exception {
        this.run = run;
        records.clear();
        try (Probe533Store started = Probe533Store.start(root, run.appendPropCrc(), run.lmq())) {
            probe = started;
            sites = new Broker533Sites(started.controller);
            normalDelayTimerReplyLmq();
            rePuts();
            junk();
            batch();
            transaction();
            sendBack();
            popCheckPoint();
            started.awaitDispatched();
            Map<String, Stored533> out = new LinkedHashMap<>();
            records.forEach((label, bytes) -> out.put(label, ReadBack533.of(started.store, bytes)));
            return out;
        }
    }

    private void normalDelayTimerReplyLmq() throws Exception {
        Message m0 = client("TagA", "OrderID188", "00");
        put("send/0", send(m0));
        Message m1 = client("TagB", "", "01");
        m1.setWaitStoreMsgOK(false);
        m1.putUserProperty("hotpath.note", "h\u00e9llo \u4e16\u754c \ud83d\ude00");
        put("send/1", send(m1));
        Message m2 = client("TagC", "k1 k2", "02");
        m2.putUserProperty("a", "b");
        put("send/2", send(m2));
        Message delayed = client("TagD", "delayed", "03");
        delayed.setDelayTimeLevel(3);
        put("send-delay", send(delayed));
        Message timer = client("TagE", "timer", "04");
        timer.setDeliverTimeMs(run.timerDeliverMs());
        put("send-timer", send(timer));

        // ReplyMessageProcessor#processReplyMessageRequest: the request's String stored verbatim, its parsed map
        Message reply = new Message(Probe533Store.CLUSTER + "_" + MixAll.REPLY_TOPIC_POSTFIX, "reply body".getBytes(StandardCharsets.UTF_8));
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_CLUSTER, Probe533Store.CLUSTER);
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT, "127.0.0.1@hotpath");
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_CORRELATION_ID, "corr-1");
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_TYPE, MixAll.REPLY_MESSAGE_FLAG);
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_TTL, "3000");
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, UNIQ + "05");
        String replyRequest = MessageDecoder.messageProperties2String(reply.getProperties());
        MessageExtBrokerInner replyInner = inner(reply.getTopic(), reply.getBody());
        MessageAccessor.setProperties(replyInner, MessageDecoder.string2messageProperties(replyRequest));
        replyInner.setPropertiesString(replyRequest);
        put("reply", probe.store.putMessage(replyInner));

        for (int i = 0; i < 2; i++) {
            Message lmq = client("TagL", "lmq" + i, "L" + i);
            MessageAccessor.putProperty(lmq, MessageConst.PROPERTY_INNER_MULTI_DISPATCH,
                MixAll.LMQ_PREFIX + "hotpath1" + MixAll.LMQ_DISPATCH_SEPARATOR + MixAll.LMQ_PREFIX + "hotpath2");
            put("lmq/" + i, send(lmq));
        }
    }

    /**
     * Re-puts of stored messages by the services that deliver them. {@code delay-reput}: the stored send-delay, read back
     * as {@code ScheduleMessageService}'s delivery task reads it, through the service's own (private) {@code messageTimeUp},
     * then put as the task's delivery does. {@code timer-roll}: the stored send-timer through {@code TimerMessageStore#convert}
     * with {@code needRoll} (what the timer does with a message due beyond its wheel): convert's three puts restated with
     * fixed times (it stamps the dequeue time with the clock), then the real {@code convertMessage}, then the put of
     * {@code doPut}. The timer's due re-put to the real topic is not here: its TIMER_DELIVER_MS would have to be past at the
     * re-put and future at the send, and the put hook re-schedules a message that is not due yet.
     */
    private void rePuts() throws Exception {
        MessageExt delayed = probe.store.lookMessageByOffset(offset("send-delay"));
        Method messageTimeUp = ScheduleMessageService.class.getDeclaredMethod("messageTimeUp", MessageExt.class);
        messageTimeUp.setAccessible(true);
        MessageExtBrokerInner due = (MessageExtBrokerInner) messageTimeUp.invoke(probe.controller.getScheduleMessageService(), delayed);
        put("delay-reput", probe.store.putMessage(due));

        MessageExt timer = probe.store.lookMessageByOffset(offset("send-timer"));
        MessageAccessor.putProperty(timer, TimerMessageStore.TIMER_ENQUEUE_MS, String.valueOf(run.timerDeliverMs() - 1000));
        MessageAccessor.putProperty(timer, TimerMessageStore.TIMER_ROLL_TIMES, "1");
        MessageAccessor.putProperty(timer, TimerMessageStore.TIMER_DEQUEUE_MS, String.valueOf(run.timerDeliverMs() - 500));
        put("timer-roll", probe.store.putMessage(probe.controller.getTimerMessageStore().convertMessage(timer, true)));
    }

    /** The physical offset a recorded put wrote at: the record's PHYSICALOFFSET field, at byte 28 of every layout. */
    private long offset(String label) {
        return ByteBuffer.wrap(records.get(label)).getLong(28);
    }

    private void junk() throws Exception {
        for (int i = 0; i < JUNK.size(); i++) {
            MessageExtBrokerInner msg = inner("hotpath_junk", ("junk " + i).getBytes(StandardCharsets.UTF_8));
            MessageAccessor.setProperties(msg, MessageDecoder.string2messageProperties(JUNK.get(i)));
            msg.setPropertiesString(JUNK.get(i));
            put("junk/" + i, probe.store.putMessage(msg));
        }
    }

    /**
     * A 5.3.3 client's batch ({@code DefaultMQProducer#batch}: {@code generateFromList}, a UNIQ_KEY per message and one
     * for the batch, {@code encode}; the send adds MSG_REGION and TRACE_ON), then {@code SendMessageProcessor#sendBatchMessage}.
     */
    private void batch() throws Exception {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Message m = new Message(TOPIC, "TagB" + i, i == 2 ? "" : "b" + i, ("batch body " + i).getBytes(StandardCharsets.UTF_8));
            MessageAccessor.putProperty(m, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, UNIQ + "B" + i);
            if (i % 2 == 1) {
                m.putUserProperty("hotpath.note", "h\u00e9llo \u4e16\u754c \ud83d\ude00");
            }
            messages.add(m);
        }
        MessageBatch batch = MessageBatch.generateFromList(messages);
        MessageAccessor.putProperty(batch, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, UNIQ + "BB");
        batch.setBody(batch.encode());
        MessageAccessor.putProperty(batch, MessageConst.PROPERTY_MSG_REGION, "DefaultRegion");
        MessageAccessor.putProperty(batch, MessageConst.PROPERTY_TRACE_SWITCH, "true");
        String request = MessageDecoder.messageProperties2String(batch.getProperties());

        MessageExtBatch ext = new MessageExtBatch();
        ext.setTopic(TOPIC);
        ext.setQueueId(0);
        ext.setSysFlag(0);
        ext.setFlag(batch.getFlag());
        MessageAccessor.setProperties(ext, MessageDecoder.string2messageProperties(request));
        ext.setBody(batch.getBody());
        ext.setBornTimestamp(run.bornTimestamp());
        ext.setBornHost(Probe533Store.BORN_HOST);
        ext.setStoreHost(Probe533Store.STORE_HOST);
        ext.setReconsumeTimes(0);
        MessageAccessor.putProperty(ext, MessageConst.PROPERTY_CLUSTER, Probe533Store.CLUSTER);
        PutMessageResult result = probe.store.putMessages(ext);
        if (result == null || !result.isOk()) {
            throw new IllegalStateException("batch: put failed: " + result);
        }
        AppendMessageResult append = result.getAppendMessageResult();
        long offset = append.getWroteOffset();
        for (int i = 0; i < append.getMsgNum(); i++) {
            byte[] record = probe.read(offset);
            records.put("batch/" + i, record);
            offset += record.length;
        }
        if (append.getMsgNum() != messages.size() || offset != append.getWroteOffset() + append.getWroteBytes()) {
            throw new IllegalStateException("batch: " + append);
        }
    }

    private void transaction() throws Exception {
        Message tx = client("TagT", "tx", "T0");
        MessageAccessor.putProperty(tx, MessageConst.PROPERTY_TRANSACTION_PREPARED, "true");
        MessageAccessor.putProperty(tx, MessageConst.PROPERTY_PRODUCER_GROUP, TX_GROUP);
        // SendMessageProcessor: TRAN_MSG -> TransactionalMessageServiceImpl#asyncPrepareMessage -> the bridge
        MessageExtBrokerInner halfInner = sendSite(tx, MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        long halfOffset = put("half", probe.store.putMessage(sites.parseHalfMessageInner(halfInner)));
        MessageExt half = probe.store.lookMessageByOffset(halfOffset);

        // EndTransactionProcessor#processRequest, commit
        MessageExtBrokerInner commit = sites.endMessageTransaction(half);
        commit.setSysFlag(MessageSysFlag.resetTransactionValue(commit.getSysFlag(), MessageSysFlag.TRANSACTION_COMMIT_TYPE));
        commit.setQueueOffset(half.getQueueOffset());
        commit.setPreparedTransactionOffset(halfOffset);
        commit.setStoreTimestamp(half.getStoreTimestamp());
        MessageAccessor.clearProperty(commit, MessageConst.PROPERTY_TRANSACTION_PREPARED);
        put("commit", probe.store.putMessage(commit));

        put("tx-renew", probe.store.putMessage(sites.renewHalfMessageInner(probe.store.lookMessageByOffset(halfOffset))));
        put("tx-immunity", probe.store.putMessage(sites.renewImmunityHalfMessageInner(probe.store.lookMessageByOffset(halfOffset))));
        // EscapeBridge#putMessageToRemoteBroker's message for a half: put here as built, with this broker as store host
        MessageExtBrokerInner fromHalf = sites.buildTransactionalMessageFromHalfMessage(probe.store.lookMessageByOffset(halfOffset));
        fromHalf.setStoreHost(Probe533Store.STORE_HOST);
        put("tx-from-half", probe.store.putMessage(fromHalf));

        // TransactionalMessageServiceImpl#deletePrepareMessage -> the op batch -> TransactionalMessageBridge#writeOp
        Message op = new Message(TransactionalMessageUtil.buildOpTopic(), TransactionalMessageUtil.REMOVE_TAG,
            (half.getQueueOffset() + TransactionalMessageUtil.OFFSET_SEPARATOR).getBytes(TransactionalMessageUtil.CHARSET));
        MessageQueue opQueue = new MessageQueue(TransactionalMessageUtil.buildOpTopic(), Probe533Store.BROKER_NAME, half.getQueueId());
        put("op", probe.store.putMessage(sites.makeOpMessageInner(op, opQueue)));
    }

    /**
     * {@code AbstractSendMessageProcessor#consumerSendMsgBack} of the stored send/0, real: retry (level 3) and DLQ. It
     * puts the record itself, synchronously, and nothing else puts meanwhile (the schedule and timer services are not
     * started): the record starts where the CommitLog ended.
     */
    private void sendBack() throws Exception {
        long sent = offset("send/0");
        for (boolean dlq : new boolean[] {false, true}) {
            String label = dlq ? "sendback-dlq" : "sendback-retry";
            long at = probe.store.getMaxPhyOffset();
            sites.consumerSendMsgBack(sent, dlq ? -1 : 0);
            byte[] record = probe.read(at);
            if (ByteBuffer.wrap(record).getLong(28) != at) { // PHYSICALOFFSET
                throw new IllegalStateException(label + ": no record at " + at);
            }
            records.put(label, record);
        }
    }

    /** {@code PopMessageProcessor#buildCkMsg}, then the put (its TIMER_DELIVER_MS sends it through the timer transform). */
    private void popCheckPoint() throws Exception {
        PopCheckPoint ck = new PopCheckPoint();
        ck.setBitMap(0);
        ck.setNum((byte) 1);
        ck.setPopTime(run.timerDeliverMs() - 59_000);
        ck.setInvisibleTime(60_000);
        ck.setStartOffset(0);
        ck.setCId(ReadBack533.GROUP);
        ck.setTopic(TOPIC);
        ck.setQueueId(0);
        ck.setBrokerName(Probe533Store.BROKER_NAME);
        put("pop-ck", probe.store.putMessage(sites.buildCkMsg(ck, 0)));
    }

    /** What a 5.3.3 producer sends: the Message constructor's TAGS, KEYS, WAIT=true, then UNIQ_KEY, MSG_REGION, TRACE_ON. */
    private static Message client(String tags, String keys, String uniqSuffix) {
        Message m = new Message(TOPIC, tags, keys, ("body " + uniqSuffix).getBytes(StandardCharsets.UTF_8));
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, UNIQ + uniqSuffix);
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_MSG_REGION, "DefaultRegion");
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_TRACE_SWITCH, "true");
        return m;
    }

    private PutMessageResult send(Message m) throws Exception {
        return probe.store.putMessage(sendSite(m, 0));
    }

    /**
     * The request's String ({@code messageProperties2String} of the client's map), then
     * {@code SendMessageProcessor#sendMessage}'s lines up to the put: parse, UNIQ_KEY, CLUSTER, {@code messageProperties2String}.
     */
    private MessageExtBrokerInner sendSite(Message m, int sysFlag) {
        String requestProperties = MessageDecoder.messageProperties2String(m.getProperties());
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(m.getTopic());
        msgInner.setQueueId(0);
        Map<String, String> oriProps = MessageDecoder.string2messageProperties(requestProperties);
        msgInner.setBody(m.getBody());
        msgInner.setFlag(m.getFlag());
        String uniqKey = oriProps.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        if (uniqKey == null || uniqKey.isEmpty()) {
            throw new IllegalStateException("a generated UNIQ_KEY would differ between the stores");
        }
        MessageAccessor.setProperties(msgInner, oriProps);
        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(TopicFilterType.SINGLE_TAG, msgInner.getTags()));
        msgInner.setSysFlag(sysFlag);
        msgInner.setBornTimestamp(run.bornTimestamp());
        msgInner.setBornHost(Probe533Store.BORN_HOST);
        msgInner.setStoreHost(Probe533Store.STORE_HOST);
        msgInner.setReconsumeTimes(0);
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_CLUSTER, Probe533Store.CLUSTER);
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        return msgInner;
    }

    private MessageExtBrokerInner inner(String topic, byte[] body) {
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic(topic);
        msg.setQueueId(0);
        msg.setBody(body);
        msg.setBornTimestamp(run.bornTimestamp());
        msg.setBornHost(Probe533Store.BORN_HOST);
        msg.setStoreHost(Probe533Store.STORE_HOST);
        return msg;
    }

    /** Records the put's record under {@code label}; returns its physical offset. */
    private long put(String label, PutMessageResult result) {
        byte[] record = probe.written(label, result);
        records.put(label, record);
        return result.getAppendMessageResult().getWroteOffset();
    }
}
