package io.hotpath.dist.store.probe;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.shared.Dispatched;
import io.hotpath.dist.store.shared.StoredRecord;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;

/**
 * How this release reads a stored record back: its {@code MessageDecoder}'s properties, and what the store's dispatch
 * built from it, through the store's public API only.
 */
final class ReadBack {

    /** A pulled or queried message buffer: the record's PHYSICALOFFSET field. */
    private static final int PHYSICALOFFSET = 28;

    private ReadBack() {
    }

    /** Call once {@link ProbeStore#awaitDispatched} has returned. */
    static StoredRecord of(DefaultMessageStore store, byte[] record) {
        return new StoredRecord(record, decodedProperties(record), dispatched(store, record));
    }

    /** This release's reading of the record's properties, in its map's order. */
    static LinkedHashMap<String, String> decodedProperties(byte[] record) {
        Map<String, String> properties = MessageDecoder.decode(ByteBuffer.wrap(record), true, false).getProperties();
        return properties == null ? null : new LinkedHashMap<>(properties);
    }

    /**
     * The ConsumeQueue entry at the record's queue offset, a consumer pull at that queue offset ({@code getMessage}),
     * and the index ({@code queryMessage}) by each KEYS key and by UNIQ_KEY.
     */
    static Dispatched dispatched(DefaultMessageStore store, byte[] record) {
        MessageExt msg = MessageDecoder.decode(ByteBuffer.wrap(record), true, false);
        String topic = msg.getTopic();
        Boolean entryIsThisRecord = null;
        Long tagsCode = null;
        Long deliveryTimeMinusStoreTime = null;
        ConsumeQueue queue = store.getConsumeQueue(topic, msg.getQueueId());
        SelectMappedBufferResult entry = queue == null ? null : queue.getIndexBuffer(msg.getQueueOffset());
        if (entry != null) {
            try {
                ByteBuffer b = entry.getByteBuffer();
                long physicalOffset = b.getLong();
                int size = b.getInt();
                long code = b.getLong();
                entryIsThisRecord = physicalOffset == msg.getCommitLogOffset() && size == record.length;
                if (TopicValidator.RMQ_SYS_SCHEDULE_TOPIC.equals(topic)) {
                    // the store timestamp differs between the two stores; what the record decides is the delay
                    deliveryTimeMinusStoreTime = code - msg.getStoreTimestamp();
                } else {
                    tagsCode = code;
                }
            } finally {
                entry.release();
            }
        }
        String pullStatus = null;
        int pulledMessages = 0;
        boolean pulledThisRecord = false;
        GetMessageResult pulled = store.getMessage(StoreSiteProbe.GROUP, topic, msg.getQueueId(), msg.getQueueOffset(), 1, null);
        if (pulled != null) {
            try {
                List<ByteBuffer> buffers = pulled.getMessageBufferList();
                pullStatus = pulled.getStatus().name();
                pulledMessages = buffers.size();
                pulledThisRecord = buffers.size() == 1
                    && buffers.get(0).getLong(buffers.get(0).position() + PHYSICALOFFSET) == msg.getCommitLogOffset();
            } finally {
                pulled.release();
            }
        }
        Map<String, Boolean> foundByIndex = new LinkedHashMap<>();
        String keys = msg.getKeys();
        if (keys != null) {
            for (String key : keys.split(MessageConst.KEY_SEPARATOR)) {
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

    /** {@code queryMessage(topic, key)} finds the record at {@code physicalOffset}. */
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
