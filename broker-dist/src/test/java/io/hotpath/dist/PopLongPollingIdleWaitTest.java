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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hotpath.dist.PopLongPollings.Kind;
import io.hotpath.dist.PopLongPollings.Lateness;
import io.hotpath.dist.PopLongPollings.Run;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0012 (5.5.1, 5.3.3): an idle {@code PopLongPollingService} (and, on 5.5.1, {@code PopLiteLongPollingService})
 * waits {@code popLongPollingIdleWaitMs} while no request is parked instead of upstream's 20 ms round, and parking a
 * request ends that wait. Each test runs the real run() thread of a service built in the class loader of a side
 * ({@link PopLongPollings}): the oracle is, on 5.5.1, Central's rocketmq-broker 5.5.1 over the stock lib/, on 5.3.3 the
 * stock lib/ (upstream's build of its source release); the candidate is the patched distribution's lib/. Requests are
 * parked through the service's polling(...) on an idle service, after seeded random pauses (so they meet a waiting
 * thread at every phase of its wait) and with seeded random poll times, and nothing arrives for them: each is answered
 * when run() finds it timed out. How long after its timeout ({@code PopRequest#isTimeout}) each is answered is measured
 * on both sides: the patched service with a 1000 ms wait must answer none before its timeout and none later than stock
 * beyond a small tolerance. With nothing parked, the thread's context switches ({@code /proc/self/task/<tid>/status})
 * bound its wake-ups. Controls: the wake-up bound fails on stock and on the patched service with the switch at its
 * default (which also answers as stock); the lateness check fails on requests parked without polling(...)'s wake-up
 * (put into the polling map directly); the not-before-timeout check fails on requests a message's arrival answers
 * ({@code notifyMessageArriving}, which answers them on the caller's thread, with the patched thread idle).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class PopLongPollingIdleWaitTest {

    /** The tuned value (patches/5.5.1/ and patches/5.3.3/tuned.properties). */
    private static final long IDLE_WAIT_MS = 1000;
    private static final int REQUESTS = 8;
    private static final int MAX_PAUSE_MS = 300;
    /** Idle wake-ups allowed per second with a 1000 ms wait: one, and one for slack. */
    private static final double IDLE_WAKE_UPS_PER_SECOND = 2;
    /** How much later than stock a patched answer may be, on this shared 2-core machine (scheduling jitter). */
    private static final long TOLERANCE_MS = 20;

    @Test
    void popIdleThreadWakesAtMostTwiceASecondAndAnswersEachTimeoutNoLaterThanStock() throws Exception {
        checkTuned(Kind.POP);
    }

    @Test
    void liteIdleThreadWakesAtMostTwiceASecondAndAnswersEachTimeoutNoLaterThanStock() throws Exception {
        assumeTrue(BuiltDistributions.upstreamVersion().equals("5.5.1"), "PopLiteLongPollingService is 5.5.1's");
        checkTuned(Kind.LITE);
    }

    private static void checkTuned(Kind kind) throws Exception {
        Lateness stock = stockLateness(kind, 42);
        Lateness patched;
        double patchedIdle;
        try (Run run = PopLongPollings.start(IsolatedLib.patched(), kind, IDLE_WAIT_MS)) {
            patched = run.parkAfterIdlePauses(REQUESTS, MAX_PAUSE_MS, 42, false);
            patchedIdle = run.idleWakeUpsPerSecond(2000);
        }
        System.out.printf("%s patched, %d ms: %s; idle wake-ups per second: %.2f%n", kind, IDLE_WAIT_MS, patched, patchedIdle);
        assertThat(patchedIdle).as(kind + " patched idle wake-ups per second").isLessThanOrEqualTo(IDLE_WAKE_UPS_PER_SECOND);
        assertNotBeforeTimeout(patched);
        assertNoLaterThan(patched, stock);
    }

    /**
     * The control of the wake-up bound (stock and the switch at its default wake ~50 times a second), and the switch at
     * its default answers as stock.
     */
    @Test
    void withTheSwitchAtItsDefaultThePatchedServiceWakesAndAnswersAsStock() throws Exception {
        for (Kind kind : kinds()) {
            Lateness stock;
            double stockIdle;
            try (Run run = PopLongPollings.start(oracle(), kind, null)) {
                stock = run.parkAfterIdlePauses(REQUESTS / 2, MAX_PAUSE_MS, 7, false);
                stockIdle = run.idleWakeUpsPerSecond(1000);
            }
            Lateness atDefault;
            double idle;
            try (Run run = PopLongPollings.start(IsolatedLib.patched(), kind, null)) {
                atDefault = run.parkAfterIdlePauses(REQUESTS / 2, MAX_PAUSE_MS, 7, false);
                idle = run.idleWakeUpsPerSecond(1000);
            }
            System.out.printf("%s stock: %s, idle wake-ups per second %.1f; patched, switch at its default: %s, %.1f%n", kind, stock,
                stockIdle, atDefault, idle);
            assertThat(stockIdle).as(kind + " stock's idle wake-ups per second").isGreaterThan(IDLE_WAKE_UPS_PER_SECOND * 10);
            assertThat(idle).as(kind + " idle wake-ups per second, switch at its default").isGreaterThan(IDLE_WAKE_UPS_PER_SECOND * 10);
            assertNotBeforeTimeout(stock);
            assertNotBeforeTimeout(atDefault);
            assertNoLaterThan(atDefault, stock);
        }
    }

    /**
     * The control of the lateness check: requests put into the polling map without polling(...)'s wake-up wait out the
     * patched thread's 1000 ms idle wait, and the check fails.
     */
    @Test
    void aParkedRequestThatDoesNotEndTheIdleWaitIsCaughtByTheLatenessCheck() throws Exception {
        Lateness stock = stockLateness(Kind.POP, 3);
        Lateness wakeless;
        try (Run run = PopLongPollings.start(IsolatedLib.patched(), Kind.POP, IDLE_WAIT_MS)) {
            wakeless = run.parkAfterIdlePauses(4, MAX_PAUSE_MS, 3, true);
        }
        System.out.printf("control, parked without the wake-up: %s; stock %s%n", wakeless, stock);
        assertThat(noLaterThan(wakeless, stock)).as("the check on requests parked without the wake-up: " + wakeless + " vs stock " + stock)
            .isFalse();
    }

    /**
     * A message's arrival answers a parked request at once on the arrival's thread, with the patched thread in its idle
     * wait: the control of the not-before-timeout check, which those answers fail.
     */
    @Test
    void anArrivalAnswersAtOnceAndFailsTheNotBeforeTimeoutCheck() throws Exception {
        for (Kind kind : kinds()) {
            Lateness arrivals;
            try (Run run = PopLongPollings.start(IsolatedLib.patched(), kind, IDLE_WAIT_MS)) {
                arrivals = run.parkAndNotifyArrival(3, 30);
            }
            System.out.printf("control, %s answered by an arrival 30 ms after parking: %s%n", kind, arrivals);
            // parked with a 300 ms poll time, answered ~30 ms later: ~220 ms before the timeout
            assertThat(arrivals.max()).as(kind + " answers to an arrival, ms after the timeout").isLessThan(-100);
            assertThat(notBeforeTimeout(arrivals)).as("the not-before-timeout check on answers to an arrival").isFalse();
        }
    }

    private static Lateness stockLateness(Kind kind, long seed) throws Exception {
        try (Run run = PopLongPollings.start(oracle(), kind, null)) {
            Lateness stock = run.parkAfterIdlePauses(REQUESTS, MAX_PAUSE_MS, seed, false);
            System.out.printf("%s stock: %s%n", kind, stock);
            assertNotBeforeTimeout(stock);
            return stock;
        }
    }

    private static Kind[] kinds() {
        return BuiltDistributions.upstreamVersion().equals("5.5.1") ? Kind.values() : new Kind[] {Kind.POP};
    }

    /** 5.5.1's tree is assembled: Central's broker jar is its oracle; 5.3.3's stock lib/ is upstream's build of its source release. */
    private static IsolatedLib oracle() {
        return IsolatedLib.brokerOracle();
    }

    private static void assertNotBeforeTimeout(Lateness lateness) {
        assertThat(notBeforeTimeout(lateness)).as("answered before the timeout: " + lateness).isTrue();
    }

    private static boolean notBeforeTimeout(Lateness lateness) {
        return lateness.min() >= 0;
    }

    private static void assertNoLaterThan(Lateness patched, Lateness stock) {
        assertThat(noLaterThan(patched, stock)).as("patched " + patched + " vs stock " + stock).isTrue();
    }

    /** The 90th percentile and the maximum of how late the answers came, each no later than stock's plus the tolerance. */
    private static boolean noLaterThan(Lateness candidate, Lateness oracle) {
        return candidate.percentile(90) <= oracle.percentile(90) + TOLERANCE_MS
            && candidate.max() <= oracle.max() + TOLERANCE_MS * 2;
    }
}
