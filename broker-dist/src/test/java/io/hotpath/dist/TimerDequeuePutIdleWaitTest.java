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

import io.hotpath.dist.TimerDequeuePuts.Run;
import io.hotpath.dist.TimerDequeuePuts.Timings;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0008 (5.5.1, 5.3.3): an idle {@code TimerDequeuePutMessageService} waits {@code timerDequeuePutIdleWaitMs} on its empty
 * queue instead of upstream's 10 ms. Each test runs the real put threads (3, the default) of a {@code TimerMessageStore}
 * built in the class loader of a side: the oracle is, on 5.5.1, Central's rocketmq-store 5.5.1 over the stock lib/, on
 * 5.3.3 the stock lib/ (upstream's build of its source release); the candidate is the patched distribution's lib/
 * ({@link TimerDequeuePuts}). Timer requests go into the threads' queue at seeded random
 * moments (so they meet a waiting poll at every phase of its wait) and the time from each offer to its put
 * ({@code escapeBridgeHook}, where the message would enter its topic) is measured on both sides: the patched store with
 * a 1000 ms wait must put them no later than stock beyond a small tolerance. With no requests the put threads' context
 * switches ({@code /proc/self/task/<tid>/status}) bound their wake-ups. Controls: the same bound fails on the patched
 * store with the switch at its default (upstream's 10 ms) and on stock; the same timing check fails on the patched
 * store whose queue's poll does not wake on an offer (the signal removed).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class TimerDequeuePutIdleWaitTest {

    /** The tuned value (patches/5.5.1/ and patches/5.3.3/tuned.properties). */
    private static final int IDLE_WAIT_MS = 1000;
    private static final int REQUESTS = 20;
    /** Idle wake-ups allowed per put thread per second with a 1000 ms wait: one, and one for slack. */
    private static final double IDLE_WAKE_UPS_PER_THREAD_PER_SECOND = 2;
    /** How much later than stock a patched put may be, on this shared 2-core machine (scheduling jitter). */
    private static final long TOLERANCE_MS = 20;

    @Test
    void idlePutThreadsWakeAtMostTwiceASecondAndPutEveryRequestNoLaterThanStock() throws Exception {
        Timings stock;
        try (Run run = TimerDequeuePuts.start(oracle(), null, null)) {
            stock = run.offerAtRandomMoments(REQUESTS, 300, 42);
            double stockIdle = run.idleWakeUpsPerThreadPerSecond(1000);
            System.out.printf("stock: %s; idle wake-ups per put thread per second: %.1f%n", stock, stockIdle);
            // the control of the bound: upstream's 10 ms poll wakes each thread ~100 times a second
            assertThat(stockIdle).as("stock's idle wake-ups per put thread per second").isGreaterThan(IDLE_WAKE_UPS_PER_THREAD_PER_SECOND * 10);
        }
        Timings patched;
        double patchedIdle;
        long shutdownMs;
        try (Run run = TimerDequeuePuts.start(TimerWheels.patched(), IDLE_WAIT_MS, null)) {
            patched = run.offerAtRandomMoments(REQUESTS, 300, 42);
            patchedIdle = run.idleWakeUpsPerThreadPerSecond(3000);
            shutdownMs = run.shutdownMs();
        }
        System.out.printf("patched, %d ms: %s; idle wake-ups per put thread per second: %.2f; shutdown %d ms%n", IDLE_WAIT_MS,
            patched, patchedIdle, shutdownMs);
        assertThat(patchedIdle).as("patched idle wake-ups per put thread per second").isLessThanOrEqualTo(IDLE_WAKE_UPS_PER_THREAD_PER_SECOND);
        assertNoLaterThan(patched, stock);
        // the stop signals: the threads leave at once, not at the end of their 1000 ms wait
        assertThat(shutdownMs).as("TimerMessageStore#shutdown with idle put threads, ms").isLessThan(IDLE_WAIT_MS / 2);
    }

    /** The control of the wake-up bound: the switch at its default is upstream's 10 ms poll. */
    @Test
    void withTheSwitchAtItsDefaultThePatchedThreadsWakeAsOftenAsStock() throws Exception {
        try (Run run = TimerDequeuePuts.start(TimerWheels.patched(), null, null)) {
            run.offerAtRandomMoments(3, 50, 7);
            double idle = run.idleWakeUpsPerThreadPerSecond(1000);
            System.out.printf("patched, switch at its default: idle wake-ups per put thread per second: %.1f%n", idle);
            assertThat(idle).isGreaterThan(IDLE_WAKE_UPS_PER_THREAD_PER_SECOND * 10);
        }
    }

    /**
     * The control of the timing check: a queue whose poll sleeps out its timeout instead of waking on an offer (the signal
     * the patch relies on removed) makes the patched 1000 ms wait a delay, and the check fails.
     */
    @Test
    void aWaitThatAnOfferDoesNotEndIsCaughtByTheTimingCheck() throws Exception {
        Timings stock;
        try (Run run = TimerDequeuePuts.start(oracle(), null, null)) {
            stock = run.offerAtRandomMoments(6, 300, 3);
        }
        Timings deaf;
        try (Run run = TimerDequeuePuts.start(TimerWheels.patched(), IDLE_WAIT_MS, new DeafQueue())) {
            deaf = run.offerAtRandomMoments(6, 300, 3);
        }
        System.out.printf("control, a deaf queue: %s; stock %s%n", deaf, stock);
        assertThat(noLaterThan(deaf, stock)).as("the check on a deaf queue: " + deaf + " vs stock " + stock).isFalse();
    }

    /** 5.5.1's tree is assembled: Central's store jar is its oracle; 5.3.3's stock lib/ is upstream's build of its source release. */
    private static TimerWheels.Side oracle() {
        return BuiltDistributions.upstreamVersion().equals("5.5.1") ? TimerWheels.central() : TimerWheels.stock();
    }

    private static void assertNoLaterThan(Timings patched, Timings stock) {
        assertThat(noLaterThan(patched, stock)).as("patched " + patched + " vs stock " + stock).isTrue();
    }

    /** The 90th percentile and the maximum of the offer-to-put times, each no later than stock's plus the tolerance. */
    private static boolean noLaterThan(Timings candidate, Timings oracle) {
        return candidate.percentileMs(90) <= oracle.percentileMs(90) + TOLERANCE_MS
            && candidate.maxMs() <= oracle.maxMs() + TOLERANCE_MS * 2;
    }

    /** A queue whose timed poll is not ended by an offer: it takes what is there after the whole timeout. */
    @SuppressWarnings("serial")
    static final class DeafQueue extends LinkedBlockingDeque<Object> {
        @Override
        public Object poll(long timeout, TimeUnit unit) throws InterruptedException {
            Object first = pollFirst();
            if (first != null) {
                return first;
            }
            Thread.sleep(unit.toMillis(timeout));
            return pollFirst();
        }
    }
}
