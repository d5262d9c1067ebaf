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

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code org.apache.rocketmq.broker.latency.BrokerFastFailure} of one side, running alone: built on a real
 * {@code BrokerController} (constructed from default configs, never started, so its queues and configs are the
 * broker's own) whose {@code MessageStore} is a proxy, and started. The proxy holds no lock unless a test simulates a put
 * that holds it, and is OS-page-cache busy by DefaultMessageStore's rule (the lock held longer than
 * osPageCacheBusyTimeOutMills). Requests go into
 * the controller's send queue as the remoting layer puts them there ({@code FutureTaskExt} around a {@code RequestTask}
 * built just before), each with a {@code Channel} proxy that records when its response is written. Each run of the
 * clean asks the store {@code isOSPageCacheBusy()} once (fast failure is on by default), so the proxy counts the runs.
 */
final class BrokerFastFailures {

    /** RemotingSysResponseCode.SYSTEM_BUSY. */
    static final int SYSTEM_BUSY = 2;
    private static final String TIMEOUT_REMARK = "[TIMEOUT_CLEAN_QUEUE]";
    private static final String BUSY_REMARK = "[PCBUSY_CLEAN_QUEUE]";
    private static final String CLEAN_THREAD = "BrokerFastFailureScheduledThread";

    private BrokerFastFailures() {
    }

    /** What became of one request: when it was built and answered, and how. */
    record Answer(long createTimestampMs, long builtNanos, long answeredMs, long answeredNanos, int code, String remark) {
    }

    /**
     * Per request, the time from {@code from} (its deadline, built + maxWait; or its offer) to its answer, ms; and how many
     * were answered before their deadline by the broker's own rule (wall-clock ms since createTimestamp below maxWait) or
     * not as {@code SYSTEM_BUSY} with the expected remark.
     */
    record Timings(String from, double[] ms, int early, int unexpected) {
        double percentileMs(int p) {
            return NearestRank.percentile(ms, p);
        }

        double maxMs() {
            return Arrays.stream(ms).max().orElseThrow();
        }

        @Override
        public String toString() {
            return String.format("%d answers, %s to answer p50 %.2f ms, p90 %.2f ms, max %.2f ms, %d before the deadline,"
                + " %d unexpected", ms.length, from, percentileMs(50), percentileMs(90), maxMs(), early, unexpected);
        }
    }

    /**
     * What a run changes of the broker's defaults: brokerFastFailureIdleMaxWaitMs (patched only), waitTimeMillsInSendQueue
     * and osPageCacheBusyTimeOutMills (null: the default); the controller's send queue (null: its own); and whether the
     * store's lockTimeMills() hides a held lock (always 0; only the patched clean asks it).
     */
    record Setup(Long idleMaxWaitMs, Long sendMaxWaitMs, Long osPageCacheBusyTimeOutMs, BlockingQueue<Runnable> sendQueue,
        boolean lockHidden) {
        static Setup defaults() {
            return new Setup(null, null, null, null, false);
        }

        static Setup idleMaxWait(long ms) {
            return defaults().withIdleMaxWait(ms);
        }

        Setup withIdleMaxWait(long ms) {
            return new Setup(ms, sendMaxWaitMs, osPageCacheBusyTimeOutMs, sendQueue, lockHidden);
        }

        Setup withSendQueue(BlockingQueue<Runnable> queue) {
            return new Setup(idleMaxWaitMs, sendMaxWaitMs, osPageCacheBusyTimeOutMs, queue, lockHidden);
        }

        Setup withBusyStore(long sendMaxWait, long osPageCacheBusyTimeOut) {
            return new Setup(idleMaxWaitMs, sendMaxWait, osPageCacheBusyTimeOut, sendQueue, lockHidden);
        }

        Setup withLockHidden() {
            return new Setup(idleMaxWaitMs, sendMaxWaitMs, osPageCacheBusyTimeOutMs, sendQueue, true);
        }
    }

    /** A started BrokerFastFailure of {@code side}, set up as {@code setup} says. */
    static Run start(IsolatedLib side, Setup setup) throws Exception {
        if (!cleanThreads().isEmpty()) {
            throw new IllegalStateException("the clean of an earlier run still runs: " + cleanThreads());
        }
        return new Run(side, setup);
    }

