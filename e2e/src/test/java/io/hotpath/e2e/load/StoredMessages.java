package io.hotpath.e2e.load;

import java.util.Map;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/** Test fixture: what a pull returns for a sent message, via the real 4.9.0 properties codec. */
public final class StoredMessages {

    private StoredMessages() {
    }

    public static String uniqKey(int seq) {
        return String.format("7F00000100002A9F0000000000%06X", seq);
    }

    /** {@code sent} as a 4.9.0 broker stores it (UNIQ_KEY from the client, CLUSTER from the broker) and a pull returns it. */
    public static MessageExt stored(Message sent, MessageQueue queue, long offset, String uniqKey) {
        Map<String, String> properties = MessageDecoder.string2messageProperties(MessageDecoder.messageProperties2String(sent.getProperties()));
        properties.put(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniqKey);
        properties.put(MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        properties.put(MessageConst.PROPERTY_MIN_OFFSET, "0");
        properties.put(MessageConst.PROPERTY_MAX_OFFSET, Long.toString(offset + 1));
        MessageExt stored = new MessageExt();
        stored.setTopic(sent.getTopic());
        stored.setBody(sent.getBody().clone());
        stored.setQueueId(queue.getQueueId());
        stored.setQueueOffset(offset);
        MessageAccessor.setProperties(stored, properties);
        return stored;
    }
}
