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
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;

/**
 * The run() thread of a real {@code PopLongPollingService} or (5.5.1) {@code PopLiteLongPollingService} of one side,
 * alone. Its {@code BrokerController} is allocated without its constructor (which builds a whole broker) and given the
 * two things the service reads of it: a {@code BrokerConfig} and the pull executor, here one that runs a woken request
 * at once on the waking thread; the processor records when it is asked to answer each request. Requests are parked
 * through the service's own {@code polling(...)}, as the pop processors park them.
 */
final class PopLongPollings {

    private static final String BROKER = "org.apache.rocketmq.broker.";
    private static final String LONG_POLLING = BROKER + "longpolling.";

    private PopLongPollings() {
    }

    /** The two services whose run() loops this patch changes; /proc shows the first 15 bytes of a thread's name. */
    enum Kind {
        POP(LONG_POLLING + "PopLongPollingService", "PopLongPollingS"),
        LITE(LONG_POLLING + "PopLiteLongPollingService", "PopLiteLongPoll");

        final String className;
        final String comm;

        Kind(String className, String comm) {
            this.className = className;
            this.comm = comm;
        }
    }

    /**
     * A started service of {@code kind} from {@code side}; {@code idleWaitMs} sets popLongPollingIdleWaitMs (patched
     * only; null leaves the default).
     */
    static Run start(IsolatedLib side, Kind kind, Long idleWaitMs) throws Exception {
        if (!tasks(kind).isEmpty()) {
            throw new IllegalStateException("a " + kind + " thread of an earlier run still runs: " + tasks(kind));
        }
        return new Run(side, kind, idleWaitMs);
    }

    /**
     * How long after its timeout each request was answered, ms: the answer's time minus the moment the service's own
     * {@code PopRequest#isTimeout} turns true ({@code expired - 50}).
     */
    record Lateness(long[] ms) {
        long percentile(int p) {
            return NearestRank.percentile(ms, p);
        }

        long max() {
            return Arrays.stream(ms).max().orElseThrow();
        }

        long min() {
            return Arrays.stream(ms).min().orElseThrow();
        }

        @Override
        public String toString() {
            return String.format("%d answers after their timeout: min %d ms, p50 %d ms, p90 %d ms, max %d ms", ms.length, min(),
                percentile(50), percentile(90), max());
        }
    }

    static final class Run implements AutoCloseable {
        /** PopRequest#isTimeout answers a request this long before its expiry. */
        private static final long TIMEOUT_AHEAD_MS = 50;

        private final IsolatedLib side;
        private final Kind kind;
        private final Object service;
        private final Object ctx;
        private final Map<Integer, Long> answeredMillis = new ConcurrentHashMap<>();
        private final Method createRequestCommand;
        private final Method setOpaque;
        private final Method polling;
        private final Constructor<?> popRequest;
        private final Constructor<?> pollingHeader;
        private final Class<?> popHeaderType;
        private final Object comparator;
        private int seq;
        private boolean shut;

        Run(IsolatedLib side, Kind kind, Long idleWaitMs) throws Exception {
            this.side = side;
            this.kind = kind;
            ClassLoader loader = side.loader;
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            // 5.x's shaded slf4j finds its provider through the context loader; the service's thread inherits it
            thread.setContextClassLoader(loader);
            try {
                Class<?> configType = Class.forName("org.apache.rocketmq.common.BrokerConfig", true, loader);
                Object config = configType.getConstructor().newInstance();
                if (idleWaitMs != null) {
                    configType.getMethod("setPopLongPollingIdleWaitMs", long.class).invoke(config, idleWaitMs);
                }
                Class<?> controllerType = Class.forName(BROKER + "BrokerController", true, loader);
                Object controller = Reflection.allocate(controllerType);
                Reflection.field(controllerType, "brokerConfig").set(controller, config);
                Reflection.field(controllerType, "pullMessageExecutor").set(controller, new InlineExecutor());

                Class<?> commandType = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, loader);
                createRequestCommand = commandType.getMethod("createRequestCommand", int.class,
                    Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, loader));
                setOpaque = commandType.getMethod("setOpaque", int.class);
                Method getOpaque = commandType.getMethod("getOpaque");
                Class<?> processorType = Class.forName("org.apache.rocketmq.remoting.netty.NettyRequestProcessor", true, loader);
                Object processor = Proxy.newProxyInstance(loader, new Class<?>[] {processorType}, (proxy, method, args) -> {
                    if (method.getName().equals("processRequest")) {
                        answeredMillis.putIfAbsent((Integer) getOpaque.invoke(args[1]), System.currentTimeMillis());
                        return null;
                    }
                    return objectMethod(proxy, method, args, "hotpath-processor");
                });
                Class<?> channelType = Class.forName("io.netty.channel.Channel", true, loader);
                Object channel = Proxy.newProxyInstance(loader, new Class<?>[] {channelType}, (proxy, method, args) ->
                    method.getName().equals("isActive") ? Boolean.TRUE : objectMethod(proxy, method, args, "hotpath-channel"));
                Class<?> ctxType = Class.forName("io.netty.channel.ChannelHandlerContext", true, loader);
                ctx = Proxy.newProxyInstance(loader, new Class<?>[] {ctxType}, (proxy, method, args) ->
                    method.getName().equals("channel") ? channel : objectMethod(proxy, method, args, "hotpath-ctx"));

