package io.hotpath.dist.store.probe;

import io.hotpath.dist.store.shared.Release;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.protocol.topic.OffsetMovedEvent;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * The broker-side sites that run for real where a broker is loaded ({@link LoadedBrokerSites}: a built distribution's
 * lib/, or the stock 4.9.0 jar) and are restated for Central's 4.9.8 store ({@link Broker498Sites}: rocketmq-broker 4.9.8
 * is not on Maven Central). Sites whose name says they put do the put
 * themselves, as the broker's own method does.
 */
interface BrokerSites {

    /**
     * Only this method names {@link LoadedBrokerSites}: the verifier never needs to load a class that is only assigned to
     * an interface, so under Central's 4.9.8 store loader (which has no broker classes) it is never loaded.
     */
    static BrokerSites of(Release release, DefaultMessageStore store) throws Exception {
        if (release == Release.UPSTREAM_498) {
            return new Broker498Sites(store);
        }
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

    /** {@code PullMessageProcessor#generateOffsetMovedEvent}: builds the record, and puts it. */
    void generateOffsetMovedEvent(OffsetMovedEvent event) throws Exception;

    /** {@code SendMessageProcessor#handlePutMessageResult}: the response code the broker answers a send with. */
    int responseCode(PutMessageResult result, MessageExt msg) throws Exception;
}
