package io.hotpath.dist.store.probe;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.shared.Release;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.MessageExtBrokerInner;

/**
 * The processors' sites up to the put, restated for every release because the real ones need a live
 * {@code BrokerController} and channel: {@code SendMessageProcessor#asyncSendMessage} (normal send),
 * {@code #asyncSendBatchMessage}, and {@code EndTransactionProcessor#processRequest}'s calls around
 * {@code endMessageTransaction} (consumer send-back runs for real: {@link BrokerSites#consumerSendMsgBack}). Where the releases differ, each gets its own line (see {@link #normalSend}).
 */
final class ProcessorSites {
    private final Release release;

    ProcessorSites(Release release) {
        this.release = release;
    }

    /**
     * {@code SendMessageProcessor#asyncSendMessage} up to the put: parse the client's properties String with this
     * release's {@code string2messageProperties}, CLUSTER, then the release's site line: 4.9.8 removes WAIT,
     * serializes, puts WAIT back; a patched line makes the trimmed block; stock 4.9.0 serializes the map.
     */
    MessageExtBrokerInner normalSend(String topic, String clientProperties, int sysFlag, String body) throws Exception {
        MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
        msgInner.setTopic(topic);
        msgInner.setQueueId(0);
        msgInner.setSysFlag(sysFlag); // handleRetryAndDLQ: the header's sysFlag (SINGLE_TAG topic)
        msgInner.setBody(body.getBytes(StandardCharsets.UTF_8));
        msgInner.setFlag(0);
        Map<String, String> origProps = MessageDecoder.string2messageProperties(clientProperties);
        MessageAccessor.setProperties(msgInner, origProps);
        msgInner.setBornTimestamp(StoreSiteProbe.BORN_TIMESTAMP);
        msgInner.setBornHost(StoreSiteProbe.BORN_HOST);
        msgInner.setStoreHost(StoreSiteProbe.STORE_HOST);
        msgInner.setReconsumeTimes(0);
        MessageAccessor.putProperty(msgInner, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        if (release.patched()) {
            // patched 4.9.x: msgInner.setPropertiesBytes(PersistedProperties.messageProperties2Bytes(msgInner.getProperties()))
            persist(msgInner, msgInner.getProperties());
        } else if (release.stock498() && origProps.containsKey(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)) {
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

    /** {@code SendMessageProcessor#asyncSendBatchMessage} up to the put (the batch encoder is the store's, real). */
    MessageExtBatch batchSend(String topic, List<String> innerBlocks, String outerProperties) {
        MessageExtBatch batch = new MessageExtBatch();
        batch.setTopic(topic);
        batch.setQueueId(0);
        batch.setSysFlag(0);
        batch.setFlag(0);
        MessageAccessor.setProperties(batch, MessageDecoder.string2messageProperties(outerProperties));
        batch.setBody(ClientBatchBody.encode(innerBlocks));
        batch.setBornTimestamp(StoreSiteProbe.BORN_TIMESTAMP);
        batch.setBornHost(StoreSiteProbe.BORN_HOST);
        batch.setStoreHost(StoreSiteProbe.STORE_HOST);
        batch.setReconsumeTimes(0);
        MessageAccessor.putProperty(batch, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        return batch;
    }

    /** {@code EndTransactionProcessor#processRequest} around {@code endMessageTransaction} (4.9.0 == 4.9.8). */
    static void commit(MessageExtBrokerInner commit, MessageExt half, long halfOffset) {
        commit.setSysFlag(MessageSysFlag.resetTransactionValue(commit.getSysFlag(), MessageSysFlag.TRANSACTION_COMMIT_TYPE));
        commit.setQueueOffset(half.getQueueOffset());
        commit.setPreparedTransactionOffset(halfOffset);
        commit.setStoreTimestamp(half.getStoreTimestamp());
        MessageAccessor.clearProperty(commit, MessageConst.PROPERTY_TRANSACTION_PREPARED);
    }

    /** The line every broker-side site ends with: 4.9.x's String, or a patched line's trimmed block. */
    private void persist(MessageExtBrokerInner msgInner, Map<String, String> map) throws Exception {
        if (!release.patched()) {
            msgInner.setPropertiesString(MessageDecoder.messageProperties2String(map));
            return;
        }
        // the stock API this class compiles against has neither: they are patch 0003's, in the patched loader only
        Method toBytes = Class.forName("io.hotpath.store.PersistedProperties", true, ProcessorSites.class.getClassLoader())
            .getMethod("messageProperties2Bytes", Map.class);
        MessageExtBrokerInner.class.getMethod("setPropertiesBytes", byte[].class).invoke(msgInner, toBytes.invoke(null, map));
    }
}
