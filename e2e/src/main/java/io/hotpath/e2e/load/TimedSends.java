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
package io.hotpath.e2e.load;

import io.hotpath.e2e.ClusterException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Messages the broker holds back until a time, and a consumer that notes when each became consumable, so that a patch
 * which makes the broker's timer, schedule or reput threads sleep longer shows up as late delivery: timer messages
 * ({@value #TIMER_DELIVER_MS}, what a 5.x client's {@code Message.setDeliverTimeMs} sets; parked in
 * {@code rmq_sys_wheel_timer} and delivered by the TimerMessageStore) and delay-level messages (parked in
 * SCHEDULE_TOPIC_XXXX, delivered by ScheduleMessageService), beside plain messages whose consume latency is the floor.
 *
 * <p>Sent with the 4.9.0 client, which has no {@code setDeliverTimeMs} but sends any property it is given: a 5.x broker
 * reads the timer property from the stored properties, whoever set it ({@code HookUtils.transformTimerMessage}), so the
 * controller needs no 5.x client JVM for it. A 4.9.x broker has no timer and would deliver such a message at once:
 * {@code withTimer} false sends none there.
 *
 * <p>The consumer is a 4.9.0 push consumer (long polling: the broker answers a held pull when the reput thread dispatches
 * a message to its queue), started before the sends; the phase begins with {@value #PROBES} probes, one per queue, that
 * must all be seen before anything timed is sent, so the consumer owns every queue by then. Each message's first sight
 * is {@link System#currentTimeMillis} at the top of the listener: the broker, the consumer and the sender share this
 * machine's clock.
 */
public final class TimedSends {

    public static final String TOPIC = "hotpath_smoke_timed";
    public static final int QUEUES_PER_MASTER = 2;
    /** The property {@code Message.setDeliverTimeMs} of a 5.x client sets ({@code MessageConst.PROPERTY_TIMER_DELIVER_MS}). */
    public static final String TIMER_DELIVER_MS = "TIMER_DELIVER_MS";
    /** What a 5.x broker stores in a timer message: the slot it put it into ({@code MessageConst.PROPERTY_TIMER_OUT_MS}). */
    public static final String TIMER_OUT_MS = "TIMER_OUT_MS";
    /**
     * What a 5.x broker stores in a timer message when its dequeue reads it back to put it into its topic
     * ({@code MessageConst.PROPERTY_TIMER_DEQUEUE_MS}, {@code TimerMessageStore#convert}).
     */
    public static final String TIMER_DEQUEUE_MS = "TIMER_DEQUEUE_MS";
    /**
     * A 5.x broker's default {@code timerPrecisionMs} (ClusterLayout does not set it): the wheel's slot width. The broker
     * rounds a deliver time down to it ({@code HookUtils.transformTimerMessage}: to the slot below, one slot less when
     * the time is a multiple of it), so a timer message may come up to one slot before the time asked: stock's contract.
     */
    public static final long TIMER_PRECISION_MS = 1000;

    /** Seq ranges, in send order: probes (readiness), plain (the floor), timer, delay level 1, delay level 2. */
    public static final int PROBES = 4;
    public static final int PLAIN = 8;
    public static final int TIMER = 20;
    public static final int LEVEL_1 = 4;
    public static final int LEVEL_2 = 2;
    /** Timer deliver times asked: {@value #TIMER_AHEAD_MIN_MS} - {@value #TIMER_AHEAD_MAX_MS} ms after the send, seeded. */
    static final long TIMER_AHEAD_MIN_MS = 1000;
    static final long TIMER_AHEAD_MAX_MS = 4000;
    private static final Duration READY_WAIT = Duration.ofSeconds(30);
    /** How long after the last asked time a missing message is waited for before it counts as lost. */
    private static final Duration LATE_GRACE = Duration.ofSeconds(20);
    /** After everything was seen: time for a second copy to turn up (counted as a duplicate). */
    private static final long DUPLICATE_WAIT_MS = 500;

    /** What a message of the phase is: which broker path delivers it and when it may. */
    public enum Kind {
        PROBE("probe", 0), PLAIN("plain", 0), TIMER("timer", 0), DELAY_LEVEL_1("delay level 1", 1000), DELAY_LEVEL_2("delay level 2", 5000);

        private final String label;
        private final long delayMs;

        Kind(String label, long delayMs) {
            this.label = label;
            this.delayMs = delayMs;
        }

        public String label() {
            return label;
        }

        /** Delay levels 1 and 2 of the default {@code messageDelayLevel} ("1s 5s 10s ..."): 1 s and 5 s. */
        public long delayMs() {
            return delayMs;
        }

        public int level() {
            return this == DELAY_LEVEL_1 ? 1 : this == DELAY_LEVEL_2 ? 2 : 0;
        }
    }

    /** The kind of {@code seq} in this phase's send order. */
    public static Kind kindOf(int seq) {
        int end = PROBES;
        if (seq < end) {
            return Kind.PROBE;
        }
        if (seq < (end += PLAIN)) {
            return Kind.PLAIN;
        }
        if (seq < (end += TIMER)) {
            return Kind.TIMER;
        }
        if (seq < (end += LEVEL_1)) {
            return Kind.DELAY_LEVEL_1;
        }
        return Kind.DELAY_LEVEL_2;
    }

    static final int MESSAGES = PROBES + PLAIN + TIMER + LEVEL_1 + LEVEL_2;

    /**
     * One message of the phase as the sender and the consumer saw it, all times {@code System.currentTimeMillis()}:
     * {@code askedMs} the time it was asked to become consumable (the send's start for plain and probe messages, plus the
     * level's delay for a delay-level one: the broker counts from its store time, which is later), {@code earliestMs} the
     * earliest the broker may deliver it by stock's contract (for a timer message the slot it is rounded down to, else
     * {@code askedMs}), {@code acked} whether the send was acknowledged, {@code firstSeenMs} when the consumer first had
     * it (-1: never), {@code copies} how often it came, {@code intactCopies} how many of them carried its body (and, for a
     * timer message, the deliver time asked), {@code brokerSlotMs} the slot a 5.x broker named in the message (-1 if none).
     * Where the first copy seen spent its time, from what the broker wrote in it: {@code dequeuedMs} when the timer's dequeue
     * read it back ({@link #TIMER_DEQUEUE_MS}; -1 if none: not a timer message), {@code storedMs} its store timestamp, the
     * moment the copy the consumer got entered the CommitLog (a timer or delay-level message's put into its topic, a plain
     * one's send; -1 if never seen or the copy carries none). After the store come the reput, the held pull's answer and the consumer's dispatch.
     */
    public record Observation(int seq, Kind kind, long askedMs, long earliestMs, boolean acked, long firstSeenMs, int copies,
                              int intactCopies, long brokerSlotMs, long dequeuedMs, long storedMs) {

        /** An observation without the broker's stage times (tests of verdicts that do not read them). */
        public Observation(int seq, Kind kind, long askedMs, long earliestMs, boolean acked, long firstSeenMs, int copies,
                           int intactCopies, long brokerSlotMs) {
            this(seq, kind, askedMs, earliestMs, acked, firstSeenMs, copies, intactCopies, brokerSlotMs, -1, -1);
        }

        public boolean seen() {
            return copies > 0;
        }

        public long latenessMs() {
            return firstSeenMs - askedMs;
        }

        public long sinceEarliestMs() {
            return firstSeenMs - earliestMs;
        }
    }

    /** What the phase sent and saw: its ledger (for the failed-send verdict), each message's observation, how long it took. */
    public record Sent(SendLedger ledger, List<Observation> observations, boolean withTimer, double seconds) {
    }

    /**
     * The slot a 5.x broker with {@code precisionMs} puts a timer message asked for {@code deliverMs} into, as
     * {@code HookUtils.transformTimerMessage} computes it: the earliest it may come.
     */
    public static long timerSlot(long deliverMs, long precisionMs) {
        return deliverMs % precisionMs == 0 ? deliverMs - precisionMs : deliverMs / precisionMs * precisionMs;
    }

    private TimedSends() {
    }

    /** Every seq of the phase that is sent: with {@code withTimer} false (a 4.9.x broker) the timer range is skipped. */
    static boolean sends(int seq, boolean withTimer) {
        return withTimer || kindOf(seq) != Kind.TIMER;
    }

    public static Sent send(String namesrvAddress, String runId, int bodySize, boolean withTimer) throws InterruptedException {
        long start = System.nanoTime();
        SeededMessages messages = new SeededMessages(TOPIC, runId, bodySize);
        SendLedger ledger = new SendLedger(MESSAGES);
        Sightings sightings = new Sightings(messages);
        long[] asked = new long[MESSAGES];
        long[] earliest = new long[MESSAGES];
        SplittableRandom random = new SplittableRandom(runId.hashCode());

        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("hotpath_timed_consumer");
        consumer.setNamesrvAddr(namesrvAddress);
        consumer.setInstanceName("hotpath-timed-" + runId);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeMessageBatchMaxSize(1);
        consumer.registerMessageListener((MessageListenerConcurrently) (list, context) -> {
            long now = System.currentTimeMillis();
            list.forEach(m -> sightings.saw(m, now));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        DefaultMQProducer producer = new DefaultMQProducer("hotpath_timed_producer");
        producer.setNamesrvAddr(namesrvAddress);
        producer.setInstanceName("hotpath-timed-" + runId);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        try {
            consumer.subscribe(TOPIC, "*");
            consumer.start();
            producer.start();
        } catch (MQClientException e) {
            consumer.shutdown();
            producer.shutdown();
            throw new ClusterException("cannot start the timed phase's client: " + e.getMessage(), e);
        }
        try {
            for (int seq = 0; seq < MESSAGES; seq++) {
                if (!sends(seq, withTimer)) {
                    continue;
                }
                if (seq == PROBES) {
                    // the consumer owns every queue once a probe came from each: the timed sends start on a ready consumer
                    sightings.awaitSeen(0, PROBES, ledger, System.currentTimeMillis() + READY_WAIT.toMillis());
                }
                Kind kind = kindOf(seq);
                Message message = messages.build(seq);
                long sentMs = System.currentTimeMillis();
                if (kind == Kind.TIMER) {
                    asked[seq] = sentMs + TIMER_AHEAD_MIN_MS + random.nextLong(TIMER_AHEAD_MAX_MS - TIMER_AHEAD_MIN_MS + 1);
                    earliest[seq] = timerSlot(asked[seq], TIMER_PRECISION_MS);
                    MessageAccessor.putProperty(message, TIMER_DELIVER_MS, Long.toString(asked[seq]));
                    sightings.expectDeliverTime(seq, asked[seq]);
                } else {
                    message.setDelayTimeLevel(kind.level());
                    asked[seq] = sentMs + kind.delayMs();
                    earliest[seq] = asked[seq];
                }
                long begin = System.nanoTime();
                try {
                    ledger.recordResult(seq, producer.send(message), System.nanoTime() - begin);
                } catch (Exception e) {
                    ledger.recordFailure(seq, e, System.nanoTime() - begin);
                }
            }
            long lastAsked = Arrays.stream(asked).max().orElse(0);
            if (sightings.awaitSeen(0, MESSAGES, ledger, lastAsked + LATE_GRACE.toMillis())) {
                TimeUnit.MILLISECONDS.sleep(DUPLICATE_WAIT_MS);
            }
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
        List<Observation> observations = new ArrayList<>();
        for (int seq = 0; seq < MESSAGES; seq++) {
            if (sends(seq, withTimer)) {
                observations.add(sightings.observation(seq, kindOf(seq), asked[seq], earliest[seq],
                        ledger.outcome(seq) == SendLedger.Outcome.ACKED));
            }
        }
        return new Sent(ledger, List.copyOf(observations), withTimer, (System.nanoTime() - start) / 1e9);
    }

    /** What the consumer saw, per seq; written by the consumer's threads, read by the sender. */
    static final class Sightings {
        private final SeededMessages messages;
        private final long[] firstSeen = new long[MESSAGES];
        private final int[] copies = new int[MESSAGES];
        private final int[] intact = new int[MESSAGES];
        private final long[] slot = new long[MESSAGES];
        private final long[] dequeued = new long[MESSAGES];
        private final long[] stored = new long[MESSAGES];
        private final String[] deliverTimeAsked = new String[MESSAGES];

        Sightings(SeededMessages messages) {
            this.messages = messages;
            Arrays.fill(firstSeen, -1);
            Arrays.fill(slot, -1);
            Arrays.fill(dequeued, -1);
            Arrays.fill(stored, -1);
        }

        /** Before a timer message is sent: every copy of it must carry this deliver time. */
        synchronized void expectDeliverTime(int seq, long deliverMs) {
            deliverTimeAsked[seq] = Long.toString(deliverMs);
        }

        synchronized void saw(MessageExt message, long now) {
            int seq = messages.sequenceOf(message);
            if (seq < 0 || seq >= MESSAGES) {
                return;
            }
            if (copies[seq]++ == 0) {
                firstSeen[seq] = now;
                // 0: a copy that carries no store time
                stored[seq] = message.getStoreTimestamp() > 0 ? message.getStoreTimestamp() : -1;
                dequeued[seq] = millis(message.getProperty(TIMER_DEQUEUE_MS));
            }
            boolean bodyIntact = TOPIC.equals(message.getTopic()) && Arrays.equals(messages.body(seq), message.getBody());
            boolean timerIntact = deliverTimeAsked[seq] == null || deliverTimeAsked[seq].equals(message.getProperty(TIMER_DELIVER_MS));
            intact[seq] += bodyIntact && timerIntact ? 1 : 0;
            String brokerSlot = message.getProperty(TIMER_OUT_MS);
            if (brokerSlot != null) {
                try {
                    slot[seq] = Long.parseLong(brokerSlot);
                } catch (NumberFormatException e) {
                    intact[seq] -= bodyIntact && timerIntact ? 1 : 0;
                }
            }
            notifyAll();
        }

        /**
         * Waits until every acknowledged message of seqs [from, to) was seen, at most until {@code deadlineMs}; true if
         * they were. A send that failed may still have been stored: it is not waited for.
         */
        synchronized boolean awaitSeen(int from, int to, SendLedger ledger, long deadlineMs) throws InterruptedException {
            while (true) {
                boolean all = true;
                for (int seq = from; seq < to && all; seq++) {
                    all = copies[seq] > 0 || ledger.outcome(seq) != SendLedger.Outcome.ACKED;
                }
                long left = deadlineMs - System.currentTimeMillis();
                if (all || left <= 0) {
                    return all;
                }
                wait(Math.min(left, 100));
            }
        }

        synchronized Observation observation(int seq, Kind kind, long askedMs, long earliestMs, boolean acked) {
            return new Observation(seq, kind, askedMs, earliestMs, acked, firstSeen[seq], copies[seq], intact[seq], slot[seq],
                    dequeued[seq], stored[seq]);
        }

        /** A time the broker wrote as a property; -1 when absent or not a number (a stage time, not judged). */
        private static long millis(String property) {
            if (property == null) {
                return -1;
            }
            try {
                return Long.parseLong(property);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
