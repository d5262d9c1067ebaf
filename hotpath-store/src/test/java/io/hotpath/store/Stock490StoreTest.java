package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.testkit.LoopbackListeners;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.store.AppendMessageStatus;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.PutMessageStatus;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real, unpatched 4.9.0 {@code DefaultMessageStore} (temp store under target/), fed the
 * String form of our block (our bytes are valid UTF-8, so it re-encodes to the same bytes): it
 * stores our exact block, dispatches it (consume queue tags code, key and unique-key index), and
 * applies its 32767 limit as measured here. A start on item 3(b); the patched store and 4.9.8's
 * are not in this module.
 */
class Stock490StoreTest {

    private static final String TOPIC = "TopicTest";

    private Path root;
    private DefaultMessageStore store;

    @BeforeEach
    void startStore() throws Exception {
        Files.createDirectories(Paths.get("target"));
        root = Files.createTempDirectory(Paths.get("target"), "store-490-");
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root.toString());
        config.setStorePathCommitLog(root.resolve("commitlog").toString());
        config.setMappedFileSizeCommitLog(4 * 1024 * 1024);
        config.setMappedFileSizeConsumeQueue(1000 * 20);
        config.setMaxIndexNum(1000);
        config.setMaxHashSlotNum(100);
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        config.setHaListenPort(0); // an ephemeral port: never collides with a broker running on this machine
        store = new DefaultMessageStore(config, new BrokerStatsManager("DefaultCluster"),
            (topic, queueId, offset, tagsCode, storeTime, filter, props) -> { }, new BrokerConfig());
        // the store's HA listener (its accept service exists from the constructor on) binds loopback, not every interface
        LoopbackListeners.toLoopback(LoopbackListeners.get(LoopbackListeners.get(store, "haService"), "acceptSocketService"));
        assertThat(store.load()).isTrue();
        List<InetSocketAddress> before = LoopbackListeners.listening();
        store.start();
        LoopbackListeners.requireLoopbackOnly("the 4.9.0 store", before);
    }

    @AfterEach
    void stopStore() {
        store.shutdown();
        store.destroy();
        UtilAll.deleteFile(new File(root.toString()));
    }

    @Test
    void storesOurBlockByteForByteAndDispatchesTagsKeysAndUniqueKey() throws Exception {
        Map<String, String> properties = PersistedPropertiesContract.plainProducerMessage();
        byte[] block = PersistedProperties.messageProperties2Bytes(properties);
        PutMessageResult result = store.putMessage(message(properties, new String(block, StandardCharsets.UTF_8)));
        assertThat(result.getPutMessageStatus()).isEqualTo(PutMessageStatus.PUT_OK);
        long offset = result.getAppendMessageResult().getWroteOffset();

        ByteBuffer record = store.selectOneMessageByOffset(offset).getByteBuffer();
        byte[] stored = new byte[record.remaining()];
        record.get(stored);
        assertThat(stored).hasSize(result.getAppendMessageResult().getWroteBytes());
        byte[] storedBlock = new byte[block.length];
        System.arraycopy(stored, stored.length - block.length, storedBlock, 0, block.length);
        assertThat(storedBlock).isEqualTo(block);
        assertThat(ByteBuffer.wrap(stored).getShort(stored.length - block.length - 2)).isEqualTo((short) 90);

        awaitDispatch();
        GetMessageResult got = store.getMessage("group", TOPIC, 0, 0, 1, null);
        MessageExt read = MessageDecoder.decode(got.getMessageBufferList().get(0), true, false);
        got.release();
        assertThat(read.getProperties()).containsOnlyKeys("KEYS", "UNIQ_KEY", "CLUSTER", "TAGS");
        assertThat(read.isWaitStoreMsgOK()).isTrue();
        assertThat(store.getConsumeQueue(TOPIC, 0).getLastOffset()).isPositive();
        QueryMessageResult byKey = store.queryMessage(TOPIC, "OrderID188", 10, 0, Long.MAX_VALUE);
        QueryMessageResult byUniqKey = store.queryMessage(TOPIC, PersistedPropertiesContract.UNIQ_KEY, 10, 0, Long.MAX_VALUE);
        assertThat(byKey.getMessageBufferList()).hasSize(1);
        assertThat(byUniqKey.getMessageBufferList()).hasSize(1);
        byKey.release();
        byUniqKey.release();
    }

    @Test
    void rejectsAStringOfMoreThan32767CharsInCheckMessage() {
        PutMessageResult result = store.putMessage(message(Map.of(), "k\1" + "v".repeat(32766)));
        assertThat(result.getPutMessageStatus()).isEqualTo(PutMessageStatus.MESSAGE_ILLEGAL);
        assertThat(result.getAppendMessageResult()).isNull(); // never reached the CommitLog
    }

    @Test
    void rejectsMoreThan32767BytesFromFewerCharsInDoAppendAlsoAsMessageIllegal() {
        // 16386 chars pass checkMessage's String check; 32770 UTF-8 bytes fail doAppend's
        PutMessageResult result = store.putMessage(message(Map.of(), "k\1" + "\u00e9".repeat(16384)));
        assertThat(result.getPutMessageStatus()).isEqualTo(PutMessageStatus.MESSAGE_ILLEGAL);
        assertThat(result.getAppendMessageResult().getStatus()).isEqualTo(AppendMessageStatus.PROPERTIES_SIZE_EXCEEDED);
    }

    @Test
    void acceptsExactly32767Bytes() {
        String block = "k\1" + "\u4e2d".repeat(10921) + "\u00e9";
        assertThat(block.getBytes(StandardCharsets.UTF_8)).hasSize(32767);
        assertThat(store.putMessage(message(Map.of(), block)).getPutMessageStatus()).isEqualTo(PutMessageStatus.PUT_OK);
    }

    @Test
    void acceptsTheTrimmedBlockOfAMessageWhoseStockBlockIsTooLong() {
        // stock 4.9.0 would store 32767 + 11 bytes and reject; the trimmed block fits, as in 4.9.8
        Map<String, String> properties = new java.util.LinkedHashMap<>();
        properties.put("WAIT", "true");
        properties.put("k", "v".repeat(32767 - 2));
        String stock = MessageDecoder.messageProperties2String(properties);
        byte[] trimmed = PersistedProperties.messageProperties2Bytes(properties);
        assertThat(stock.getBytes(StandardCharsets.UTF_8)).hasSize(32767 + 11);
        assertThat(trimmed).hasSize(32767);
        assertThat(store.putMessage(message(properties, stock)).getPutMessageStatus()).isEqualTo(PutMessageStatus.MESSAGE_ILLEGAL);
        assertThat(store.putMessage(message(properties, new String(trimmed, StandardCharsets.UTF_8))).getPutMessageStatus())
            .isEqualTo(PutMessageStatus.PUT_OK);
    }

    private static MessageExtBrokerInner message(Map<String, String> properties, String propertiesString) {
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic(TOPIC);
        msg.setQueueId(0);
        msg.setBody("Hello RocketMQ".getBytes(StandardCharsets.UTF_8));
        MessageAccessor.setProperties(msg, new java.util.HashMap<>(properties));
        msg.setPropertiesString(propertiesString);
        msg.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(null, msg.getTags()));
        msg.setBornTimestamp(System.currentTimeMillis());
        msg.setBornHost(new InetSocketAddress("127.0.0.1", 51234));
        msg.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
        return msg;
    }

    private void awaitDispatch() throws InterruptedException {
        for (int i = 0; i < 500 && store.getMaxOffsetInQueue(TOPIC, 0) == 0; i++) {
            Thread.sleep(10);
        }
        assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(1);
        // the index is built by the same reput thread, after the consume queue
        for (int i = 0; i < 500 && store.queryMessage(TOPIC, "OrderID188", 1, 0, Long.MAX_VALUE).getMessageBufferList().isEmpty(); i++) {
            Thread.sleep(10);
        }
    }
}