    static final class Run implements AutoCloseable {
        private final IsolatedLib side;
        private final Path dir;
        private final Object controller;
        private final Object fastFailure;
        private final BlockingQueue<Runnable> sendQueue;
        private final long sendMaxWaitMs;
        private final long busyTimeOutMs;
        private final AtomicLong runs = new AtomicLong();
        /** When the simulated put took the CommitLog's lock (CommitLog#beginTimeInLock), 0 while none holds it. */
        private volatile long lockBeginMs;
        private final Map<Integer, Answer> answers = new ConcurrentHashMap<>();
        private final Map<Integer, long[]> built = new ConcurrentHashMap<>();
        private final Object channel;
        private final Method createRequest;
        private final Method getOpaque;
        private final Constructor<?> requestTask;
        private final Constructor<?> futureTaskExt;
        private final Method getCreateTimestamp;
        private boolean closed;

        @SuppressWarnings("unchecked")
        private Run(IsolatedLib side, Setup setup) throws Exception {
            this.side = side;
            this.dir = Files.createTempDirectory(BuiltDistributions.target(), "broker-fast-failure-");
            ClassLoader loader = side.loader;
            Object controllerBuilt = null;
            Object fastFailureBuilt = null;
            try {
                Object[] made = inside(side, () -> {
                    Class<?> brokerConfigType = Class.forName("org.apache.rocketmq.common.BrokerConfig", true, loader);
                    Object brokerConfig = brokerConfigType.getConstructor().newInstance();
                    if (setup.idleMaxWaitMs() != null) {
                        brokerConfigType.getMethod("setBrokerFastFailureIdleMaxWaitMs", long.class).invoke(brokerConfig, setup.idleMaxWaitMs());
                    }
                    if (setup.sendMaxWaitMs() != null) {
                        brokerConfigType.getMethod("setWaitTimeMillsInSendQueue", long.class).invoke(brokerConfig, setup.sendMaxWaitMs());
                    }
                    Class<?> storeConfigType = Class.forName("org.apache.rocketmq.store.config.MessageStoreConfig", true, loader);
                    Object storeConfig = storeConfigType.getConstructor().newInstance();
                    storeConfigType.getMethod("setStorePathRootDir", String.class).invoke(storeConfig, dir.toString());
                    if (setup.osPageCacheBusyTimeOutMs() != null) {
                        storeConfigType.getMethod("setOsPageCacheBusyTimeOutMills", long.class)
                            .invoke(storeConfig, setup.osPageCacheBusyTimeOutMs());
                    }
                    long busyTimeOutMs = (Long) storeConfigType.getMethod("getOsPageCacheBusyTimeOutMills").invoke(storeConfig);
                    Class<?> serverConfigType = Class.forName("org.apache.rocketmq.remoting.netty.NettyServerConfig", true, loader);
                    Class<?> clientConfigType = Class.forName("org.apache.rocketmq.remoting.netty.NettyClientConfig", true, loader);
                    Class<?> controllerType = Class.forName("org.apache.rocketmq.broker.BrokerController", true, loader);
                    // no client config: the controller makes no BrokerOuterAPI (no remoting client)
                    Object c = controllerType.getConstructor(brokerConfigType, serverConfigType, clientConfigType, storeConfigType)
                        .newInstance(brokerConfig, serverConfigType.getConstructor().newInstance(), null, storeConfig);
                    Class<?> storeType = Class.forName("org.apache.rocketmq.store.MessageStore", true, loader);
                    Object store = Proxy.newProxyInstance(loader, new Class<?>[] {storeType}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "isOSPageCacheBusy": {
                                runs.incrementAndGet();
                                // DefaultMessageStore's rule: a put has held the CommitLog's lock longer than the timeout
                                long diff = System.currentTimeMillis() - lockBeginMs;
                                return diff < 10000000 && diff > busyTimeOutMs;
                            }
                            case "lockTimeMills": {
                                long begin = lockBeginMs;
                                return begin > 0 && !setup.lockHidden() ? Math.max(0L, System.currentTimeMillis() - begin) : 0L;
                            }
                            case "hashCode":
                                return System.identityHashCode(proxy);
                            case "equals":
                                return proxy == args[0];
                            case "toString":
                                return "fake MessageStore";
                            default:
                                throw new UnsupportedOperationException("MessageStore#" + method.getName());
                        }
                    });
                    controllerType.getMethod("setMessageStore", storeType).invoke(c, store);
                    if (setup.sendQueue() != null) {
                        Field queue = controllerType.getDeclaredField("sendThreadPoolQueue");
                        queue.setAccessible(true);
                        queue.set(c, setup.sendQueue());
                    }
                    Class<?> fastFailureType = Class.forName("org.apache.rocketmq.broker.latency.BrokerFastFailure", true, loader);
                    Object f = fastFailureType.getConstructor(controllerType).newInstance(c);
                    return new Object[] {c, f, brokerConfigType.getMethod("getWaitTimeMillsInSendQueue").invoke(brokerConfig), busyTimeOutMs};
                });
                controllerBuilt = made[0];
                fastFailureBuilt = made[1];
                this.sendMaxWaitMs = (Long) made[2];
                this.busyTimeOutMs = (Long) made[3];
                this.sendQueue = (BlockingQueue<Runnable>) controllerBuilt.getClass().getMethod("getSendThreadPoolQueue").invoke(controllerBuilt);

