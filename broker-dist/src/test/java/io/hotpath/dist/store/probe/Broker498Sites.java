package io.hotpath.dist.store.probe;

import java.nio.charset.StandardCharsets;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.protocol.topic.OffsetMovedEvent;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;

/**
 * 4.9.8's broker sites, restated, for Central's rocketmq-store 4.9.8 ({@code Release.UPSTREAM_498}). Read at tag
 * {@code rocketmq-all-4.9.8} of apache/rocketmq: each body is 4.9.0's, but for the check listener's queue id
 * (ThreadLocalRandom instead of Random; 0 either way with its one queue) and {@code handlePutMessageResult}'s statuses.
 * They run on 4.9.8's own {@code MessageExtBrokerInner}, {@code MessageDecoder} and store.
 *
 * <p>Why a restatement and not the real classes: the real 4.9.8 broker classes exist only in the stock 4.9.8 tree that a
 * 4.9.8-line build makes (rocketmq-broker 4.9.8 is on no Maven repository: {@code mvn dependency:get
 * -Dartifact=org.apache.rocketmq:rocketmq-broker:4.9.8:pom} finds nothing on Central), and a 4.9.0-line build builds
 * only the 4.9.0 trees. So this class is the 4.9.8 reference of the 4.9.0 line only
 * ({@code Upstream498StoreComparisonTest}, {@code Upstream498PropertiesLimitTest}). On the 4.9.8 line the reference is
 * the stock 4.9.8 distribution with {@link LoadedBrokerSites} (the real classes by reflection), and
 * {@code Upstream498StoreComparisonTest#stock498DistributionStoresWhatCentral498Stores} checks every record this class
 * makes against them, byte for byte. That check is what stands between this restatement and the 4.9.0 line: a change
 * made here and in our 4.9.0 code alike passes the 4.9.0 line's comparison and fails only the 4.9.8 line's. Its
 * {@link #responseCode} is checked against nothing real (the limit test runs on the 4.9.0 line only).
 */
final class Broker498Sites implements BrokerSites {
    private final DefaultMessageStore store;

    Broker498Sites(DefaultMessageStore store) {
        this.store = store;
    }

    @Override
    public MessageExtBrokerInner parseHalfMessageInner(MessageExtBrokerInner msgInner) {
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_REAL_TOPIC, msgInner.getTopic());
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_REAL_QUEUE_ID, String.valueOf(msgInner.getQueueId()));
        msgInner.setSysFlag(MessageSysFlag.resetTransactionValue(msgInner.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
        msgInner.setTopic(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC); // TransactionalMessageUtil.buildHalfTopic()
        msgInner.setQueueId(0);
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        return msgInner;
    }

    @Override
    public MessageExtBrokerInner endMessageTransaction(MessageExt msgExt) {
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

    /** String from the decoded map, THEN WAIT=false into it. */
    @Override
    public MessageExtBrokerInner renewHalfMessageInner(MessageExt msgExt) {
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

    /** Renew, put TRAN_PREPARED_QUEUE_OFFSET, re-serialize (so WAIT=false is stored). */
    @Override
    public MessageExtBrokerInner renewImmunityHalfMessageInner(MessageExt msgExt) {
        MessageExtBrokerInner msgInner = renewHalfMessageInner(msgExt);
        String queueOffsetFromPrepare = msgExt.getUserProperty(MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET);
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET,
            null != queueOffsetFromPrepare ? queueOffsetFromPrepare : String.valueOf(msgExt.getQueueOffset()));
        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));
        return msgInner;
    }

    /** The listener's private toMessageExtBrokerInner (TRANS_CHECK_MAX_TIME_TOPIC, which exists with 1 queue) and the put. */
    @Override
    public void resolveDiscardMsg(MessageExt msgExt) {
        ProbeStore.requireOk("check-discard",
            store.putMessage(toMessageExtBrokerInner(TopicValidator.RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC, msgExt)));
    }

    /** Select, decode, CHECK_TIMES=0, its private {@code toMessageExtBrokerInner} (the half topic), put. */
    @Override
    public void resumeCheckHalfMessage(long offset) {
        SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
        MessageExt msgExt;
        try {
            msgExt = MessageDecoder.decode(selected.getByteBuffer());
        } finally {
            selected.release();
        }
        msgExt.putUserProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, String.valueOf(0));
        // TransactionalMessageUtil.buildHalfTopic()
        MessageExtBrokerInner inner = toMessageExtBrokerInner(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, msgExt);
        ProbeStore.requireOk("resume", store.putMessage(inner));
    }

    /**
     * {@code addRemoveTagInTransactionOp} (a {@code Message} to the op topic, tag {@code d}, body = the half's queue
     * offset; its constructor puts WAIT=true), {@code writeOp} (op queue = the half's queue id), {@code makeOpMessageInner}
     * (String, then WAIT=false and UNIQ_KEY), put.
     */
    @Override
    public void putOpMessage(MessageExt half) {
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
        msgInner.setBornHost(StoreSiteProbe.STORE_HOST); // the bridge's storeHost: brokerIP1 + listen port
        msgInner.setStoreHost(StoreSiteProbe.STORE_HOST);
        msgInner.setWaitStoreMsgOK(false);
        MessageClientIDSetter.setUniqID(msgInner);
        ProbeStore.requireOk("op", store.putMessage(msgInner));
    }

    /** Born host = store host = the broker address. */
    @Override
    public void generateOffsetMovedEvent(OffsetMovedEvent event) {
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
        msgInner.setBornHost(StoreSiteProbe.STORE_HOST); // RemotingUtil.string2SocketAddress(brokerController.getBrokerAddr())
        msgInner.setStoreHost(msgInner.getBornHost());
        msgInner.setReconsumeTimes(0);
        ProbeStore.requireOk("offset-moved", store.putMessage(msgInner));
    }

    /**
     * The switch for the statuses a put can return here: {@code MESSAGE_ILLEGAL} and {@code PROPERTIES_SIZE_EXCEEDED}
     * both answer {@code ResponseCode.MESSAGE_ILLEGAL} (13), {@code PUT_OK} answers {@code SUCCESS} (0).
     */
    @Override
    public int responseCode(PutMessageResult result, MessageExt msg) {
        String status = result.getPutMessageStatus().name();
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
     * {@code DefaultTransactionalMessageCheckListener#toMessageExtBrokerInner} and
     * {@code AdminBrokerProcessor#toMessageExtBrokerInner}: two private methods with this same body but for the topic.
     */
    private static MessageExtBrokerInner toMessageExtBrokerInner(String topic, MessageExt msgExt) {
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
}
