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
package io.hotpath.dist;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A real {@code ScheduleMessageService} of one side over a real {@code DefaultMessageStore} in a temporary folder under
 * target/, in the side's own class loader (parent: the platform loader, so the test classpath's RocketMQ 4.9.0 stays
 * out), called by reflection. The service is the one a real {@code BrokerController} makes (constructed, not
 * initialized: no server, no client, no other service runs), with the store set on it; the store's HA service is a
 * do-nothing proxy, so nothing listens. Delay-level messages are put into {@code SCHEDULE_TOPIC_XXXX} as the broker's
 * put hook writes them (real topic and queue in properties, queue = level - 1); the store stamps them and computes their
 * due time (tagsCode), the service delivers them into their real topic, where their store timestamp says when.
 */
final class ScheduleLevels {

    static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    static final String REAL_TOPIC = "hotpath-delayed";
    static final String SEQ = "hotpath-seq";
    /** Upstream's default messageDelayLevel: 18 levels, level 1 = 1 s. */
    static final int LEVELS = 18;

    private ScheduleLevels() {
    }

    /** A delivered message: when it was due (its tagsCode) and when it entered its real topic (store timestamp). */
    record Delivery(int seq, long dueMs, long deliveredMs) {
        long latenessMs() {
            return deliveredMs - dueMs;
        }
    }

    static final class Run implements AutoCloseable {
        private final IsolatedLib side;
        private final Path dir;
        private final Object store;
        private final Object service;
        private final Object statsManager;
        private final Object controller;
        private final Class<?> inner;
        private final Method putProperty;
        private final Method properties2String;
        private final Map<Integer, Long> dueBySeq = new ConcurrentHashMap<>();
        private ThreadPoolExecutor replacedExecutor;
        private boolean closed;

        /**
         * A started store and service of {@code side}; {@code idleWaitMs} sets scheduleIdleLevelWaitMs (patched only;
         * null leaves the default); {@code stretchedWaitMs}, when not null, replaces the service's deliver executor by
         * one that stretches every wait longer than 100 ms to that many ms (a control).
         */
        Run(IsolatedLib side, Long idleWaitMs, Long stretchedWaitMs) throws Exception {
            this.side = side;
            this.dir = Files.createTempDirectory(BuiltDistributions.target(), "schedule-levels-");
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            // 5.x's shaded slf4j finds its provider through the context loader; the service's threads inherit it
            thread.setContextClassLoader(side.loader);
            try {
                Class<?> storeConfigType = load("org.apache.rocketmq.store.config.MessageStoreConfig");
                Object storeConfig = storeConfigType.getConstructor().newInstance();
                storeConfigType.getMethod("setStorePathRootDir", String.class).invoke(storeConfig, dir.toString());
                storeConfigType.getMethod("setStorePathCommitLog", String.class).invoke(storeConfig, dir.resolve("commitlog").toString());
                storeConfigType.getMethod("setMappedFileSizeCommitLog", int.class).invoke(storeConfig, 8 * 1024 * 1024);
                storeConfigType.getMethod("setMappedFileSizeConsumeQueue", int.class).invoke(storeConfig, 20 * 1024);
                storeConfigType.getMethod("setMessageIndexEnable", boolean.class).invoke(storeConfig, false);
                // the delivery's statistics reach the broker's metrics manager, which an uninitialized broker has not
                storeConfigType.getMethod("setEnableScheduleMessageStats", boolean.class).invoke(storeConfig, false);
                if (idleWaitMs != null) {
                    storeConfigType.getMethod("setScheduleIdleLevelWaitMs", long.class).invoke(storeConfig, idleWaitMs);
                }
                Class<?> brokerConfigType = load("org.apache.rocketmq.common.BrokerConfig");
                Object brokerConfig = brokerConfigType.getConstructor().newInstance();
                brokerConfigType.getMethod("setBrokerIP1", String.class).invoke(brokerConfig, "127.0.0.1");
                Class<?> serverConfigType = load("org.apache.rocketmq.remoting.netty.NettyServerConfig");
                Class<?> clientConfigType = load("org.apache.rocketmq.remoting.netty.NettyClientConfig");
                Class<?> controllerType = load("org.apache.rocketmq.broker.BrokerController");
                controller = controllerType.getConstructor(brokerConfigType, serverConfigType, clientConfigType, storeConfigType)
                    .newInstance(brokerConfig, serverConfigType.getConstructor().newInstance(), null, storeConfig);
                statsManager = controllerType.getMethod("getBrokerStatsManager").invoke(controller);

                Class<?> storeType = load("org.apache.rocketmq.store.DefaultMessageStore");
                Class<?> statsType = load("org.apache.rocketmq.store.stats.BrokerStatsManager");
                Class<?> listenerType = load("org.apache.rocketmq.store.MessageArrivingListener");
                store = storeType.getConstructor(storeConfigType, statsType, listenerType, brokerConfigType, java.util.concurrent.ConcurrentMap.class)
                    .newInstance(storeConfig, statsManager, null, brokerConfig, new ConcurrentHashMap<>());
                // no HA: the service would listen on every interface (upstream has no host setting)
                Class<?> haType = load("org.apache.rocketmq.store.ha.HAService");
                Reflection.field(storeType, "haService").set(store, Proxy.newProxyInstance(side.loader, new Class<?>[] {haType},
                    (proxy, method, args) -> quiet(method.getReturnType())));
                if (!(Boolean) storeType.getMethod("load").invoke(store)) {
                    throw new IllegalStateException(side + ": the store did not load");
                }
                storeType.getMethod("start").invoke(store);
                controllerType.getMethod("setMessageStore", load("org.apache.rocketmq.store.MessageStore")).invoke(controller, store);

                service = controllerType.getMethod("getScheduleMessageService").invoke(controller);
                service.getClass().getMethod("start").invoke(service);
                if (stretchedWaitMs != null) {
                    stretchWaits(stretchedWaitMs);
                }
                inner = load("org.apache.rocketmq.common.message.MessageExtBrokerInner");
                Class<?> message = load("org.apache.rocketmq.common.message.Message");
                putProperty = load("org.apache.rocketmq.common.message.MessageAccessor")
                    .getMethod("putProperty", message, String.class, String.class);
                properties2String = load("org.apache.rocketmq.common.message.MessageDecoder")
                    .getMethod("messageProperties2String", Map.class);
            } finally {
                thread.setContextClassLoader(context);
            }
        }

