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

import io.hotpath.dist.TimerWheels.Side;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The put threads ({@code TimerDequeuePutMessageService}) of a real 5.5.1 {@code TimerMessageStore} of one side, alone:
 * the store is built over a {@code MessageStore} proxy that answers nothing, marked running as a master's, and its put
 * threads started; each request offered to its {@code dequeuePutQueue} is put through {@code escapeBridgeHook}, which
 * records when. Nothing else of the store runs (no enqueue, no dequeue scan, no flush), so the put threads' wait on
 * their queue is all that is measured.
 */
final class TimerDequeuePuts {

    private static final String PKG = "org.apache.rocketmq.store.";
    private static final String TMS = PKG + "timer.TimerMessageStore";
    /** What /proc shows of the thread name "TimerDequeuePutMessageService" (15 bytes). */
    private static final String COMM = "TimerDequeuePut";
    private static final String SEQ = "hotpath-seq";

    private TimerDequeuePuts() {
    }

    /**
     * A running store of {@code side}; {@code idleWaitMs} sets timerDequeuePutIdleWaitMs (patched only; null leaves the
     * default); {@code queue} replaces the store's dequeuePutQueue (null keeps it).
     */
    static Run start(Side side, Integer idleWaitMs, BlockingQueue<?> queue) throws Exception {
        if (!tasks().isEmpty()) {
            throw new IllegalStateException("put threads of an earlier store still run: " + tasks());
        }
        return new Run(side, idleWaitMs, queue);
    }

    /** Offer-to-put times, ms. */
    record Timings(double[] ms) {
        double percentileMs(int p) {
            return NearestRank.percentile(ms, p);
        }

        double maxMs() {
            return Arrays.stream(ms).max().orElseThrow();
        }

        @Override
        public String toString() {
            return String.format("%d puts, p50 %.2f ms, p90 %.2f ms, max %.2f ms", ms.length, percentileMs(50), percentileMs(90), maxMs());
        }
    }

    static final class Run implements AutoCloseable {
        private final Side side;
        private final Path dir;
        private final Object store;
        private final BlockingQueue<Object> queue;
        private final Map<Integer, Long> putNanos = new ConcurrentHashMap<>();
        private final Class<?> messageExt;
        private final Method putProperty;
        private final Constructor<?> timerRequest;
        private boolean shut;

