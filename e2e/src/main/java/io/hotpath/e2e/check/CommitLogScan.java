package io.hotpath.e2e.check;

import io.hotpath.e2e.load.SeededMessages;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Walks a stopped broker's CommitLog record by record (the TOTALSIZE / MAGIC chain of RocketMQ 4.9.0's
 * {@code CommitLog.doAppend}, and of 5.x, whose {@code MessageVersion} V2 records carry another magic and a 2-byte
 * topic length) and counts the records and bytes of one topic. The mapped files are
 * preallocated (1 GiB), so their sizes say nothing; the chain ends at the first zero TOTALSIZE, and a
 * BLANK record pads the tail of a full file. This is exact: it reads what the broker wrote.
 */
public final class CommitLogScan {

    /** {@code MessageDecoder.MESSAGE_MAGIC_CODE} (CommitLog.MESSAGE_MAGIC_CODE in 4.9.0): a 1-byte topic length */
    static final int MESSAGE_MAGIC = -626843481;
    /**
     * 5.x's {@code MessageDecoder.MESSAGE_MAGIC_CODE_V2} ({@code MessageVersion.MESSAGE_VERSION_V2}): the same record with a
     * 2-byte topic length, written for topics longer than 127 bytes ({@code autoMessageVersionOnTopicLen}, default on)
     */
    static final int MESSAGE_MAGIC_V2 = -626843477;
    /** {@code CommitLog.BLANK_MAGIC_CODE}: end-of-file padding */
    static final int BLANK_MAGIC = -875286124;
    private static final int BORNHOST_V6_FLAG = 1 << 4;
    private static final int STOREHOST_V6_FLAG = 1 << 5;

    /** Records and bytes of {@code topic}, and of all records, in one store. */
    public record TopicBytes(long records, long bytes, long allRecords, long allBytes) {

        public TopicBytes plus(TopicBytes other) {
            return new TopicBytes(records + other.records, bytes + other.bytes, allRecords + other.allRecords,
                    allBytes + other.allBytes);
        }

        public double bytesPerRecord() {
            return records == 0 ? 0 : (double) bytes / records;
        }
    }

    private CommitLogScan() {
    }

    /** Scans {@code <store>/commitlog}; a store that never got a message yields zeros. */
    public static TopicBytes scan(Path store, String topic) throws IOException {
        byte[] wanted = topic.getBytes(StandardCharsets.UTF_8);
        long[] counts = new long[4]; // topic records, topic bytes, all records, all bytes
        walk(store, (map, pos, totalSize) -> {
            counts[2]++;
            counts[3] += totalSize;
            if (hasTopic(map, pos, wanted)) {
                counts[0]++;
                counts[1] += totalSize;
            }
        });
        return new TopicBytes(counts[0], counts[1], counts[2], counts[3]);
    }

    /** Receives each message record of the chain: the mapped file, its offset and TOTALSIZE. */
    private interface RecordVisitor {
        void visit(ByteBuffer map, int pos, int totalSize);
    }