                Class<?> serviceType = Class.forName(kind.className, true, loader);
                service = serviceType.getConstructor(controllerType, processorType, boolean.class).newInstance(controller, processor, false);
                // the cleanup of unused entries asks the topic and group managers (none here); it is timed by the
                // clock (every 3 or 5 minutes), so starting its clock now keeps it out of these few seconds
                Reflection.field(serviceType, "lastCleanTime").setLong(service, System.currentTimeMillis());

                Class<?> requestType = Class.forName(LONG_POLLING + "PopRequest", true, loader);
                popRequest = requestType.getConstructors()[0];
                comparator = requestType.getField("COMPARATOR").get(null);
                if (kind == Kind.POP) {
                    popHeaderType = Class.forName("org.apache.rocketmq.remoting.protocol.header.PopMessageRequestHeader", true, loader);
                    Class<?> pollingHeaderType = Class.forName(LONG_POLLING + "PollingHeader", true, loader);
                    pollingHeader = pollingHeaderType.getConstructor(popHeaderType);
                    polling = serviceType.getMethod("polling", ctxType, commandType, pollingHeaderType);
                } else {
                    popHeaderType = null;
                    pollingHeader = null;
                    polling = serviceType.getMethod("polling", ctxType, commandType, long.class, long.class, String.class, String.class);
                }
                serviceType.getMethod("start").invoke(service);
            } finally {
                thread.setContextClassLoader(context);
            }
            waitForThread();
        }

        private void waitForThread() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (tasks(kind).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (tasks(kind).size() != 1) {
                throw new IllegalStateException(side + ": expected one " + kind + " thread, found " + tasks(kind));
            }
        }

        /**
         * Parks {@code count} requests one after the other, each on an empty service after an idle pause drawn from
         * [0, maxPauseMs) and with a poll time drawn from [100, 300) ms (seeded), waits for its answer, then empties the
         * polling map as its expiry or cleanup does; returns how late each was answered. With {@code wakeless} the
         * request is put into the polling map directly, as a polling() that does not wake the thread would leave it.
         */
        Lateness parkAfterIdlePauses(int count, int maxPauseMs, long seed, boolean wakeless) throws Exception {
            Random random = new Random(seed);
            long[] late = new long[count];
            for (int i = 0; i < count; i++) {
                Thread.sleep(random.nextInt(maxPauseMs));
                long pollTime = 100 + random.nextInt(200);
                int opaque = ++seq;
                long bornTime = System.currentTimeMillis();
                park(opaque, bornTime, pollTime, wakeless);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!answeredMillis.containsKey(opaque) && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                Long answered = answeredMillis.get(opaque);
                if (answered == null) {
                    throw new IllegalStateException(side + " " + kind + ": request " + opaque + " was not answered within 5 s");
                }
                late[i] = answered - (bornTime + pollTime - TIMEOUT_AHEAD_MS);
                pollingMap().clear();
            }
            return new Lateness(late);
        }

        private void park(int opaque, long bornTime, long pollTime, boolean wakeless) throws Exception {
            Object command = createRequestCommand.invoke(null, 50, null);
            setOpaque.invoke(command, opaque);
            String key = kind == Kind.POP ? "hotpath-topic@hotpath-group@0" : "hotpath-client";
            if (wakeless) {
                Object request = popRequest.newInstance(command, ctx, bornTime + pollTime, null, null);
                @SuppressWarnings("unchecked")
                Set<Object> queue = (Set<Object>) pollingMap().computeIfAbsent(key,
                    k -> new ConcurrentSkipListSet<>((Comparator<Object>) comparator));
                queue.add(request);
                return;
            }
            Object result;
            if (kind == Kind.POP) {
                Object header = popHeaderType.getConstructor().newInstance();
                popHeaderType.getMethod("setTopic", String.class).invoke(header, "hotpath-topic");
                popHeaderType.getMethod("setConsumerGroup", String.class).invoke(header, "hotpath-group");
                popHeaderType.getMethod("setQueueId", Integer.class).invoke(header, 0);
                popHeaderType.getMethod("setBornTime", long.class).invoke(header, bornTime);
                popHeaderType.getMethod("setPollTime", long.class).invoke(header, pollTime);
                result = polling.invoke(service, ctx, command, pollingHeader.newInstance(header));
            } else {
                result = polling.invoke(service, ctx, command, bornTime, pollTime, key, "hotpath-group");
            }
            if (!String.valueOf(result).equals("POLLING_SUC")) {
                throw new IllegalStateException(side + " " + kind + ": polling answered " + result);
            }
        }

        /**
         * Parks {@code count} requests one after the other, each with a 300 ms poll time, and after {@code delayMs} tells
         * the service a message arrived for it ({@code notifyMessageArriving}, as the store's arrival listener does);
         * returns how late each was answered (negative: before its timeout).
         */
        Lateness parkAndNotifyArrival(int count, long delayMs) throws Exception {
            long[] late = new long[count];
            for (int i = 0; i < count; i++) {
                int opaque = ++seq;
                long bornTime = System.currentTimeMillis();
                park(opaque, bornTime, 300, false);
                Thread.sleep(delayMs);
                Object woken = notifyArrival();
                // run() takes the first parked request out of its set and adds it back every 20 ms (stock's code): an
                // arrival in between finds the set empty and wakes nothing, a rare race of upstream's (seen once in
                // CI, a preempted scan) that this control is not about, so the arrival comes again
                long retryUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                while (!Boolean.TRUE.equals(woken) && !answeredMillis.containsKey(opaque) && System.nanoTime() < retryUntil) {
                    Thread.sleep(1);
                    woken = notifyArrival();
                }
                Long answered = answeredMillis.get(opaque);
                if (!Boolean.TRUE.equals(woken) || answered == null) {
                    throw new IllegalStateException(side + " " + kind + ": the arrival did not answer request " + opaque);
                }
                late[i] = answered - (bornTime + 300 - TIMEOUT_AHEAD_MS);
                pollingMap().clear();
            }
            return new Lateness(late);
        }

        /** A message's arrival for the parked request's topic (POP) or client (LITE): the service's notifyMessageArriving. */
        private Object notifyArrival() throws Exception {
            if (kind == Kind.POP) {
                return service.getClass().getMethod("notifyMessageArriving", String.class, int.class, String.class, Long.class,
                    long.class, byte[].class, Map.class).invoke(service, "hotpath-topic", 0, "hotpath-group", null, 0L, null, null);
            }
            return service.getClass().getMethod("notifyMessageArriving", String.class, boolean.class, long.class, String.class)
                .invoke(service, "hotpath-client", false, 0L, "hotpath-group");
        }

        /** The service's polling map as a map: 5.5.1's PopLongPollingService keeps a Caffeine cache, the rest a map. */
        @SuppressWarnings("unchecked")
        private ConcurrentMap<String, Object> pollingMap() throws Exception {
            Object map = Reflection.field(service.getClass(), "pollingMap").get(service);
            if (map instanceof ConcurrentMap) {
                return (ConcurrentMap<String, Object>) map;
            }
            return (ConcurrentMap<String, Object>) Class.forName("com.github.benmanes.caffeine.cache.Cache", true, side.loader)
                .getMethod("asMap").invoke(map);
        }

        /** The thread's context switches over {@code windowMs} with nothing parked, per second. */
        double idleWakeUpsPerSecond(long windowMs) throws Exception {
            if (!pollingMap().isEmpty()) {
                throw new IllegalStateException("requests are parked: " + pollingMap());
            }
            Thread.sleep(200);
            List<Path> tasks = tasks(kind);
            long before = ThreadTasks.switches(tasks);
            long start = System.nanoTime();
            Thread.sleep(windowMs);
            long after = ThreadTasks.switches(tasks);
            return (after - before) / ((System.nanoTime() - start) / 1e9);
        }

        @Override
        public void close() throws Exception {
            if (shut) {
                return;
            }
            shut = true;
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            thread.setContextClassLoader(side.loader);
            try {
                service.getClass().getMethod("shutdown").invoke(service);
            } finally {
                thread.setContextClassLoader(context);
            }
            List<Path> left = ThreadTasks.awaitNoneNamed(kind.comm, Duration.ofSeconds(5));
            if (!left.isEmpty()) {
                throw new IllegalStateException(side + ": the " + kind + " thread still runs 5 s after shutdown: " + left);
            }
        }
    }

    /** Runs each task on the submitting thread: a woken request is answered when the service hands it over. */
    private static final class InlineExecutor extends AbstractExecutorService {
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }
    }

    private static Object objectMethod(Object proxy, Method method, Object[] args, String name) {
        switch (method.getName()) {
            case "toString":
                return name;
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            default:
                return Reflection.defaultValue(method.getReturnType());
        }
    }

    /** This JVM's tasks named as a {@code kind} thread. */
    static List<Path> tasks(Kind kind) {
        return ThreadTasks.named(kind.comm);
    }
}