                Class<?> command = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, loader);
                Class<?> header = Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, loader);
                this.createRequest = command.getMethod("createRequestCommand", int.class, header);
                this.getOpaque = command.getMethod("getOpaque");
                Method getCode = command.getMethod("getCode");
                Method getRemark = command.getMethod("getRemark");
                Class<?> channelType = Class.forName("io.netty.channel.Channel", true, loader);
                this.channel = Proxy.newProxyInstance(loader, new Class<?>[] {channelType}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "writeAndFlush": {
                            long nanos = System.nanoTime();
                            long ms = System.currentTimeMillis();
                            Object response = args[0];
                            int opaque = (Integer) getOpaque.invoke(response);
                            long[] when = built.get(opaque);
                            answers.putIfAbsent(opaque, new Answer(when == null ? -1 : when[0], when == null ? -1 : when[1], ms, nanos,
                                (Integer) getCode.invoke(response), (String) getRemark.invoke(response)));
                            return null;
                        }
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        case "toString":
                            return "recording Channel";
                        default:
                            throw new UnsupportedOperationException("Channel#" + method.getName());
                    }
                });
                Class<?> task = Class.forName("org.apache.rocketmq.remoting.netty.RequestTask", true, loader);
                this.requestTask = task.getConstructor(Runnable.class, channelType, command);
                this.getCreateTimestamp = task.getMethod("getCreateTimestamp");
                this.futureTaskExt = Class.forName("org.apache.rocketmq.common.future.FutureTaskExt", true, loader)
                    .getConstructor(Runnable.class, Object.class);

                Object startOn = fastFailureBuilt;
                inside(side, () -> startOn.getClass().getMethod("start").invoke(startOn));
            } catch (Exception | Error e) {
                stop(side, controllerBuilt, fastFailureBuilt);
                deleteDir();
                throw e;
            }
            this.controller = controllerBuilt;
            this.fastFailure = fastFailureBuilt;
            waitForFirstRun();
        }

        /** Both sides' clean first runs 1 s after start (upstream's initial delay). */
        private void waitForFirstRun() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (runs.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (runs.get() == 0) {
                throw new IllegalStateException(side + ": BrokerFastFailure did not run within 10 s of its start");
            }
        }

        long sendMaxWaitMs() {
            return sendMaxWaitMs;
        }

        /**
         * Offers {@code count} send requests, each after a pause drawn from [0, maxPauseMs) with {@code seed} (every
         * {@code idleEvery}-th after {@code idlePauseMs} instead, so that it meets a clean that has been idle), waits for
         * their answers and returns, per request, its deadline-to-answer time.
         */
        Timings offerAtRandomMoments(int count, int maxPauseMs, int idleEvery, long idlePauseMs, long seed) throws Exception {
            Random random = new Random(seed);
            List<Integer> opaques = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Thread.sleep(i % idleEvery == 0 ? idlePauseMs : random.nextInt(maxPauseMs));
                opaques.add(offer());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!answers.keySet().containsAll(opaques) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            double[] late = new double[count];
            int early = 0;
            int notTimeout = 0;
            for (int i = 0; i < count; i++) {
                Answer answer = answers.get(opaques.get(i));
                if (answer == null) {
                    throw new IllegalStateException(side + ": request " + opaques.get(i) + " was not answered within 10 s of the last offer");
                }
                late[i] = (answer.answeredNanos() - answer.builtNanos()) / 1e6 - sendMaxWaitMs;
                if (answer.answeredMs() - answer.createTimestampMs() < sendMaxWaitMs) {
                    early++;
                }
                if (answer.code() != SYSTEM_BUSY || answer.remark() == null || !answer.remark().startsWith(TIMEOUT_REMARK)) {
                    notTimeout++;
                }
            }
            return new Timings("deadline", late, early, notTimeout);
        }

        /**
         * {@code trials} times: after an idle pause drawn from [0, maxPauseMs), a put takes the lock and holds it until
         * the store has been OS-page-cache busy for a moment drawn from [1, 30] ms, when a send request arrives; returns,
         * per request, the time from its offer to its answer, which must be a [PCBUSY_CLEAN_QUEUE] SYSTEM_BUSY.
         */
        Timings busyDrains(int trials, int maxPauseMs, long seed) throws Exception {
            Random random = new Random(seed);
            double[] ms = new double[trials];
            int unexpected = 0;
            for (int i = 0; i < trials; i++) {
                Thread.sleep(random.nextInt(maxPauseMs));
                lockBeginMs = System.currentTimeMillis();
                Thread.sleep(busyTimeOutMs + 1 + random.nextInt(30));
                int opaque = offer();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!answers.containsKey(opaque) && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                lockBeginMs = 0;
                Answer answer = answers.get(opaque);
                if (answer == null) {
                    throw new IllegalStateException(side + ": no answer within 5 s to a request in a busy store's send queue");
                }
                if (answer.code() != SYSTEM_BUSY || answer.remark() == null || !answer.remark().startsWith(BUSY_REMARK)) {
                    unexpected++;
                }
                ms[i] = (answer.answeredNanos() - answer.builtNanos()) / 1e6;
            }
            return new Timings("offer", ms, 0, unexpected);
        }

        /** Builds a request and puts it into the send queue at once, as NettyRemotingAbstract#processRequestCommand does. */
        private int offer() throws Exception {
            Object request = createRequest.invoke(null, 10, null);
            int opaque = (Integer) getOpaque.invoke(request);
            long builtNanos = System.nanoTime();
            Object task = requestTask.newInstance((Runnable) () -> { }, channel, request);
            built.put(opaque, new long[] {(Long) getCreateTimestamp.invoke(task), builtNanos});
            if (!sendQueue.offer((Runnable) futureTaskExt.newInstance(task, null))) {
                throw new IllegalStateException(side + ": send queue full");
            }
            return opaque;
        }

        /** Runs of the clean per second over {@code windowMs} with nothing in the queues. */
        double idleRunsPerSecond(long windowMs) throws InterruptedException {
            Thread.sleep(300);
            long before = runs.get();
            long start = System.nanoTime();
            Thread.sleep(windowMs);
            long after = runs.get();
            return (after - before) / ((System.nanoTime() - start) / 1e9);
        }

        @Override
        public void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            try {
                stop(side, controller, fastFailure);
            } finally {
                deleteDir();
            }
        }

        private void deleteDir() throws IOException {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * Shuts down the clean and what the controller's constructor started (the executors of its stats manager and of its
     * DefaultConsumerIdsChangeListener), and waits for the clean's thread to end.
     */
    private static void stop(IsolatedLib side, Object controller, Object fastFailure) throws Exception {
        inside(side, () -> {
            if (fastFailure != null) {
                fastFailure.getClass().getMethod("shutdown").invoke(fastFailure);
            }
            if (controller != null) {
                Object stats = controller.getClass().getMethod("getBrokerStatsManager").invoke(controller);
                stats.getClass().getMethod("shutdown").invoke(stats);
                Field listener = controller.getClass().getDeclaredField("consumerIdsChangeListener");
                listener.setAccessible(true);
                Object changeListener = listener.get(controller);
                Method shutdown = changeListener.getClass().getMethod("shutdown");
                shutdown.setAccessible(true);
                shutdown.invoke(changeListener);
            }
            return null;
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!cleanThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (!cleanThreads().isEmpty()) {
            throw new IllegalStateException(side + ": the clean's thread still runs 2 s after BrokerFastFailure#shutdown: " + cleanThreads());
        }
    }

    /** The live threads of BrokerFastFailure's executor ("BrokerFastFailureScheduledThread" and a number). */
    static List<String> cleanThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(name -> name.startsWith(CLEAN_THREAD)).sorted().toList();
    }

    @FunctionalInterface
    interface Call<T> {
        T call() throws Exception;
    }

    private static <T> T inside(IsolatedLib side, Call<T> call) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        // 5.x's shaded slf4j finds its provider through the context loader; the executors' threads inherit it
        thread.setContextClassLoader(side.loader);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(context);
        }
    }
}