        @SuppressWarnings("unchecked")
        Run(Side side, Integer idleWaitMs, BlockingQueue<?> replacement) throws Exception {
            this.side = side;
            this.dir = Files.createTempDirectory(BuiltDistributions.target(), "timer-dequeue-put-");
            ClassLoader loader = side.loader;
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            // 5.x's shaded slf4j finds its provider through the context loader; the put threads inherit it
            thread.setContextClassLoader(loader);
            try {
                Class<?> configType = Class.forName(PKG + "config.MessageStoreConfig", true, loader);
                Object config = configType.getConstructor().newInstance();
                configType.getMethod("setStorePathRootDir", String.class).invoke(config, dir.toString());
                configType.getMethod("setMappedFileSizeTimerLog", int.class).invoke(config, 1024 * 1024);
                if (idleWaitMs != null) {
                    configType.getMethod("setTimerDequeuePutIdleWaitMs", int.class).invoke(config, idleWaitMs);
                }
                Class<?> messageStoreType = Class.forName(PKG + "MessageStore", true, loader);
                Object messageStore = Proxy.newProxyInstance(loader, new Class<?>[] {messageStoreType},
                    (proxy, method, args) -> Reflection.defaultValue(method.getReturnType()));
                Object checkpoint = Class.forName(PKG + "timer.TimerCheckpoint", true, loader).getConstructor(String.class)
                    .newInstance(dir.resolve("timercheck").toString());
                Object metrics = Class.forName(PKG + "timer.TimerMetrics", true, loader).getConstructor(String.class)
                    .newInstance(dir.resolve("timermetrics").toString());
                Class<?> tms = Class.forName(TMS, true, loader);
                Class<?> statsType = Class.forName(PKG + "stats.BrokerStatsManager", true, loader);
                store = tms.getConstructor(messageStoreType, configType, checkpoint.getClass(), metrics.getClass(), statsType)
                    .newInstance(messageStore, config, checkpoint, metrics, null);
                if (replacement != null) {
                    Reflection.field(tms, "dequeuePutQueue").set(store, replacement);
                }
                queue = (BlockingQueue<Object>) Reflection.field(tms, "dequeuePutQueue").get(store);
                Reflection.field(tms, "state").setInt(store, tms.getField("RUNNING").getInt(null));
                Reflection.field(tms, "shouldRunningDequeue").setBoolean(store, true);

                Class<?> status = Class.forName(PKG + "PutMessageStatus", true, loader);
                Class<?> appendResult = Class.forName(PKG + "AppendMessageResult", true, loader);
                Object ok = Class.forName(PKG + "PutMessageResult", true, loader).getConstructor(status, appendResult)
                    .newInstance(status.getField("PUT_OK").get(null), null);
                Method getProperty = Class.forName("org.apache.rocketmq.common.message.Message", true, loader)
                    .getMethod("getProperty", String.class);
                Function<Object, Object> hook = msg -> {
                    long now = System.nanoTime();
                    try {
                        putNanos.put(Integer.valueOf((String) getProperty.invoke(msg, SEQ)), now);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                    return ok;
                };
                tms.getMethod("registerEscapeBridgeHook", Function.class).invoke(store, hook);

                messageExt = Class.forName("org.apache.rocketmq.common.message.MessageExt", true, loader);
                putProperty = Class.forName("org.apache.rocketmq.common.message.MessageAccessor", true, loader)
                    .getMethod("putProperty", Class.forName("org.apache.rocketmq.common.message.Message", true, loader),
                        String.class, String.class);
                timerRequest = Class.forName(PKG + "timer.TimerRequest", true, loader)
                    .getConstructor(long.class, int.class, long.class, long.class, int.class, messageExt);

                // the store's own put threads (initService makes every service, none started): only they run
                tms.getMethod("initService").invoke(store);
                Object services = tms.getMethod("getDequeuePutMessageServices").invoke(store);
                for (int i = 0; i < Array.getLength(services); i++) {
                    Object service = Array.get(services, i);
                    service.getClass().getMethod("start").invoke(service);
                }
            } finally {
                thread.setContextClassLoader(context);
            }
            waitForThreads();
        }

        private void waitForThreads() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (tasks().size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (tasks().size() != 3) {
                throw new IllegalStateException(side + ": expected 3 put threads, found " + tasks());
            }
        }

        /**
         * Offers {@code count} requests, each after a pause drawn from [0, maxPauseMs) with {@code seed}, waits for their
         * puts, and returns each one's offer-to-put time.
         */
        Timings offerAtRandomMoments(int count, int maxPauseMs, long seed) throws Exception {
            Random random = new Random(seed);
            long[] offered = new long[count];
            int base = putNanos.size();
            for (int i = 0; i < count; i++) {
                Thread.sleep(random.nextInt(maxPauseMs));
                Object request = request(base + i);
                offered[i] = System.nanoTime();
                if (!queue.offer(request)) {
                    throw new IllegalStateException("queue full");
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (putNanos.size() < base + count && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            double[] ms = new double[count];
            for (int i = 0; i < count; i++) {
                Long put = putNanos.get(base + i);
                if (put == null) {
                    throw new IllegalStateException(side + ": request " + (base + i) + " was not put within 30 s");
                }
                ms[i] = (put - offered[i]) / 1e6;
            }
            return new Timings(ms);
        }

        private Object request(int seq) throws ReflectiveOperationException {
            Object msg = messageExt.getConstructor().newInstance();
            messageExt.getMethod("setTopic", String.class).invoke(msg, "rmq_sys_wheel_timer");
            messageExt.getMethod("setBody", byte[].class).invoke(msg, (Object) new byte[16]);
            putProperty.invoke(null, msg, "REAL_TOPIC", "hotpath-timer-topic");
            putProperty.invoke(null, msg, "REAL_QID", "0");
            putProperty.invoke(null, msg, SEQ, Integer.toString(seq));
            long now = System.currentTimeMillis();
            // MAGIC_DEFAULT (1): no roll, no delete: the message goes to its real topic
            return timerRequest.newInstance(1000L * seq, 100, now, now - 1000, 1, msg);
        }

        /** The put threads' context switches over {@code windowMs} with nothing to do, per thread per second. */
        double idleWakeUpsPerThreadPerSecond(long windowMs) throws Exception {
            Thread.sleep(200);
            List<Path> tasks = tasks();
            long before = ThreadTasks.switches(tasks);
            long start = System.nanoTime();
            Thread.sleep(windowMs);
            long after = ThreadTasks.switches(tasks);
            double seconds = (System.nanoTime() - start) / 1e9;
            return (after - before) / seconds / tasks.size();
        }

        /** Shuts the store down (TimerMessageStore#shutdown) and returns how long it took. */
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
                store.getClass().getMethod("shutdown").invoke(store);
            } finally {
                thread.setContextClassLoader(context);
            }
            List<Path> left = ThreadTasks.awaitNoneNamed(COMM, Duration.ofSeconds(1));
            if (!left.isEmpty()) {
                throw new IllegalStateException(side + ": put threads still run 1 s after shutdown: " + left);
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

    /** This JVM's tasks named as a put thread. */
    static List<Path> tasks() {
        return ThreadTasks.named(COMM);
    }
}
