package io.hotpath.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private static byte[] record(String topic, int bodySize) throws Exception {
        MessageExt message = new MessageExt();
        message.setTopic(topic);
        message.setBody("x".repeat(bodySize).getBytes(StandardCharsets.UTF_8));
        message.putUserProperty("KEY", "value");
        message.setBornHost(new InetSocketAddress("127.0.0.1", 40000));
        message.setStoreHost(new InetSocketAddress("127.0.0.1", 19888));
        return MessageDecoder.encode(message, false);
    }
}