    /**
     * The one walk of the TOTALSIZE / MAGIC chain over {@code <store>/commitlog}, in log order: a
     * BLANK record means the file is full and the chain goes on in the next one; a zero TOTALSIZE
     * or an unknown magic ends it.
     */
    private static void walk(Path store, RecordVisitor visitor) throws IOException {
        Path dir = store.resolve("commitlog");
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            // file names are the 20-digit start offsets, so name order is log order
            files = list.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            boolean full = false;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
                int pos = 0;
                while (pos + 8 <= map.limit()) {
                    int totalSize = map.getInt(pos);
                    int magic = map.getInt(pos + 4);
                    if (magic == BLANK_MAGIC) {
                        full = true;
                        break;
                    }
                    if (totalSize <= 0 || (magic != MESSAGE_MAGIC && magic != MESSAGE_MAGIC_V2)) {
                        break;
                    }
                    visitor.visit(map, pos, totalSize);
                    pos += totalSize;
                }
            }
            if (!full) {
                break;
            }
        }
    }

    /**
     * One stored record of a topic: the {@code hotpath.seq} property (-1 if none), TOTALSIZE, whether a WAIT entry is
     * stored, and {@code trimmableBytes}: what patch 0003 leaves out of this record's properties block, each
     * {@code WAIT\1..} entry with one separator and a separator ending the block (the 4.9.0 format).
     */
    public record StoredRecord(int seq, int totalSize, boolean storesWait, int trimmableBytes) {
    }

    private static final byte[] SEQ_KEY = (SeededMessages.SEQ + "\1").getBytes(StandardCharsets.UTF_8);
    private static final byte[] WAIT_KEY = "WAIT\1".getBytes(StandardCharsets.UTF_8);

    /** Every record of {@code topic} in {@code <store>/commitlog}, in log order (same walk as {@link #scan}). */
    public static List<StoredRecord> records(Path store, String topic) throws IOException {
        List<StoredRecord> out = new ArrayList<>();
        byte[] wanted = topic.getBytes(StandardCharsets.UTF_8);
        walk(store, (map, pos, totalSize) -> {
            if (hasTopic(map, pos, wanted)) {
                out.add(describe(map, pos, totalSize));
            }
        });
        return out;
    }

    /** Records of one topic in a store, and how many of them store a WAIT entry. */
    public record TopicWait(long records, long withWait) {

        public TopicWait plus(TopicWait other) {
            return new TopicWait(records + other.records, withWait + other.withWait);
        }
    }

    /**
     * Every topic in {@code <store>/commitlog} with its record count and how many records store a
     * {@code WAIT} entry, sorted by topic: the system topics the broker relays through
     * (SCHEDULE_TOPIC_XXXX, RMQ_SYS_TRANS_HALF_TOPIC, RMQ_SYS_TRANS_OP_HALF_TOPIC) included.
     */
    public static Map<String, TopicWait> waitByTopic(Path store) throws IOException {
        Map<String, TopicWait> topics = new TreeMap<>();
        walk(store, (map, pos, totalSize) -> {
            int topicLengthAt = topicLengthAt(map, pos);
            byte[] topic = new byte[topicLength(map, pos, topicLengthAt)];
            map.get(topicLengthAt + topicLengthSize(map, pos), topic);
            boolean wait = describe(map, pos, totalSize).storesWait();
            topics.merge(new String(topic, StandardCharsets.UTF_8), new TopicWait(1, wait ? 1 : 0), TopicWait::plus);
        });
        return topics;
    }

    /** 1 (V1 record) or 2 (V2 record): the size of the topic length field. */
    private static int topicLengthSize(ByteBuffer map, int record) {
        return map.getInt(record + 4) == MESSAGE_MAGIC_V2 ? 2 : 1;
    }

    /** The topic length, unsigned, of the record at {@code record} whose length field is at {@code topicLengthAt}. */
    private static int topicLength(ByteBuffer map, int record, int topicLengthAt) {
        return topicLengthSize(map, record) == 2 ? map.getShort(topicLengthAt) & 0xFFFF : map.get(topicLengthAt) & 0xFF;
    }

    /** Offset of the topic length (1 byte, 2 in a V2 record): after the fixed header (its host fields sized by SYSFLAG) and the body. */
    private static int topicLengthAt(ByteBuffer map, int record) {
        int sysFlag = map.getInt(record + 4 + 4 + 4 + 4 + 4 + 8 + 8);
        int bornHost = (sysFlag & BORNHOST_V6_FLAG) == 0 ? 8 : 20;
        int storeHost = (sysFlag & STOREHOST_V6_FLAG) == 0 ? 8 : 20;
        int bodyLengthAt = record + 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornHost + 8 + storeHost + 4 + 8;
        return bodyLengthAt + 4 + map.getInt(bodyLengthAt);
    }

    /** Reads the properties block (after the topic: 2-byte length, then the block). */
    private static StoredRecord describe(ByteBuffer map, int record, int totalSize) {
        int topicLengthAt = topicLengthAt(map, record);
        int propertiesLengthAt = topicLengthAt + topicLengthSize(map, record) + topicLength(map, record, topicLengthAt);
        int length = map.getShort(propertiesLengthAt) & 0xFFFF;
        byte[] block = new byte[length];
        map.get(propertiesLengthAt + 2, block);
        boolean wait = false;
        int seq = -1;
        int kept = 0;
        int keptBytes = 0;
        // entries are key \1 value, separated by \2: look at each entry's start only
        for (int start = 0; start < length; ) {
            int end = start;
            while (end < length && block[end] != 2) {
                end++;
            }
            if (startsWith(block, start, end, WAIT_KEY)) {
                wait = true;
            } else {
                kept++;
                keptBytes += end - start;
                if (startsWith(block, start, end, SEQ_KEY)) {
                    seq = parseDigits(block, start + SEQ_KEY.length, end);
                }
            }
            start = end + 1;
        }
        // 0003 stores the kept entries joined by one separator each, none at the end
        int trimmable = length - (keptBytes + Math.max(kept - 1, 0));
        return new StoredRecord(seq, totalSize, wait, trimmable);
    }

    private static boolean startsWith(byte[] block, int start, int end, byte[] prefix) {
        if (end - start < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (block[start + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int parseDigits(byte[] block, int from, int to) {
        if (from >= to || to - from > 9) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            if (block[i] < '0' || block[i] > '9') {
                return -1;
            }
            value = value * 10 + block[i] - '0';
        }
        return value;
    }

    /** The record layout of 4.9.0: fixed header, body, then a 1-byte topic length (2 bytes in 5.x's V2) and the topic. */
    private static boolean hasTopic(ByteBuffer map, int record, byte[] topic) {
        int topicLengthAt = topicLengthAt(map, record);
        int topicLength = topicLength(map, record, topicLengthAt);
        if (topicLength != topic.length) {
            return false;
        }
        int topicAt = topicLengthAt + topicLengthSize(map, record);
        for (int i = 0; i < topicLength; i++) {
            if (map.get(topicAt + i) != topic[i]) {
                return false;
            }
        }
        return true;
    }
}
