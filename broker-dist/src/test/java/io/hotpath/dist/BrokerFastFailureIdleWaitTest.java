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

import io.hotpath.dist.BrokerFastFailures.Run;
import io.hotpath.dist.BrokerFastFailures.Setup;
import io.hotpath.dist.BrokerFastFailures.Timings;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0009 (5.5.1, 5.3.3): with {@code brokerFastFailureIdleMaxWaitMs} above 10, BrokerFastFailure sleeps while its
 * queues are empty and no put holds the lock, until one period before the earliest deadline a new request or put could
 * have, instead of running every 10 ms. Each test runs the real BrokerFastFailure of a side on a real, never started
 * BrokerController ({@link BrokerFastFailures}): the oracle is, on 5.5.1, Central's rocketmq-broker 5.5.1 over the stock
 * lib/, on 5.3.3 the stock lib/ (upstream's build of its source release); the candidate is the patched distribution's
 * lib/ with the tuned 1000 ms. Send requests go into the controller's send queue at seeded random moments (every sixth
 * after an idle pause, so that each meets the clean at some phase of its sleep) and wait there until the clean answers
 * them SYSTEM_BUSY (the broker's default 200 ms wait): the patched clean must answer each as a timeout, never before its
 * deadline, and no later after it than stock beyond a small tolerance; a send request that meets a store made busy by a
 * put that took the lock while the clean slept must be drained no later than on stock. With empty queues the runs of the
 * clean (its calls of isOSPageCacheBusy) bound its wake-ups. Controls: the wake-up bound fails on stock and on the
 * patched class with the switch at its default; each timing check fails on the patched class whose delay overlooks a
 * waiting request or a held lock.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class BrokerFastFailureIdleWaitTest {

    /** The tuned value (patches/5.5.1/ and patches/5.3.3/tuned.properties). */
    private static final long IDLE_MAX_WAIT_MS = 1000;
    /** With the send queue's 200 ms the idle clean sleeps 190 ms: 5.3 runs a second; one for slack. */
    private static final double IDLE_RUNS_PER_SECOND = 6;
    /** Upstream's 10 ms period: about 100 runs a second. */
    private static final double STOCK_RUNS_PER_SECOND_AT_LEAST = 50;
    private static final int REQUESTS = 16;
    private static final int MAX_PAUSE_MS = 250;
    private static final int IDLE_EVERY = 6;
    /** Longer than two idle sleeps of the patched clean. */
    private static final long IDLE_PAUSE_MS = 400;
    /** osPageCacheBusyTimeOutMills of the busy-store check: short, so that a trial takes a moment (default 1000). */
    private static final long BUSY_TIMEOUT_MS = 100;
    /** waitTimeMillsInSendQueue of the busy-store check: no request expires, only the busy state answers them. */
    private static final long BUSY_SEND_MAX_WAIT_MS = 3000;
    private static final int BUSY_TRIALS = 10;
    /** How much later than stock's a patched answer may be, on this shared 2-core machine (scheduling jitter). */
    private static final double TOLERANCE_MS = 20;

    @Test
    void idleCleanRunsAtMostSixTimesASecondAndAnswersEveryRequestNoLaterThanStock() throws Exception {
        Timings stock;
        try (Run run = BrokerFastFailures.start(oracle(), Setup.defaults())) {
            assertThat(run.sendMaxWaitMs()).isEqualTo(200);
            stock = run.offerAtRandomMoments(REQUESTS, MAX_PAUSE_MS, IDLE_EVERY, IDLE_PAUSE_MS, 42);
            double stockIdle = run.idleRunsPerSecond(1000);
            System.out.printf("stock (%s): %s; idle runs per second: %.1f%n", oracle(), stock, stockIdle);
            // the control of the bound: upstream's 10 ms period
            assertThat(stockIdle).as("stock's idle runs per second").isGreaterThan(STOCK_RUNS_PER_SECOND_AT_LEAST);
        }
        assertAnsweredOnTimeAsTimeouts(stock, "stock");

        Timings patched;
        double patchedIdle;
        try (Run run = BrokerFastFailures.start(IsolatedLib.patched(), Setup.idleMaxWait(IDLE_MAX_WAIT_MS))) {
            patched = run.offerAtRandomMoments(REQUESTS, MAX_PAUSE_MS, IDLE_EVERY, IDLE_PAUSE_MS, 42);
            patchedIdle = run.idleRunsPerSecond(3000);
        }
        System.out.printf("patched, %d ms: %s; idle runs per second: %.2f%n", IDLE_MAX_WAIT_MS, patched, patchedIdle);
        assertThat(patchedIdle).as("patched idle runs per second").isLessThanOrEqualTo(IDLE_RUNS_PER_SECOND);
        assertAnsweredOnTimeAsTimeouts(patched, "patched");
        assertThat(noLaterThan(patched, stock)).as("patched " + patched + " vs stock " + stock).isTrue();
    }

    /** The control of the wake-up bound: the switch at its default is upstream's fixed 10 ms rate. */
    @Test
    void withTheSwitchAtItsDefaultThePatchedCleanRunsAsOftenAsStock() throws Exception {
        try (Run run = BrokerFastFailures.start(IsolatedLib.patched(), Setup.defaults())) {
            Timings timings = run.offerAtRandomMoments(3, MAX_PAUSE_MS, IDLE_EVERY, IDLE_PAUSE_MS, 7);
            double idle = run.idleRunsPerSecond(1000);
            System.out.printf("patched, switch at its default: %s; idle runs per second: %.1f%n", timings, idle);
            assertAnsweredOnTimeAsTimeouts(timings, "patched at the default");
            assertThat(idle).isGreaterThan(STOCK_RUNS_PER_SECOND_AT_LEAST);
        }
    }

    /**
     * The control of the timing check: a send queue that looks empty to the patched clean's delay (but not to the clean
     * itself) lets it sleep 190 ms past a waiting request, and the check fails.
     */
    @Test
    void aDelayThatOverlooksAWaitingRequestIsCaughtByTheTimingCheck() throws Exception {
        Timings stock;
        try (Run run = BrokerFastFailures.start(oracle(), Setup.defaults())) {
            stock = run.offerAtRandomMoments(6, MAX_PAUSE_MS, IDLE_EVERY, IDLE_PAUSE_MS, 3);
        }
        Timings overlooked;
        try (Run run = BrokerFastFailures.start(IsolatedLib.patched(),
            Setup.idleMaxWait(IDLE_MAX_WAIT_MS).withSendQueue(new HiddenFromTheDelay()))) {
            overlooked = run.offerAtRandomMoments(6, MAX_PAUSE_MS, IDLE_EVERY, IDLE_PAUSE_MS, 3);
        }
        System.out.printf("control, a request hidden from the delay: %s; stock %s%n", overlooked, stock);
        assertThat(noLaterThan(overlooked, stock)).as("the check on a hidden request: " + overlooked + " vs stock " + stock).isFalse();
    }

    /**
     * The busy store: a put takes the lock while the patched clean sleeps (its sleep is bounded by the short
     * osPageCacheBusyTimeOutMills here), and a send request arrives once the store is busy: it must be answered
     * [PCBUSY_CLEAN_QUEUE] no later after its offer than on stock. Control: the same check fails on the patched class
     * when the store hides the held lock from its delay (lockTimeMills() always 0), which then sleeps through the busy
     * state's start.
     */
    @Test
    void aBusyStoreDrainsTheSendQueueNoLaterThanOnStock() throws Exception {
        Setup busy = Setup.defaults().withBusyStore(BUSY_SEND_MAX_WAIT_MS, BUSY_TIMEOUT_MS);
        Timings stock;
        try (Run run = BrokerFastFailures.start(oracle(), busy)) {
            stock = run.busyDrains(BUSY_TRIALS, (int) BUSY_TIMEOUT_MS, 11);
        }
        Timings patched;
        try (Run run = BrokerFastFailures.start(IsolatedLib.patched(), busy.withIdleMaxWait(IDLE_MAX_WAIT_MS))) {
            patched = run.busyDrains(BUSY_TRIALS, (int) BUSY_TIMEOUT_MS, 11);
        }
        Timings hidden;
        try (Run run = BrokerFastFailures.start(IsolatedLib.patched(), busy.withIdleMaxWait(IDLE_MAX_WAIT_MS).withLockHidden())) {
            hidden = run.busyDrains(BUSY_TRIALS, (int) BUSY_TIMEOUT_MS, 11);
        }
        System.out.printf("busy store: stock %s; patched, %d ms: %s; control, the lock hidden from the delay: %s%n", stock,
            IDLE_MAX_WAIT_MS, patched, hidden);
        assertThat(stock.unexpected()).as("stock: answers other than [PCBUSY_CLEAN_QUEUE] (" + stock + ")").isZero();
        assertThat(patched.unexpected()).as("patched: answers other than [PCBUSY_CLEAN_QUEUE] (" + patched + ")").isZero();
        assertThat(noLaterThan(patched, stock)).as("patched " + patched + " vs stock " + stock).isTrue();
        assertThat(noLaterThan(hidden, stock)).as("the check on a hidden lock: " + hidden + " vs stock " + stock).isFalse();
    }

    /** 5.5.1's tree is assembled: Central's broker jar is its oracle; 5.3.3's stock lib/ is upstream's build of its source release. */
    private static IsolatedLib oracle() {
        return IsolatedLib.brokerOracle();
    }

    private static void assertAnsweredOnTimeAsTimeouts(Timings timings, String side) {
        assertThat(timings.early()).as(side + ": answers before the request's deadline (" + timings + ")").isZero();
        assertThat(timings.unexpected()).as(side + ": answers other than SYSTEM_BUSY [TIMEOUT_CLEAN_QUEUE] (" + timings + ")").isZero();
    }

    /** The 90th percentile and the maximum of the times to the answers, each no later than stock's plus the tolerance. */
    private static boolean noLaterThan(Timings candidate, Timings oracle) {
        return candidate.percentileMs(90) <= oracle.percentileMs(90) + TOLERANCE_MS
            && candidate.maxMs() <= oracle.maxMs() + TOLERANCE_MS * 2;
    }

    /** A send queue that answers "empty" when BrokerFastFailure computes its next delay (nextCleanDelayMs) asks. */
    @SuppressWarnings("serial")
    static final class HiddenFromTheDelay extends LinkedBlockingQueue<Runnable> {
        @Override
        public boolean isEmpty() {
            boolean askedByTheDelay = StackWalker.getInstance()
                .walk(frames -> frames.anyMatch(frame -> frame.getMethodName().equals("nextCleanDelayMs")));
            return askedByTheDelay || super.isEmpty();
        }
    }
}
