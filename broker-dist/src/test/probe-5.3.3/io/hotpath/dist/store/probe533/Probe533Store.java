package io.hotpath.dist.store.probe533;

import io.hotpath.dist.store.shared.LoopbackStores;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.schedule.ScheduleMessageService;
import org.apache.rocketmq.broker.util.HookUtils;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.hook.PutMessageHook;
import org.apache.rocketmq.store.stats.BrokerStatsManager;
import org.apache.rocketmq.store.timer.TimerMessageStore;
import org.apache.rocketmq.store.timer.TimerWheel;

/**
 * A started 5.3.3 {@code DefaultMessageStore} of whichever distribution this class loader holds, in a temp directory,
 * with the put hooks a 5.3.3 {@code BrokerController#registerMessageStoreHook} registers, each calling the REAL
 * {@code HookUtils} method it calls there ({@code checkBeforePutMessage}, {@code checkInnerBatch},
 * {@code handleScheduleMessage}: the delay-level and timer transforms run as on a broker).
 *
 * <p>No live broker: the {@code BrokerController} these static methods take is allocated without its constructor and
 * only what they read is set: the store and its config, the broker config, the store host, a
 * {@code ScheduleMessageService} holding only its max delay level (18) and a {@code TimerMessageStore} holding only its
 * config and a {@code TimerWheel} (1024 slots, under the store's directory; {@code isReject} reads it).
 */
final class Probe533Store implements AutoCloseable {

    static final String DELAY_LEVELS = "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s 12s 13s 14s 15s 16s 17s 18s";
    static final String CLUSTER = "DefaultCluster";
    static final String BROKER_NAME = "broker-a";
    static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 50123);

    final DefaultMessageStore store;
    final BrokerController controller;
    private final TimerWheel timerWheel;

    private Probe533Store(DefaultMessageStore store, BrokerController controller, TimerWheel timerWheel) {
        this.store = store;
        this.controller = controller;
        this.timerWheel = timerWheel;
    }

    static Probe533Store start(String root, boolean appendPropCrc, boolean lmq) throws Exception {
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
        config.setHaListenPort(0); // ephemeral: never collides with a broker on this machine
        config.setTimerWheelEnable(true);
        config.setEnabledAppendPropCRC(appendPropCrc);
        config.setEnableLmq(lmq);
        config.setEnableMultiDispatch(lmq);
        BrokerConfig brokerConfig = new BrokerConfig();
        brokerConfig.setBrokerClusterName(CLUSTER);
        brokerConfig.setBrokerName(BROKER_NAME);
        brokerConfig.setBrokerIP1(STORE_HOST.getHostString());
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager(CLUSTER, true),
            (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { }, brokerConfig,
            new ConcurrentHashMap<>());
        // 5.x makes the HA accept service in start() (DefaultHAService#init): ours points it at loopback before it binds
        set(store, "haService", new LoopbackHaService());
        if (!store.load()) {
            throw new IllegalStateException("store did not load " + root);
        }
        List<InetSocketAddress> listening = LoopbackStores.listening();
        store.start();
        try {
            LoopbackStores.requireLoopbackOnly("the 5.x probe's store", listening);
        } catch (IllegalStateException e) {
            store.shutdown();
            store.destroy();
            throw e;
        }

        BrokerController controller = (BrokerController) allocateWithoutConstructor(BrokerController.class);
        set(controller, "brokerConfig", brokerConfig);
        set(controller, "messageStoreConfig", config);
        set(controller, "messageStore", store);
        set(controller, "storeHost", STORE_HOST);
        ScheduleMessageService schedule = (ScheduleMessageService) allocateWithoutConstructor(ScheduleMessageService.class);
        set(schedule, "maxDelayLevel", 18);
        set(controller, "scheduleMessageService", schedule);
        TimerMessageStore timer = (TimerMessageStore) allocateWithoutConstructor(TimerMessageStore.class);
        TimerWheel wheel = new TimerWheel(root + "/timerwheel", 1024, config.getTimerPrecisionMs());
        set(timer, "timerWheel", wheel);
        set(timer, "storeConfig", config);
        set(controller, "timerMessageStore", timer);
        registerMessageStoreHooks(store, controller);
        return new Probe533Store(store, controller, wheel);
    }

    /** {@code BrokerController#registerMessageStoreHook}'s three put hooks, restated; their bodies are HookUtils' own. */
    private static void registerMessageStoreHooks(DefaultMessageStore store, BrokerController controller) {
        store.getPutMessageHookList().add(new PutMessageHook() {
            @Override
            public String hookName() {
                return "checkBeforePutMessage";
            }

            @Override
            public PutMessageResult executeBeforePutMessage(MessageExt msg) {
                return HookUtils.checkBeforePutMessage(controller, msg);
            }
        });
        store.getPutMessageHookList().add(new PutMessageHook() {
            @Override
            public String hookName() {
                return "innerBatchChecker";
            }

            @Override
            public PutMessageResult executeBeforePutMessage(MessageExt msg) {
                return msg instanceof MessageExtBrokerInner ? HookUtils.checkInnerBatch(controller, msg) : null;
            }
        });
        store.getPutMessageHookList().add(new PutMessageHook() {
            @Override
            public String hookName() {
                return "handleScheduleMessage";
            }

            @Override
            public PutMessageResult executeBeforePutMessage(MessageExt msg) {
                return msg instanceof MessageExtBrokerInner
                    ? HookUtils.handleScheduleMessage(controller, (MessageExtBrokerInner) msg) : null;
            }
        });
    }

    /** The record a put wrote, checked to be as long as the store says it wrote. */
    byte[] written(String label, PutMessageResult result) {
        if (result == null || !result.isOk() || result.getAppendMessageResult() == null) {
            throw new IllegalStateException(label + ": put failed: " + result);
        }
        byte[] bytes = read(result.getAppendMessageResult().getWroteOffset());
        if (bytes.length != result.getAppendMessageResult().getWroteBytes()) {
            throw new IllegalStateException(label + ": read " + bytes.length + " bytes, wrote "
                + result.getAppendMessageResult().getWroteBytes());
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

    /** Until the dispatch (ReputMessageService) has read every record. */
    void awaitDispatched() throws InterruptedException {
        for (int i = 0; i < 2000 && store.dispatchBehindBytes() > 0; i++) {
            Thread.sleep(10);
        }
        if (store.dispatchBehindBytes() > 0) {
            throw new IllegalStateException("dispatch still " + store.dispatchBehindBytes() + " bytes behind");
        }
    }

    @Override
    public void close() {
        store.shutdown();
        store.destroy();
        timerWheel.shutdown();
    }

    static Object allocateWithoutConstructor(Class<?> type) throws Exception {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        return unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type);
    }

    static void set(Object target, String field, Object value) throws Exception {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(field);
                f.setAccessible(true);
                f.set(target, value);
                return;
            } catch (NoSuchFieldException e) {
                // a superclass's
            }
        }
        throw new IllegalStateException(target.getClass() + " has no field " + field);
    }
}
