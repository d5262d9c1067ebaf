package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.SeededMessages;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/** Records are encoded by upstream 4.9.0's MessageDecoder.encode, whose layout is the CommitLog's. */
class CommitLogScanTest {

    @Test
    void countsTheRecordsAndBytesOfOneTopicUpToTheFirstEmptySlot() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        byte[] a = record("hotpath_smoke", 1024);
        byte[] b = record("other_topic", 10);
        byte[] c = record("hotpath_smoke", 100);
        log.write(a);
        log.write(b);
        log.write(c);
        log.write(new byte[4096]); // the preallocated, never written rest of the mapped file
        Path store = Files.createDirectories(Path.of("target", "test-commitlog", "store"));
        Files.createDirectories(store.resolve("commitlog"));
        Files.write(store.resolve("commitlog").resolve("00000000000000000000"), log.toByteArray());

        CommitLogScan.TopicBytes scanned = CommitLogScan.scan(store, "hotpath_smoke");

        assertThat(scanned).isEqualTo(new CommitLogScan.TopicBytes(2, a.length + c.length, 3, a.length + b.length + c.length));
    }

    @Test
    void listsEachRecordOfOneTopicWithItsSeqSizeAndWhetherItStoresWait() throws Exception {
        byte[] withWait = record("hotpath_smoke", 64, 7, true);
        byte[] other = record("other_topic", 10, 8, true);
        byte[] withoutWait = record("hotpath_smoke", 64, 9, false);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        log.write(withWait);
        log.write(other);
        log.write(withoutWait);
        log.write(new byte[4096]);
        Path store = Files.createDirectories(Path.of("target", "test-commitlog-records", "store"));
        Files.createDirectories(store.resolve("commitlog"));
        Files.write(store.resolve("commitlog").resolve("00000000000000000000"), log.toByteArray());

        // 4.9.0's encoding: each block ends with \2, which 0003 leaves out too
        assertThat(CommitLogScan.records(store, "hotpath_smoke")).containsExactly(
            new CommitLogScan.StoredRecord(7, withWait.length, true, 11),
            new CommitLogScan.StoredRecord(9, withoutWait.length, false, 1));
        // WAIT\1true\2 is 10 bytes; the records differ only in it
        assertThat(withWait.length - withoutWait.length).isEqualTo(10);
    }

    @Test
    void trimmableBytesAreWhatTheTrimmedBlockLeavesOut() throws Exception {
        Map<String, Integer> blocks = new java.util.LinkedHashMap<>();
        blocks.put("hotpath.seq\0013\2WAIT\1true\2TAGS\1a\2", 11); // 4.9.0 client: WAIT entry + separator, terminator
        blocks.put("hotpath.seq\0013\2TAGS\1a", 0);                 // 4.9.8 normal send: already trimmed
        blocks.put("hotpath.seq\0013\2TAGS\1a\2WAIT\1false", 11);   // WAIT last, no terminator: the separator before it
        blocks.put("WAIT\1true\2", 10);                               // nothing else: the whole block
        blocks.put("", 0);
        int i = 0;
        for (Map.Entry<String, Integer> block : blocks.entrySet()) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            byte[] bytes = rawRecord("hotpath_smoke", block.getKey());
            log.write(bytes);
            log.write(new byte[4096]);
            Path store = Files.createDirectories(Path.of("target", "test-commitlog-trimmable-" + i++, "store"));
            Files.createDirectories(store.resolve("commitlog"));
            Files.write(store.resolve("commitlog").resolve("00000000000000000000"), log.toByteArray());
            assertThat(CommitLogScan.records(store, "hotpath_smoke")).as(block.getKey().replace('\1', '=').replace('\2', ';'))
                .singleElement().extracting(CommitLogScan.StoredRecord::trimmableBytes).isEqualTo(block.getValue());
        }
    }

    @Test
    void countsEveryTopicAndItsRecordsThatStoreWaitIncludingTheSystemTopics() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        log.write(record("SCHEDULE_TOPIC_XXXX", 64, 1, true));
        log.write(record("RMQ_SYS_TRANS_HALF_TOPIC", 64, 2, true));
        log.write(record("hotpath_smoke_relay", 64, 1, false));
        log.write(record("hotpath_smoke_relay", 64, 2, true));
        log.write(new byte[4096]);
        Path store = Files.createDirectories(Path.of("target", "test-commitlog-topics", "store"));
        Files.createDirectories(store.resolve("commitlog"));
        Files.write(store.resolve("commitlog").resolve("00000000000000000000"), log.toByteArray());

        assertThat(CommitLogScan.waitByTopic(store)).containsExactly(
            Map.entry("RMQ_SYS_TRANS_HALF_TOPIC", new CommitLogScan.TopicWait(1, 1)),
            Map.entry("SCHEDULE_TOPIC_XXXX", new CommitLogScan.TopicWait(1, 1)),
            Map.entry("hotpath_smoke_relay", new CommitLogScan.TopicWait(2, 1)));
    }

    @Test
    void readsFiveXVersion2RecordsWhoseTopicLengthTakesTwoBytes() throws Exception {
        // 5.x writes V2 for topics over 127 bytes; 4.9.0's encoder, which makes the record here, takes up to 127
        String longTopic = "hotpath_long_topic_" + "t".repeat(100);
        byte[] v1 = record("hotpath_smoke", 64, 3, true);
        byte[] v2 = version2(record(longTopic, 64, 4, true));
        byte[] after = record("hotpath_smoke", 64, 5, false);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        log.write(v1);
        log.write(v2);
        log.write(after);
        log.write(new byte[4096]);
        Path store = Files.createDirectories(Path.of("target", "test-commitlog-v2", "store"));
        Files.createDirectories(store.resolve("commitlog"));
        Files.write(store.resolve("commitlog").resolve("00000000000000000000"), log.toByteArray());

        assertThat(CommitLogScan.records(store, longTopic)).containsExactly(new CommitLogScan.StoredRecord(4, v2.length, true, 11));
        assertThat(CommitLogScan.records(store, "hotpath_smoke")).extracting(CommitLogScan.StoredRecord::seq).containsExactly(3, 5);
        assertThat(CommitLogScan.waitByTopic(store)).containsExactly(
            Map.entry(longTopic, new CommitLogScan.TopicWait(1, 1)),
            Map.entry("hotpath_smoke", new CommitLogScan.TopicWait(2, 1)));
    }

    /**
     * A 4.9.0 record rewritten as 5.x's {@code MessageVersion.MESSAGE_VERSION_V2} writes it: magic
     * {@code MESSAGE_MAGIC_CODE_V2} and a 2-byte topic length (IPv4 hosts: the topic length follows byte 84 + 4 + body).
     */
    private static byte[] version2(byte[] v1) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(v1);
        int topicLengthAt = 84 + 4 + in.getInt(84);
        int topicLength = in.get(topicLengthAt) & 0xFF;
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(v1.length + 1);
        out.put(v1, 0, topicLengthAt).putShort((short) topicLength).put(v1, topicLengthAt + 1, v1.length - topicLengthAt - 1);
        out.putInt(0, out.capacity()).putInt(4, CommitLogScan.MESSAGE_MAGIC_V2);
        return out.array();
    }

    private static byte[] record(String topic, int bodySize, int seq, boolean wait) throws Exception {
        MessageExt message = new MessageExt();
        message.setTopic(topic);
        message.setBody("x".repeat(bodySize).getBytes(StandardCharsets.UTF_8));
        message.putUserProperty(SeededMessages.SEQ, Integer.toString(seq));
        if (wait) {
            message.setWaitStoreMsgOK(true);
        }
        message.setBornHost(new InetSocketAddress("127.0.0.1", 40000));
        message.setStoreHost(new InetSocketAddress("127.0.0.1", 19888));
        return MessageDecoder.encode(message, false);
    }

    private static byte[] record(String topic, int bodySize) throws Exception {
        MessageExt message = new MessageExt();
        message.setTopic(topic);
        message.setBody("x".repeat(bodySize).getBytes(StandardCharsets.UTF_8));
        message.putUserProperty("KEY", "value");
        message.setBornHost(new InetSocketAddress("127.0.0.1", 40000));
        message.setStoreHost(new InetSocketAddress("127.0.0.1", 19888));
        return MessageDecoder.encode(message, false);
    }

    /** A record of {@code topic} whose properties block is exactly {@code block} (UTF-8): the CommitLog layout, any writer. */
    private static byte[] rawRecord(String topic, String block) throws Exception {
        MessageExt message = new MessageExt();
        message.setTopic(topic);
        message.setBody("body".getBytes(StandardCharsets.UTF_8));
        message.setBornHost(new InetSocketAddress("127.0.0.1", 40000));
        message.setStoreHost(new InetSocketAddress("127.0.0.1", 19888));
        byte[] empty = MessageDecoder.encode(message, false); // ends with PROPLEN 0
        byte[] properties = block.getBytes(StandardCharsets.UTF_8);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(empty.length + properties.length);
        out.put(empty, 0, empty.length - 2).putShort((short) properties.length).put(properties);
        out.putInt(0, out.capacity()); // TOTALSIZE
        return out.array();
    }
}
