package io.hotpath.dist.store.probe;

import io.hotpath.dist.store.shared.LoopbackStores;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * A started {@code DefaultMessageStore} of whichever release this class loader holds, in a temp directory, with its
 * schedule service running as on a master, its HA port on loopback only; {@link #close} shuts it down and deletes its
 * files.
 */
final class ProbeStore implements AutoCloseable {

    /**
     * 18 levels, level n = n s: short enough that the retry of a send-back (level 3) comes due within the test, and
     * distinct, so that the delivery time dispatch computes from a record's DELAY tells the levels apart.
     */
    static final String DELAY_LEVELS = "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s 12s 13s 14s 15s 16s 17s 18s";

    final DefaultMessageStore store;

    private ProbeStore(DefaultMessageStore store) {
        this.store = store;
    }

    static ProbeStore start(String root) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root);
        config.setStorePathCommitLog(root + "/commitlog");
        config.setMappedFileSizeCommitLog(1024 * 1024);
        config.setMappedFileSizeConsumeQueue(1000 * 20);
        config.setMaxIndexNum(1000);
        config.setMaxHashSlotNum(100);
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        config.setBrokerRole(BrokerRole.ASYNC_MASTER);
        config.setMessageDelayLevel(DELAY_LEVELS);
        config.setHaListenPort(0); // an ephemeral port: never collides with a broker running on this machine
        DefaultMessageStore store = new DefaultMessageStore(config, brokerStatsManager(),
            (topic, queueId, offset, tagsCode, storeTime, filter, props) -> { }, new BrokerConfig());
        LoopbackStores.haToLoopback(store);
        if (!store.load()) {
            throw new IllegalStateException("store did not load " + root);
        }
        List<InetSocketAddress> listening = LoopbackStores.listening();
        store.start();
        try {
            LoopbackStores.requireLoopbackOnly("the probe's store", listening);
        } catch (IllegalStateException e) {
            store.shutdown();
            store.destroy();
            throw e;
        }
        // as BrokerController does on a master: the schedule service re-puts due delayed messages
        store.handleScheduleMessageService(BrokerRole.ASYNC_MASTER);
        return new ProbeStore(store);
    }

    /** The record a put wrote, checked to be as long as the store says it wrote. */
    byte[] written(String label, PutMessageResult result) {
        requireOk(label, result);
        byte[] bytes = read(result.getAppendMessageResult().getWroteOffset());
        if (bytes.length != result.getAppendMessageResult().getWroteBytes()) {
            throw new IllegalStateException(label + ": read " + bytes.length + " bytes, wrote " + result.getAppendMessageResult().getWroteBytes());
        }
        return bytes;
    }

    /** The whole record at a CommitLog offset (its TOTALSIZE says how long). */
    byte[] read(long offset) {
        SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
        try {
            ByteBuffer buffer = selected.getByteBuffer();
            byte[] bytes = new byte[buffer.getInt(buffer.position())];
            buffer.get(bytes);
            return bytes;
        } finally {
            selected.release();
        }
    }

    /**
     * The CommitLog offset of the entry at {@code queueOffset} of {@code topic} queue {@code queueId}, once dispatch has
     * made it: for a put that a site made itself, out of the probe's sight.
     */
    long awaitQueueEntry(String label, String topic, int queueId, long queueOffset) throws InterruptedException {
        for (int i = 0; i < 1000 && store.getMaxOffsetInQueue(topic, queueId) <= queueOffset; i++) {
            Thread.sleep(10);
        }
        if (store.getMaxOffsetInQueue(topic, queueId) <= queueOffset) {
            throw new IllegalStateException(label + ": nothing at " + topic + " queue " + queueId + " offset " + queueOffset);
        }
        return store.getCommitLogOffsetInQueue(topic, queueId, queueOffset);
    }

    /** Until the dispatch (ReputMessageService) has read every record. */
    void awaitDispatched() throws InterruptedException {
        for (int i = 0; i < 2000 && store.dispatchBehindBytes() > 0; i++) {
            Thread.sleep(10);
        }
        if (store.dispatchBehindBytes() > 0) {
            throw new IllegalStateException("dispatch still " + store.dispatchBehindBytes() + " bytes behind");
        }
    }

    static void requireOk(String label, PutMessageResult result) {
        if (result == null || !result.isOk() || result.getAppendMessageResult() == null) {
            throw new IllegalStateException(label + ": put failed: " + result);
        }
    }

    @Override
    public void close() {
        store.shutdown();
        store.destroy();
    }

    /** 4.9.0 has {@code BrokerStatsManager(String)}, 4.9.8 {@code (String, boolean enableQueueStat)}. */
    private static BrokerStatsManager brokerStatsManager() throws Exception {
        Class<BrokerStatsManager> type = BrokerStatsManager.class;
        try {
            return type.getConstructor(String.class).newInstance("DefaultCluster");
        } catch (NoSuchMethodException e) {
            return type.getConstructor(String.class, boolean.class).newInstance("DefaultCluster", true);
        }
    }
}
