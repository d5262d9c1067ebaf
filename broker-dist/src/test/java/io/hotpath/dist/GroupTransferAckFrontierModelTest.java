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

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;

/**
 * Patch 0014 (5.5.1, 5.3.3): the patched {@code GroupTransferService} with {@code groupTransferAckFrontier} against a
 * model of what a request waiting for its slaves promises. Random interleavings of puts (an offset, one to three
 * replicas, a deadline already passed or an hour away), acknowledgements (one of two slaves reports an offset, as the HA
 * reader does: the connection's offset, push2SlaveMaxOffset raised to it, then {@code completeAcknowledged}) and the
 * service's look at the deadlines ({@code expireAwaitingAck}, which its thread runs before every wait; the thread is not
 * started, so each step is deterministic). After every step each request's status must be the model's: PUT_OK as soon
 * as the offsets satisfy it by upstream's own count (a put that finds them satisfied completes at once), never before;
 * FLUSH_SLAVE_TIMEOUT at the first look after its deadline when not acknowledged; and the acknowledgements of one step
 * complete requests in the order they were put. A completed request is in no list of the service. Control: the same
 * steps with the switch off (upstream's way, which completes only on the service's thread) differ from the model.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class GroupTransferAckFrontierModelTest {

    private static final int SLAVES = 2;
    private static final long HOUR_MS = 3_600_000L;

    sealed interface Step permits Put, Ack, Look {
    }

    /** A request for {@code replicas} replicas (the master counted) of the CommitLog up to {@code offset}. */
    record Put(long offset, int replicas, boolean pastDeadline) implements Step {
    }

    record Ack(int slave, long offset) implements Step {
    }

    record Look() implements Step {
    }

    @Property(tries = 2000)
    void everyRequestCompletesAsTheModelSays(@ForAll("steps") List<Step> steps) throws Exception {
        assertThat(firstDifference(steps, true)).isNull();
    }

    /** The control: with the switch off, an acknowledgement alone completes nothing, and the model sees it. */
    @Example
    void withTheSwitchOffTheServiceDiffersFromTheModel() throws Exception {
        List<Step> steps = List.of(new Put(100, 2, false), new Ack(0, 100));
        assertThat(firstDifference(steps, true)).isNull();
        assertThat(firstDifference(steps, false)).contains("step 2");
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Long> offsets = Arbitraries.longs().between(0, 12);
        Arbitrary<Step> put = Combinators.combine(offsets, Arbitraries.integers().between(1, 3),
            Arbitraries.of(true, false)).as(Put::new);
        Arbitrary<Step> ack = Combinators.combine(Arbitraries.integers().between(0, SLAVES - 1), offsets).as(Ack::new);
        Arbitrary<Step> look = Arbitraries.just(new Look());
        return Arbitraries.frequencyOf(Tuple.of(4, put), Tuple.of(4, ack),
            Tuple.of(1, look)).list().ofMaxSize(40);
    }

    /** Runs {@code steps} on a fresh patched service and on the model; the first step after which they differ, or null. */
    private static String firstDifference(List<Step> steps, boolean frontier) throws Exception {
        Service service = new Service(frontier);
        Model model = new Model();
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            if (step instanceof Put put) {
                model.put(put);
                service.put(put);
            } else if (step instanceof Ack ack) {
                model.ack(ack);
                service.ack(ack);
            } else {
                model.look();
                service.look();
            }
            String seen = service.statuses() + " completed in order " + service.completed;
            String expected = model.statuses + " completed in order " + model.completed;
            if (!seen.equals(expected)) {
                return "step " + (i + 1) + " of " + steps + ": service " + seen + ", model " + expected;
            }
            if (!service.waitingAreNotCompleted()) {
                return "step " + (i + 1) + " of " + steps + ": a completed request still waits in the service";
            }
        }
        return null;
    }

    /** What upstream's test (GroupTransferService#doWaitTransfer) says a request may be answered. */
    private static final class Model {
        final List<Put> puts = new ArrayList<>();
        final Map<Integer, String> statuses = new LinkedHashMap<>();
        final List<Integer> completed = new ArrayList<>();
        final long[] slaveAck = {-1, -1};
        long push2SlaveMaxOffset;

        void put(Put put) {
            int id = puts.size();
            puts.add(put);
            statuses.put(id, "waiting");
            if (acknowledged(put)) {
                complete(id, "PUT_OK");
            }
        }

        void ack(Ack ack) {
            slaveAck[ack.slave()] = ack.offset();
            push2SlaveMaxOffset = Math.max(push2SlaveMaxOffset, ack.offset());
            for (int id = 0; id < puts.size(); id++) {
                if (statuses.get(id).equals("waiting") && acknowledged(puts.get(id))) {
                    complete(id, "PUT_OK");
                }
            }
        }

        void look() {
            for (int id = 0; id < puts.size(); id++) {
                if (statuses.get(id).equals("waiting") && puts.get(id).pastDeadline()) {
                    complete(id, "FLUSH_SLAVE_TIMEOUT");
                }
            }
        }

        private boolean acknowledged(Put put) {
            if (put.replicas() <= 1) {
                return push2SlaveMaxOffset >= put.offset();
            }
            int replicas = 1;
            for (long ack : slaveAck) {
                if (ack >= put.offset()) {
                    replicas++;
                }
            }
            return replicas >= put.replicas();
        }

        private void complete(int id, String status) {
            statuses.put(id, status);
            completed.add(id);
        }
    }

    /** The patched GroupTransferService over an HAService proxy with two slave connections; its thread not started. */
    private static final class Service {
        private static final String PKG = GroupTransferServices.PKG;
        private final Object service;
        private final Constructor<?> request;
        private final Method putRequest;
        private final Method future;
        private final Method completeAcknowledged;
        private final Method expireAwaitingAck;
        private final Field awaitingAck;
        private final AtomicLong push2SlaveMaxOffset = new AtomicLong();
        private final long[] slaveAck = {-1, -1};
        private final List<CompletableFuture<?>> futures = new ArrayList<>();
        final List<Integer> completed = new ArrayList<>();

        Service(boolean frontier) throws Exception {
            ClassLoader loader = TimerWheels.patched().loader;
            Class<?> configType = Class.forName(PKG + "config.MessageStoreConfig", true, loader);
            Object config = configType.getConstructor().newInstance();
            configType.getMethod("setGroupTransferAckFrontier", boolean.class).invoke(config, frontier);
            Class<?> connectionType = Class.forName(PKG + "ha.HAConnection", true, loader);
            List<Object> connections = new ArrayList<>();
            for (int i = 0; i < SLAVES; i++) {
                int slave = i;
                connections.add(Proxy.newProxyInstance(loader, new Class<?>[] {connectionType}, (proxy, method, args) ->
                    switch (method.getName()) {
                        case "getSlaveAckOffset" -> slaveAck[slave];
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "slave " + slave;
                        default -> throw new UnsupportedOperationException(method.getName());
                    }));
            }
            service = GroupTransferServices.create(loader, config,
                GroupTransferServices.haService(loader, push2SlaveMaxOffset, connections));
            Class<?> serviceType = service.getClass();
            Class<?> requestType = Class.forName(PKG + "CommitLog$GroupCommitRequest", true, loader);
            request = requestType.getConstructor(long.class, long.class, int.class);
            putRequest = serviceType.getMethod("putRequest", requestType);
            future = requestType.getMethod("future");
            completeAcknowledged = serviceType.getMethod("completeAcknowledged");
            expireAwaitingAck = serviceType.getDeclaredMethod("expireAwaitingAck", long.class);
            expireAwaitingAck.setAccessible(true);
            awaitingAck = Reflection.field(serviceType, "awaitingAck");
        }

        void put(Put put) throws Exception {
            Object req = request.newInstance(put.offset(), put.pastDeadline() ? 0L : HOUR_MS, put.replicas());
            int id = futures.size();
            CompletableFuture<?> done = (CompletableFuture<?>) future.invoke(req);
            futures.add(done);
            done.whenComplete((status, error) -> completed.add(id));
            putRequest.invoke(service, req);
        }

        /** As DefaultHAService#notifyTransferSome on the HA reader: the offsets first, then the pass. */
        void ack(Ack ack) throws Exception {
            slaveAck[ack.slave()] = ack.offset();
            push2SlaveMaxOffset.accumulateAndGet(ack.offset(), Math::max);
            completeAcknowledged.invoke(service);
        }

        void look() throws Exception {
            // a deadline set with a 0 ms timeout is at the put's System.nanoTime(): past by now
            expireAwaitingAck.invoke(service, 10L);
        }

        Map<Integer, String> statuses() {
            Map<Integer, String> statuses = new LinkedHashMap<>();
            for (int id = 0; id < futures.size(); id++) {
                Object status = futures.get(id).getNow(null);
                statuses.put(id, status == null ? "waiting" : status.toString());
            }
            return statuses;
        }

        boolean waitingAreNotCompleted() throws Exception {
            for (Object waiting : (List<?>) awaitingAck.get(service)) {
                if (((CompletableFuture<?>) future.invoke(waiting)).isDone()) {
                    return false;
                }
            }
            return true;
        }
    }
}