        private Class<?> load(String name) throws ClassNotFoundException {
            return Class.forName(name, true, side.loader);
        }

        /** The control: the service's deliver executor replaced by one that stretches every wait over 100 ms. */
        private void stretchWaits(long stretchedWaitMs) throws Exception {
            Field executor = Reflection.field(service.getClass(), "deliverExecutorService");
            ScheduledThreadPoolExecutor original = (ScheduledThreadPoolExecutor) executor.get(service);
            ScheduledThreadPoolExecutor stretching = new ScheduledThreadPoolExecutor(LEVELS) {
                @Override
                public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
                    return super.schedule(command, unit.toMillis(delay) > 100 ? stretchedWaitMs : unit.toMillis(delay),
                        TimeUnit.MILLISECONDS);
                }

            };
            executor.set(service, stretching);
            replacedExecutor = original;
            // the first look of each level is already scheduled on the original; it runs after shutdown (the default
            // policy for delayed tasks) and schedules its successor on the stretching executor
            original.shutdown();
        }

        /**
         * Puts a message of delay level {@code level} for {@link #REAL_TOPIC} into the schedule topic; the store stamps it
         * and computes its due time. Returns that due time (store timestamp + the level's delay, as the store computes it).
         */
        long putDelayed(int seq, int level, long levelDelayMs) throws Exception {
            Object msg = inner.getConstructor().newInstance();
            inner.getMethod("setTopic", String.class).invoke(msg, SCHEDULE_TOPIC);
            inner.getMethod("setQueueId", int.class).invoke(msg, level - 1);
            inner.getMethod("setBody", byte[].class).invoke(msg, (Object) ("delayed " + seq).getBytes(StandardCharsets.UTF_8));
            putProperty.invoke(null, msg, "REAL_TOPIC", REAL_TOPIC);
            putProperty.invoke(null, msg, "REAL_QID", "0");
            putProperty.invoke(null, msg, "DELAY", Integer.toString(level));
            putProperty.invoke(null, msg, SEQ, Integer.toString(seq));
            Map<?, ?> properties = (Map<?, ?>) inner.getMethod("getProperties").invoke(msg);
            inner.getMethod("setPropertiesString", String.class).invoke(msg, properties2String.invoke(null, properties));
            InetSocketAddress host = new InetSocketAddress("127.0.0.1", 10911);
            inner.getMethod("setBornHost", java.net.SocketAddress.class).invoke(msg, host);
            inner.getMethod("setStoreHost", java.net.SocketAddress.class).invoke(msg, host);
            inner.getMethod("setBornTimestamp", long.class).invoke(msg, System.currentTimeMillis());
            Object result = inside(() -> store.getClass().getMethod("putMessage", inner).invoke(store, msg));
            Object status = result.getClass().getMethod("getPutMessageStatus").invoke(result);
            if (!"PUT_OK".equals(status.toString())) {
                throw new IllegalStateException(side + ": put of delayed message " + seq + ": " + status);
            }
            Object append = result.getClass().getMethod("getAppendMessageResult").invoke(result);
            long storeMs = (Long) append.getClass().getMethod("getStoreTimestamp").invoke(append);
            long due = storeMs + levelDelayMs;
            dueBySeq.put(seq, due);
            return due;
        }

