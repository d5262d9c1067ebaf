package io.hotpath.dist.store.probe533;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.shared.Dispatched;
import io.hotpath.dist.store.shared.Stored533;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.queue.ConsumeQueueInterface;
import org.apache.rocketmq.store.queue.CqUnit;

/**
 * How this 5.3.3 loader reads a stored record back: its {@code MessageDecoder}'s properties, and what the store's
 * dispatch built from it, through the store's public API only.
 */
final class ReadBack533 {

    /** A pulled or queried message buffer: the record's PHYSICALOFFSET field. */
    private static final int PHYSICALOFFSET = 28;
    static final String GROUP = "hotpath_cmp_group";

    private ReadBack533() {
    }

    /** Call once the store has dispatched everything. */
    static Stored533 of(DefaultMessageStore store, byte[] record) {
        return new Stored533(record, decodedProperties(record), dispatched(store, record), lmq(store, record));
    }

    static LinkedHashMap<String, String> decodedProperties(byte[] record) {
        Map<String, String> properties = MessageDecoder.decode(ByteBuffer.wrap(record), true, false).getProperties();
        return properties == null ? null : new LinkedHashMap<>(properties);
    }

    /**
     * The ConsumeQueue entry at the record's queue offset ({@code getConsumeQueue(..).get}: position, size, tags code,
     * or on SCHEDULE_TOPIC_XXXX the delivery time), a consumer pull at that queue offset ({@code getMessage}), and the
     * index ({@code queryMessage}) by each KEYS key and by UNIQ_KEY.
     */
    static Dispatched dispatched(DefaultMessageStore store, byte[] record) {
        MessageExt msg = MessageDecoder.decode(ByteBuffer.wrap(record), true, false);
        String topic = msg.getTopic();
        Boolean entryIsThisRecord = null;
        Long tagsCode = null;
        Long deliveryTimeMinusStoreTime = null;
        ConsumeQueueInterface queue = store.getConsumeQueue(topic, msg.getQueueId());
        CqUnit entry = queue == null ? null : queue.get(msg.getQueueOffset());
        if (entry != null) {
            entryIsThisRecord = entry.getPos() == msg.getCommitLogOffset() && entry.getSize() == record.length;
            if (TopicValidator.RMQ_SYS_SCHEDULE_TOPIC.equals(topic)) {
                // the store timestamp differs between the two stores; what the record decides is the delay
                deliveryTimeMinusStoreTime = entry.getTagsCode() - msg.getStoreTimestamp();
            } else {
                tagsCode = entry.getTagsCode();
            }
        }
        GetMessageResult pulled = store.getMessage(GROUP, topic, msg.getQueueId(), msg.getQueueOffset(), 1, null);
        String pullStatus = null;
        int pulledMessages = 0;
        boolean pulledThisRecord = false;
        if (pulled != null) {
            try {
                pullStatus = pulled.getStatus().name();
                pulledMessages = pulled.getMessageBufferList().size();
                pulledThisRecord = isOnly(pulled.getMessageBufferList(), msg.getCommitLogOffset());
            } finally {
                pulled.release();
            }
        }
        Map<String, Boolean> foundByIndex = new LinkedHashMap<>();
        if (msg.getKeys() != null) {
            for (String key : msg.getKeys().split(MessageConst.KEY_SEPARATOR)) {
                if (!key.isEmpty()) {
                    foundByIndex.put("KEYS " + key, indexed(store, topic, key, msg.getCommitLogOffset()));
                }
            }
        }
        String uniqKey = msg.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        if (uniqKey != null) {
            foundByIndex.put("UNIQ_KEY " + uniqKey, indexed(store, topic, uniqKey, msg.getCommitLogOffset()));
        }
        return new Dispatched(entryIsThisRecord, tagsCode, deliveryTimeMinusStoreTime, pullStatus, pulledMessages,
            pulledThisRecord, foundByIndex);
    }

    /** Each LMQ queue of an LMQ store's multi-dispatched record: a pull at its queue offset returns this record. */
    private static Map<String, Boolean> lmq(DefaultMessageStore store, byte[] record) {
        Map<String, Boolean> found = new LinkedHashMap<>();
        MessageExt msg = MessageDecoder.decode(ByteBuffer.wrap(record), true, false);
        String queues = msg.getProperty(MessageConst.PROPERTY_INNER_MULTI_DISPATCH);
        String offsets = msg.getProperty(MessageConst.PROPERTY_INNER_MULTI_QUEUE_OFFSET);
        if (!store.getMessageStoreConfig().isEnableLmq() || queues == null || offsets == null) {
            return found;
        }
        String[] names = queues.split(MixAll.LMQ_DISPATCH_SEPARATOR);
        String[] at = offsets.split(MixAll.LMQ_DISPATCH_SEPARATOR);
        for (int i = 0; i < names.length; i++) {
            GetMessageResult pulled = store.getMessage(GROUP, names[i], MixAll.LMQ_QUEUE_ID, Long.parseLong(at[i]), 1, null);
            try {
                found.put(names[i] + " @" + at[i], pulled != null && isOnly(pulled.getMessageBufferList(), msg.getCommitLogOffset()));
            } finally {
                if (pulled != null) {
                    pulled.release();
                }
            }
        }
        return found;
    }

    private static boolean isOnly(List<ByteBuffer> buffers, long physicalOffset) {
        return buffers.size() == 1 && buffers.get(0).getLong(buffers.get(0).position() + PHYSICALOFFSET) == physicalOffset;
    }

    private static boolean indexed(DefaultMessageStore store, String topic, String key, long physicalOffset) {
        QueryMessageResult found = store.queryMessage(topic, key, 64, 0, Long.MAX_VALUE);
        try {
            for (ByteBuffer b : found.getMessageBufferList()) {
                if (b.getLong(b.position() + PHYSICALOFFSET) == physicalOffset) {
                    return true;
                }
            }
            return false;
        } finally {
            found.release();
        }
    }
}
