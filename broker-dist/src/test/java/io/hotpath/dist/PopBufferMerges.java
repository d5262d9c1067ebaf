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

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The real thread of one side's {@code PopBufferMergeService} (broker module), alone: the service of a
 * {@code BrokerController} that is constructed, not initialized (as upstream's PopBufferMergeServiceTest builds it),
 * over a {@code MessageStore} proxy that stores every checkpoint (PUT_OK) and answers nothing else. Work goes in through
 * the service's public adds (the calls PopMessageProcessor, AckMessageProcessor and ChangeInvisibleTimeProcessor make);
 * what the thread does with it shows as the consumer offset it commits ({@code ConsumerOffsetManager#queryOffset}),
 * which each add's scan commits on stock within its 5 ms.
 */
final class PopBufferMerges {

    /** What /proc shows of the thread name "PopBufferMergeService" (15 bytes). */
    private static final String COMM = "PopBufferMergeS";
    private static final String TOPIC = "hotpath-pop-topic";
    private static final String GROUP = "hotpath-pop-group";
    private static final String BROKER_NAME = "hotpath-pop-broker";
    private static final long START_OFFSET = 100;
    private static final long NEXT_BEGIN_OFFSET = 101;

    private PopBufferMerges() {
    }

    /** How an add reaches the service. */
    enum Add {
        /** addCk, then at once addAk of its one message: the ck is done in the buffer (enablePopBufferMerge). */
        CK_AND_ACK,
        /** addCkJustOffset: the ck stored by the caller, its offset queued (every pop with enablePopBufferMerge off). */
        CK_JUST_OFFSET,
        /** addCkMock: a pop that found nothing queues its offset. */
        CK_MOCK,
        /**
         * addCkMock's work put in place by reflection (its private putOffsetQueue) with no call of addCkMock: an add that
         * wakes nothing, the control of the timing check.
         */
        SILENT_CK_MOCK
    }

    /**
     * A running service of {@code side}; {@code idleWaitMs} sets BrokerConfig#popBufferMergeIdleWaitMs (patched only; null
     * leaves the default).
     */
    static Run start(IsolatedLib side, Integer idleWaitMs) throws Exception {
        if (!tasks().isEmpty()) {
            throw new IllegalStateException("a PopBufferMergeService thread of an earlier run still runs: " + tasks());
        }
        return new Run(side, idleWaitMs);
    }

    /** Add-to-commit times, ms. */
    record Timings(double[] ms) {
        double percentileMs(int p) {
            return NearestRank.percentile(ms, p);
        }

        double maxMs() {
            return Arrays.stream(ms).max().orElseThrow();
        }

        @Override
        public String toString() {
            return String.format("%d adds, p50 %.2f ms, p90 %.2f ms, max %.2f ms %s", ms.length, percentileMs(50), percentileMs(90), maxMs(),
                Arrays.toString(ms));
        }
    }

    static final class Run implements AutoCloseable {
        private final IsolatedLib side;
        private final Path dir;
        private final Object service;
        private final Object offsets;
        private int nextQueueId;
        private boolean shut;

        Run(IsolatedLib side, Integer idleWaitMs) throws Exception {
            this.side = side;
            this.dir = Files.createTempDirectory(BuiltDistributions.target(), "pop-buffer-merge-");
            ClassLoader loader = side.loader;
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            // 5.x's shaded slf4j finds its provider through the context loader; the service's thread inherits it
            thread.setContextClassLoader(loader);
            try {
                Object brokerConfig = newInstance(loader, "org.apache.rocketmq.common.BrokerConfig");
                call(brokerConfig, "setEnablePopBufferMerge", true);
                call(brokerConfig, "setBrokerName", BROKER_NAME);
                if (idleWaitMs != null) {
                    call(brokerConfig, "setPopBufferMergeIdleWaitMs", idleWaitMs.intValue());
                }
                Object storeConfig = newInstance(loader, "org.apache.rocketmq.store.config.MessageStoreConfig");
                call(storeConfig, "setStorePathRootDir", dir.toString());
                Object server = newInstance(loader, "org.apache.rocketmq.remoting.netty.NettyServerConfig");
                Object client = newInstance(loader, "org.apache.rocketmq.remoting.netty.NettyClientConfig");
                Class<?> controllerType = Class.forName("org.apache.rocketmq.broker.BrokerController", true, loader);
                Object controller = controllerType.getConstructor(brokerConfig.getClass(), server.getClass(), client.getClass(),
                    storeConfig.getClass()).newInstance(brokerConfig, server, client, storeConfig);
                Class<?> storeType = Class.forName("org.apache.rocketmq.store.MessageStore", true, loader);
                Object ok = putOk(loader);
                Object store = Proxy.newProxyInstance(loader, new Class<?>[] {storeType}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "putMessage":
                            return ok;
                        case "asyncPutMessage":
                            return CompletableFuture.completedFuture(ok);
                        case "toString":
                            return "hotpath-pop-store";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            return Reflection.defaultValue(method.getReturnType());
                    }
                });
                controllerType.getMethod("setMessageStore", storeType).invoke(controller, store);
                // 5.5.1's scan records its time in the controller's BrokerMetricsManager, which initialize() makes
                if (Stream.of(controllerType.getMethods()).anyMatch(m -> m.getName().equals("setBrokerMetricsManager"))) {
                    Class<?> metricsType = Class.forName("org.apache.rocketmq.broker.metrics.BrokerMetricsManager", true, loader);
                    Object metrics = metricsType.getConstructor(controllerType).newInstance(controller);
                    controllerType.getMethod("setBrokerMetricsManager", metricsType).invoke(controller, metrics);
                }
                // scanGarbage drops the offset queues of unknown topics and groups, scan the cks of unknown groups
                Object topicConfig = Class.forName("org.apache.rocketmq.common.TopicConfig", true, loader)
                    .getConstructor(String.class).newInstance(TOPIC);
                @SuppressWarnings("unchecked")
                Map<String, Object> topics = (Map<String, Object>) call(call(controller, "getTopicConfigManager"),
                    "getTopicConfigTable");
                topics.put(TOPIC, topicConfig);
                Object group = newInstance(loader, "org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig");
                call(group, "setGroupName", GROUP);
                @SuppressWarnings("unchecked")
                Map<String, Object> groups = (Map<String, Object>) call(call(controller, "getSubscriptionGroupManager"),
                    "getSubscriptionGroupTable");
                groups.put(GROUP, group);
                offsets = call(controller, "getConsumerOffsetManager");
                service = call(call(controller, "getPopMessageProcessor"), "getPopBufferMergeService");
                call(service, "start");
            } finally {
                thread.setContextClassLoader(context);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (tasks().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (tasks().size() != 1) {
                throw new IllegalStateException(side + ": expected one PopBufferMergeService thread, found " + tasks());
            }
            // the first add of each kind loads and links its classes (the ck's JSON, the offset manager's maps): hundreds
            // of ms on either side, which is not the thread's wait
            addAtRandomMoments(3, 1, 0, Add.CK_AND_ACK, Add.CK_JUST_OFFSET, Add.CK_MOCK);
        }

        /**
         * {@code count} adds, each of {@code adds} in turn, each after an idle pause drawn from [0, maxPauseMs) with
         * {@code seed} (so that they meet the thread's wait at every phase); returns each one's add-to-commit time.
         */
        Timings addAtRandomMoments(int count, int maxPauseMs, long seed, Add... adds) throws Exception {
            Random random = new Random(seed);
            double[] ms = new double[count];
            for (int i = 0; i < count; i++) {
                Thread.sleep(random.nextInt(maxPauseMs));
                int queueId = nextQueueId++;
                long start = System.nanoTime();
                add(adds[i % adds.length], queueId);
                long deadline = start + TimeUnit.SECONDS.toNanos(10);
                while (committed(queueId) != NEXT_BEGIN_OFFSET) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(side + ": " + adds[i % adds.length] + " on queue " + queueId
                            + " not committed within 10 s");
                    }
                    LockSupport.parkNanos(50_000);
                }
                ms[i] = (System.nanoTime() - start) / 1e6;
            }
            return new Timings(ms);
        }

        private long committed(int queueId) throws Exception {
            return (Long) call(offsets, "queryOffset", GROUP, TOPIC, queueId);
        }

        private void add(Add add, int queueId) throws Exception {
            long popTime = System.currentTimeMillis();
            switch (add) {
                case CK_AND_ACK -> {
                    Object ck = checkPoint(queueId, popTime, 1);
                    expectTrue(call(service, "addCk", ck, 0, -1L, NEXT_BEGIN_OFFSET), "addCk");
                    Object ack = newInstance(side.loader, "org.apache.rocketmq.store.pop.AckMsg");
                    call(ack, "setAckOffset", START_OFFSET);
                    call(ack, "setStartOffset", START_OFFSET);
                    call(ack, "setConsumerGroup", GROUP);
                    call(ack, "setTopic", TOPIC);
                    call(ack, "setQueueId", queueId);
                    call(ack, "setPopTime", popTime);
                    call(ack, "setBrokerName", BROKER_NAME);
                    expectTrue(call(service, "addAk", 0, ack), "addAk");
                }
                case CK_JUST_OFFSET -> expectTrue(call(service, "addCkJustOffset", checkPoint(queueId, popTime, 1), 0, -1L,
                    NEXT_BEGIN_OFFSET), "addCkJustOffset");
                case CK_MOCK -> call(service, "addCkMock", GROUP, TOPIC, queueId, START_OFFSET, 60_000L, popTime, 0,
                    NEXT_BEGIN_OFFSET, BROKER_NAME);
                case SILENT_CK_MOCK -> {
                    Object ck = checkPoint(queueId, popTime, 0);
                    Class<?> wrapperType = Class.forName(service.getClass().getName() + "$PopCheckPointWrapper", true, side.loader);
                    Constructor<?> make = wrapperType.getConstructor(service.getClass(), int.class, long.class, ck.getClass(),
                        long.class, boolean.class);
                    Object wrapper = make.newInstance(service, 0, Long.MAX_VALUE, ck, NEXT_BEGIN_OFFSET, true);
                    call(wrapper, "setCkStored", true);
                    Method putOffsetQueue = service.getClass().getDeclaredMethod("putOffsetQueue", wrapperType);
                    putOffsetQueue.setAccessible(true);
                    putOffsetQueue.invoke(service, wrapper);
                }
                default -> throw new IllegalArgumentException(add.toString());
            }
        }

        private Object checkPoint(int queueId, long popTime, int num) throws Exception {
            Object ck = newInstance(side.loader, "org.apache.rocketmq.store.pop.PopCheckPoint");
            call(ck, "setBitMap", 0);
            call(ck, "setNum", (byte) num);
            call(ck, "setPopTime", popTime);
            // far from revive, so that addCk buffers it (upstream refuses a ck within popCkStayBufferTimeOut + 1.5 s of it)
            call(ck, "setInvisibleTime", 60_000L);
            call(ck, "setStartOffset", START_OFFSET);
            call(ck, "setCId", GROUP);
            call(ck, "setTopic", TOPIC);
            call(ck, "setQueueId", queueId);
            call(ck, "setBrokerName", BROKER_NAME);
            if (num > 0) {
                call(ck, "addDiff", 0);
            }
            return ck;
        }

        /** The thread's wake-ups (voluntary context switches) over {@code windowMs} with nothing to do, per second. */
        double idleWakeUpsPerSecond(long windowMs) throws Exception {
            Thread.sleep(200);
            List<Path> tasks = tasks();
            long before = ThreadTasks.voluntarySwitches(tasks);
            long start = System.nanoTime();
            Thread.sleep(windowMs);
            long after = ThreadTasks.voluntarySwitches(tasks);
            double seconds = (System.nanoTime() - start) / 1e9;
            return (after - before) / seconds;
        }

        /** Stops the thread (shutdown(true), as upstream's test: its 2 s pause before the last scans is interrupted). */
        long shutdownMs() throws Exception {
            long start = System.nanoTime();
            shutdown();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }

        private void shutdown() throws Exception {
            if (shut) {
                return;
            }
            shut = true;
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            thread.setContextClassLoader(side.loader);
            try {
                service.getClass().getMethod("shutdown", boolean.class).invoke(service, true);
            } finally {
                thread.setContextClassLoader(context);
            }
            List<Path> left = ThreadTasks.awaitNoneNamed(COMM, Duration.ofSeconds(10));
            if (!left.isEmpty()) {
                throw new IllegalStateException(side + ": the PopBufferMergeService thread still runs 10 s after shutdown: " + left);
            }
        }

        @Override
        public void close() throws Exception {
            try {
                shutdown();
            } finally {
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    private static void expectTrue(Object result, String what) {
        if (!Boolean.TRUE.equals(result)) {
            throw new IllegalStateException(what + " refused the add: " + result);
        }
    }

    private static Object putOk(ClassLoader loader) throws Exception {
        String pkg = "org.apache.rocketmq.store.";
        Class<?> appendStatus = Class.forName(pkg + "AppendMessageStatus", true, loader);
        Class<?> appendResult = Class.forName(pkg + "AppendMessageResult", true, loader);
        Object appended = appendResult.getConstructor(appendStatus).newInstance(appendStatus.getField("PUT_OK").get(null));
        Class<?> status = Class.forName(pkg + "PutMessageStatus", true, loader);
        return Class.forName(pkg + "PutMessageResult", true, loader).getConstructor(status, appendResult)
            .newInstance(status.getField("PUT_OK").get(null), appended);
    }

    private static Object newInstance(ClassLoader loader, String type) throws ReflectiveOperationException {
        return Class.forName(type, true, loader).getConstructor().newInstance();
    }

    /** Calls the public method {@code name} of {@code target} whose parameters take {@code args}. */
    static Object call(Object target, String name, Object... args) throws Exception {
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(name) && takes(m.getParameterTypes(), args)) {
                try {
                    return m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                }
            }
        }
        throw new NoSuchMethodException(target.getClass().getName() + "#" + name + Arrays.toString(args));
    }

    private static boolean takes(Class<?>[] types, Object[] args) {
        if (types.length != args.length) {
            return false;
        }
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i].isPrimitive() ? Reflection.boxed(types[i]) : types[i];
            if (args[i] != null && !type.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    /** This JVM's tasks named as the service's thread. */
    static List<Path> tasks() {
        return ThreadTasks.named(COMM);
    }
}