        /** Every message of {@link #REAL_TOPIC} so far, each with the due time of its delayed original. */
        List<Delivery> deliveries() throws Exception {
            return inside(() -> {
                List<Delivery> found = new ArrayList<>();
                long max = (Long) store.getClass().getMethod("getMaxOffsetInQueue", String.class, int.class).invoke(store, REAL_TOPIC, 0);
                Object cq = store.getClass().getMethod("getConsumeQueue", String.class, int.class).invoke(store, REAL_TOPIC, 0);
                for (long offset = 0; offset < max; offset++) {
                    Object unit = cq.getClass().getMethod("get", long.class).invoke(cq, offset);
                    long pos = (Long) unit.getClass().getMethod("getPos").invoke(unit);
                    int size = (Integer) unit.getClass().getMethod("getSize").invoke(unit);
                    Object ext = store.getClass().getMethod("lookMessageByOffset", long.class, int.class).invoke(store, pos, size);
                    int seq = Integer.parseInt((String) ext.getClass().getMethod("getProperty", String.class).invoke(ext, SEQ));
                    long delivered = (Long) ext.getClass().getMethod("getStoreTimestamp").invoke(ext);
                    found.add(new Delivery(seq, dueBySeq.get(seq), delivered));
                }
                return found;
            });
        }

        /** The levels' task runs so far: the deliver executor's completed tasks. */
        long completedTasks() throws Exception {
            return ((ThreadPoolExecutor) Reflection.field(service.getClass(), "deliverExecutorService").get(service)).getCompletedTaskCount();
        }

        @Override
        public String toString() {
            return side.toString();
        }

        private <T> T inside(Callable<T> call) throws Exception {
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            thread.setContextClassLoader(side.loader);
            try {
                return call.call();
            } finally {
                thread.setContextClassLoader(context);
            }
        }

        @Override
        public void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            try {
                inside(() -> {
                    try {
                        service.getClass().getMethod("shutdown").invoke(service);
                    } finally {
                        if (replacedExecutor != null) {
                            replacedExecutor.shutdownNow();
                        }
                        try {
                            store.getClass().getMethod("shutdown").invoke(store);
                        } finally {
                            statsManager.getClass().getMethod("shutdown").invoke(statsManager);
                            // what the constructors started and nothing here stops: the broker's consumer-change
                            // listener (BrokerController#shutdown would) and 5.5.1's RocksDB storage's flush scheduler
                            // (its store's shutdown leaves it)
                            Object listener = Reflection.field(controller.getClass(), "consumerIdsChangeListener").get(controller);
                            listener.getClass().getMethod("shutdown").invoke(listener);
                            Object rocksDb = optionalField(store, "messageRocksDBStorage");
                            Object scheduler = rocksDb == null ? null : optionalField(rocksDb, "scheduler");
                            if (scheduler instanceof ExecutorService executor) {
                                executor.shutdownNow();
                            }
                        }
                    }
                    return null;
                });
            } finally {
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    /** The value of {@code name} of {@code target} (declared by its class or a superclass), null when it has none. */
    private static Object optionalField(Object target, String name) throws IllegalAccessException {
        try {
            return Reflection.field(target.getClass(), name).get(target);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /** What the do-nothing HA service answers: zero, false, fresh counters, null. */
    private static Object quiet(Class<?> type) {
        if (type == AtomicLong.class) {
            return new AtomicLong();
        }
        if (type == AtomicInteger.class) {
            return new AtomicInteger();
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == Map.class || type == HashMap.class) {
            return new HashMap<>();
        }
        return null;
    }

    /** The latenesses of {@code deliveries}, sorted, for reports. */
    static String latenesses(List<Delivery> deliveries) {
        long[] ms = deliveries.stream().mapToLong(Delivery::latenessMs).sorted().toArray();
        return Arrays.toString(ms);
    }
}
