package io.hotpath.dist.store.probe;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.protocol.topic.OffsetMovedEvent;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * The broker-side sites, run for real in every release's loader ({@link LoadedBrokerSites}: a built distribution's
 * lib/, the stock 4.9.0 jar, or upstream's 4.9.8 broker classes compiled from Central's source release). Sites whose
 * name says they put do the put themselves, as the broker's own method does.
 */
interface BrokerSites {

    static BrokerSites of(DefaultMessageStore store) throws Exception {
        return new LoadedBrokerSites(store);
    }

    /** {@code TransactionalMessageBridge#parseHalfMessageInner}. */
    MessageExtBrokerInner parseHalfMessageInner(MessageExtBrokerInner msgInner) throws Exception;

    /** {@code EndTransactionProcessor#endMessageTransaction}. */
    MessageExtBrokerInner endMessageTransaction(MessageExt msgExt) throws Exception;

    /** {@code TransactionalMessageBridge#renewHalfMessageInner}. */
    MessageExtBrokerInner renewHalfMessageInner(MessageExt msgExt);

    /** {@code TransactionalMessageBridge#renewImmunityHalfMessageInner}. */
    MessageExtBrokerInner renewImmunityHalfMessageInner(MessageExt msgExt);

    /** {@code DefaultTransactionalMessageCheckListener#resolveDiscardMsg}: to TRANS_CHECK_MAX_TIME_TOPIC, and put. */
    void resolveDiscardMsg(MessageExt msgExt);

    /** {@code AdminBrokerProcessor#resumeCheckHalfMessage} of the record at {@code offset}: back to the half topic, and put. */
    void resumeCheckHalfMessage(long offset) throws Exception;

    /** {@code TransactionalMessageBridge#putOpMessage(half, "d")}: the op record, and put. */
    void putOpMessage(MessageExt half);

    /**
     * {@code SendMessageProcessor#asyncConsumerSendMsgBack} of the record at {@code offset}, as the consumer sends it
     * ({@code delayLevel} 0 = retry at level 3 + reconsumeTimes, -1 = DLQ): builds the record, and puts it.
     */
    void consumerSendMsgBack(long offset, int delayLevel) throws Exception;

    /** {@code PullMessageProcessor#generateOffsetMovedEvent}: builds the record, and puts it. */
    void generateOffsetMovedEvent(OffsetMovedEvent event) throws Exception;

    /** {@code SendMessageProcessor#handlePutMessageResult}: the response code the broker answers a send with. */
    int responseCode(PutMessageResult result, MessageExt msg) throws Exception;
}
