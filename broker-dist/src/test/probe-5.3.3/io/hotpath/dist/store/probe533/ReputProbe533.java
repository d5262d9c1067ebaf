/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.dist.store.probe533;

import io.hotpath.dist.store.shared.LoopbackStores;
import io.hotpath.dist.store.shared.ReputProbe;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageBatch;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.CommitLogDispatcher;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageArrivingListener;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * Patch 0007's probe: a REAL {@code DefaultMessageStore} of the distribution this class loader holds (no broker, no
 * put hooks: the puts go to the store as a broker's send processor hands them over), small files so that a run rolls
 * the CommitLog and the consume queues. Compiled against the stock lib/ ({@code Probe533Classes}); the patch's switch is
 * set the way a broker's configuration file sets it, by name ({@code MixAll.properties2Object}).
 */
public final class ReputProbe533 implements ReputProbe {

    private static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    private static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 50123);
    private static final long BORN_TIMESTAMP = 1_700_000_000_000L;
    private static final String REPUT_THREAD = "ReputMessageSer"; // the kernel's 15 characters of the thread's name

    @Override
    public ReputRun putAll(String root, Map<String, String> settings, List<ReputPut> puts, int skipConsumeQueueDispatch) throws Exception {
        List<Long> dispatchOrder = new ArrayList<>();
        DefaultMessageStore store = start(root, settings, (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { });
        List<Long> offsets = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        try {
            // the reput thread appends here, in dispatch order, after the consume queue and the index took the request
            store.getDispatcherList().addLast(request -> {
                synchronized (dispatchOrder) {
                    dispatchOrder.add(request.getCommitLogOffset());
                }
            });
            if (skipConsumeQueueDispatch >= 0) {
                CommitLogDispatcher consumeQueue = store.getDispatcherList().removeFirst();
                int[] calls = {0};
                store.getDispatcherList().addFirst(request -> {
                    if (calls[0]++ != skipConsumeQueueDispatch) {
                        consumeQueue.dispatch(request);
                    }
                });
            }
            for (ReputPut put : puts) {
                if (put.pauseMicros() > 0) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(put.pauseMicros()));
                }
                PutMessageResult result = put.batch() > 1 ? store.putMessages(batch(put)) : store.putMessage(single(put));
                if (result == null || !result.isOk()) {
                    throw new IllegalStateException("put failed: " + result + " for " + put);
                }
                AppendMessageResult append = result.getAppendMessageResult();
                long offset = append.getWroteOffset();
                for (int i = 0; i < append.getMsgNum(); i++) {
                    int size = recordSize(store, offset);
                    offsets.add(offset);
                    sizes.add(size);
                    offset += size;
                }
            }
            for (int i = 0; i < 2000 && store.dispatchBehindBytes() > 0; i++) {
                Thread.sleep(5);
            }
            if (store.dispatchBehindBytes() > 0) {
                throw new IllegalStateException("dispatch still " + store.dispatchBehindBytes() + " bytes behind");
            }
            // the reput has dispatched everything; it appended its last offset after the index and the consume queue
            // took the request. Both write through the page cache (the queues by FileChannel, the index by its
            // mapping), which a read sees without a flush.
            synchronized (dispatchOrder) {
                return new ReputRun(files(Path.of(root, "consumequeue")), files(Path.of(root, "index")), offsets, sizes,
                    new ArrayList<>(dispatchOrder));
            }
        } finally {
            closeInBackground(store);
        }
    }

    /**
     * DefaultMessageStore#shutdown sleeps 3 s before it stops the services: done on a daemon thread so that a test's
     * stores do not add 3 s each (their directories are under the build's target/).
     */
    private static void closeInBackground(DefaultMessageStore store) {
        Thread close = new Thread(() -> {
            store.shutdown();
            store.destroy();
        }, CLOSE_THREAD);
        close.setDaemon(true);
        close.start();
    }

    @Override
    public long[] arrivalDelaysMicros(String root, Map<String, String> settings, int count, int pauseMs, boolean dropWakeUps)
        throws Exception {
        String topic = "reput-latency";
        Map<Long, Long> arrivedAt = new ConcurrentHashMap<>();
        DefaultMessageStore store = start(root, settings, (t, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> {
            if (t.equals(topic)) {
                arrivedAt.putIfAbsent(logicOffset, System.nanoTime());
            }
        });
        Object running = field(store, "reputMessageService");
        try {
            if (dropWakeUps) {
                // a ReputMessageService that is not running takes every wake-up; the running one reads the same store
                Constructor<?> make = running.getClass().getDeclaredConstructor(DefaultMessageStore.class);
                make.setAccessible(true);
                set(store, "reputMessageService", make.newInstance(store));
            }
            long[] delays = new long[count];
            for (int i = 0; i < count; i++) {
                Thread.sleep(pauseMs);
                ReputPut put = new ReputPut(topic, 0, 1, 64, "TagL", List.of("k" + i), null, Map.of(), 0);
                long before = System.nanoTime();
                PutMessageResult result = store.putMessage(single(put));
                if (result == null || !result.isOk()) {
                    throw new IllegalStateException("put failed: " + result);
                }
                long logicOffset = i + 1; // the listener is told the queue's max offset after this message
                long deadline = before + TimeUnit.SECONDS.toNanos(10);
                Long at;
                while ((at = arrivedAt.get(logicOffset)) == null && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(20_000);
                }
                if (at == null) {
                    throw new IllegalStateException("message " + i + " not dispatched within 10 s");
                }
                delays[i] = Math.max(0, TimeUnit.NANOSECONDS.toMicros(at - before));
            }
            return delays;
        } finally {
            set(store, "reputMessageService", running);
            closeInBackground(store);
        }
    }

    @Override
    public long idleReputContextSwitches(String root, Map<String, String> settings, long settleMs, long windowMs) throws Exception {
        Set<Path> before = tasksNamed(REPUT_THREAD);
        DefaultMessageStore store = start(root, settings, (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { });
        try {
            Thread.sleep(settleMs);
            Set<Path> ours = tasksNamed(REPUT_THREAD);
            ours.removeAll(before);
            if (ours.size() != 1) {
                throw new IllegalStateException("expected one new " + REPUT_THREAD + " thread, found " + ours);
            }
            Path task = ours.iterator().next();
            long first = contextSwitches(task);
            Thread.sleep(windowMs);
            return contextSwitches(task) - first;
        } finally {
            closeInBackground(store);
        }
    }

    @Override
    public Boolean reputWakeOnAppend(Map<String, String> settings) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        MixAll.properties2Object(properties(settings), config);
        try {
            return (Boolean) config.getClass().getMethod("isReputWakeOnAppend").invoke(config);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static DefaultMessageStore start(String root, Map<String, String> settings, MessageArrivingListener listener) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root);
        config.setStorePathCommitLog(root + "/commitlog");
        config.setMappedFileSizeCommitLog(256 * 1024);
        config.setMappedFileSizeConsumeQueue(64 * 20);
        config.setMaxIndexNum(1500); // ~2,400 index entries: the index rolls to a second file
        config.setMaxHashSlotNum(500);
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        config.setBrokerRole(BrokerRole.ASYNC_MASTER);
        config.setHaListenPort(0); // ephemeral: never collides with a broker on this machine
        MixAll.properties2Object(properties(settings), config);
        BrokerConfig brokerConfig = new BrokerConfig();
        brokerConfig.setBrokerClusterName(Probe533Store.CLUSTER);
        brokerConfig.setBrokerName(Probe533Store.BROKER_NAME);
        brokerConfig.setBrokerIP1(STORE_HOST.getHostString());
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager(Probe533Store.CLUSTER, true), listener,
            brokerConfig, new ConcurrentHashMap<>());
        Probe533Store.set(store, "haService", new LoopbackHaService());
        if (!store.load()) {
            throw new IllegalStateException("store did not load " + root);
        }
        List<InetSocketAddress> listening = LoopbackStores.listening();
        store.start();
        try {
            LoopbackStores.requireLoopbackOnly("the reput probe's store", listening);
        } catch (IllegalStateException e) {
            store.shutdown();
            store.destroy();
            throw e;
        }
        return store;
    }

    private static Properties properties(Map<String, String> settings) {
        Properties p = new Properties();
        p.putAll(settings);
        return p;
    }

    private static MessageExtBrokerInner single(ReputPut put) {
        Message m = message(put, 0);
        MessageExtBrokerInner inner = new MessageExtBrokerInner();
        inner.setTopic(put.topic());
        inner.setQueueId(put.queueId());
        inner.setBody(m.getBody());
        inner.setFlag(m.getFlag());
        MessageAccessor.setProperties(inner, m.getProperties());
        inner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(TopicFilterType.SINGLE_TAG, inner.getTags()));
        inner.setBornTimestamp(BORN_TIMESTAMP);
        inner.setBornHost(BORN_HOST);
        inner.setStoreHost(STORE_HOST);
        MessageAccessor.putProperty(inner, MessageConst.PROPERTY_CLUSTER, Probe533Store.CLUSTER);
        inner.setPropertiesString(MessageDecoder.messageProperties2String(inner.getProperties()));
        return inner;
    }

    private static MessageExtBatch batch(ReputPut put) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < put.batch(); i++) {
            messages.add(message(put, i));
        }
        MessageBatch batch = MessageBatch.generateFromList(messages);
        batch.setBody(batch.encode());
        MessageExtBatch ext = new MessageExtBatch();
        ext.setTopic(put.topic());
        ext.setQueueId(put.queueId());
        ext.setFlag(batch.getFlag());
        MessageAccessor.setProperties(ext, MessageDecoder.string2messageProperties(MessageDecoder.messageProperties2String(batch.getProperties())));
        ext.setBody(batch.getBody());
        ext.setBornTimestamp(BORN_TIMESTAMP);
        ext.setBornHost(BORN_HOST);
        ext.setStoreHost(STORE_HOST);
        MessageAccessor.putProperty(ext, MessageConst.PROPERTY_CLUSTER, Probe533Store.CLUSTER);
        return ext;
    }

    /** The client's message: the {@code Message} constructor (TAGS, KEYS, WAIT), UNIQ_KEY, the user properties. */
    private static Message message(ReputPut put, int index) {
        byte[] body = new byte[put.bodyBytes()];
        Arrays.fill(body, (byte) ('a' + index % 26));
        Message m = new Message(put.topic(), put.tags(), String.join(MessageConst.KEY_SEPARATOR, put.keys()), body);
        if (put.uniqKey() != null) {
            MessageAccessor.putProperty(m, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, put.uniqKey() + "-" + index);
        }
        put.userProperties().forEach(m::putUserProperty);
        return m;
    }

    private static int recordSize(DefaultMessageStore store, long offset) {
        SelectMappedBufferResult selected = store.selectOneMessageByOffset(offset);
        try {
            ByteBuffer buffer = selected.getByteBuffer();
            return buffer.getInt(buffer.position());
        } finally {
            selected.release();
        }
    }

    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
                out.put(dir.getParent().relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return out;
    }

    /** This JVM's threads whose kernel name ({@code comm}, a Java thread name's first 15 characters) is {@code comm}. */
    private static Set<Path> tasksNamed(String comm) throws IOException {
        Set<Path> tasks = new HashSet<>();
        try (Stream<Path> list = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : list.toList()) {
                try {
                    if (Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim().equals(comm)) {
                        tasks.add(task);
                    }
                } catch (IOException gone) {
                    // a thread that ended meanwhile
                }
            }
        }
        return tasks;
    }

    private static long contextSwitches(Path task) throws IOException {
        long total = 0;
        for (String line : Files.readAllLines(task.resolve("status"), StandardCharsets.UTF_8)) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return total;
    }

    private static Object field(Object target, String name) throws Exception {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // a superclass's
            }
        }
        throw new IllegalStateException(target.getClass() + " has no field " + name);
    }

    private static void set(Object target, String name, Object value) throws Exception {
        Probe533Store.set(target, name, value);
    }
}
