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

import io.hotpath.dist.PopBufferMerges.Add;
import io.hotpath.dist.PopBufferMerges.Run;
import io.hotpath.dist.PopBufferMerges.Timings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0011 (5.5.1, 5.3.3): an idle {@code PopBufferMergeService} (its buffer and offset queues empty) waits
 * {@code popBufferMergeIdleWaitMs} instead of upstream's 5 ms between scans, and each add wakes it. Each test runs the real
 * thread of the service of a {@code BrokerController} built in the class loader of a side ({@link PopBufferMerges}):
 * the oracle is, on 5.5.1, Central's rocketmq-broker 5.5.1 over the stock lib/, on 5.3.3 the stock lib/ (upstream's
 * build of its source release); the candidate is the patched distribution's lib/. After seeded random idle pauses (so
 * that the adds meet the wait at every phase) a checkpoint and its ack (addCk, addAk), an offset-only checkpoint
 * (addCkJustOffset) and a mocked one (addCkMock) are added, and the time until the thread commits their consumer
 * offset (what stock does within its 5 ms scan) is measured on both sides: the patched service with a 1000 ms wait
 * must commit no later than stock beyond a small tolerance. With nothing to do, the thread's voluntary context
 * switches ({@code /proc/self/task/<tid>/status}) count its wake-ups. Controls: the same bound fails on stock and on
 * the patched service with the switch at its default (which scans as often as stock and commits as soon); the same
 * timing check fails on the patched service when the work goes in without the add's wake-up.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class PopBufferMergeIdleWaitTest {

    /** The tuned value (patches/5.5.1/ and patches/5.3.3/tuned.properties). */
    private static final int IDLE_WAIT_MS = 1000;
    private static final int ADDS = 12;
    private static final Add[] EVERY_ADD = {Add.CK_AND_ACK, Add.CK_JUST_OFFSET, Add.CK_MOCK};
    /** Idle wake-ups allowed per second with a 1000 ms wait: one, and one for slack. */
    private static final double IDLE_WAKE_UPS_PER_SECOND = 2;
    /** How much later than stock a patched commit may be, on this shared 2-core machine (scheduling jitter). */
    private static final long TOLERANCE_MS = 20;

    @Test
    void anIdleServiceWakesAtMostTwiceASecondAndCommitsEveryAddNoLaterThanStock() throws Exception {
        Timings stock;
        try (Run run = PopBufferMerges.start(IsolatedLib.brokerOracle(), null)) {
            stock = run.addAtRandomMoments(ADDS, 300, 42, EVERY_ADD);
            double stockIdle = run.idleWakeUpsPerSecond(1000);
            System.out.printf("stock: %s; idle wake-ups per second: %.1f%n", stock, stockIdle);
            // the control of the bound: upstream's 5 ms interval wakes the thread ~200 times a second
            assertThat(stockIdle).as("stock's idle wake-ups per second").isGreaterThan(IDLE_WAKE_UPS_PER_SECOND * 10);
        }
        Timings patched;
        double patchedIdle;
        long shutdownMs;
        try (Run run = PopBufferMerges.start(IsolatedLib.patched(), IDLE_WAIT_MS)) {
            patched = run.addAtRandomMoments(ADDS, 300, 42, EVERY_ADD);
            patchedIdle = run.idleWakeUpsPerSecond(2000);
            shutdownMs = run.shutdownMs();
        }
        System.out.printf("patched, %d ms: %s; idle wake-ups per second: %.2f; shutdown %d ms%n", IDLE_WAIT_MS, patched,
            patchedIdle, shutdownMs);
        assertThat(patchedIdle).as("patched idle wake-ups per second").isLessThanOrEqualTo(IDLE_WAKE_UPS_PER_SECOND);
        assertNoLaterThan(patched, stock);
        // shutdown's wakeup() ends the idle wait: the thread leaves at once, not at the end of its 1000 ms wait
        assertThat(shutdownMs).as("PopBufferMergeService#shutdown(true) of an idle thread, ms").isLessThan(IDLE_WAIT_MS / 2);
    }

    /** With the switch at its default the patched service is upstream's: as many idle scans, commits as soon. */
    @Test
    void withTheSwitchAtItsDefaultThePatchedServiceScansAsOftenAsStock() throws Exception {
        Timings stock;
        try (Run run = PopBufferMerges.start(IsolatedLib.brokerOracle(), null)) {
            stock = run.addAtRandomMoments(9, 100, 7, EVERY_ADD);
        }
        try (Run run = PopBufferMerges.start(IsolatedLib.patched(), null)) {
            Timings patched = run.addAtRandomMoments(9, 100, 7, EVERY_ADD);
            double idle = run.idleWakeUpsPerSecond(1000);
            System.out.printf("patched, switch at its default: %s (stock %s); idle wake-ups per second: %.1f%n", patched, stock, idle);
            assertThat(idle).as("idle wake-ups per second, the switch at its default").isGreaterThan(IDLE_WAKE_UPS_PER_SECOND * 10);
            assertNoLaterThan(patched, stock);
        }
    }

    /**
     * The control of the timing check: work put into the offset queues the way addCkMock puts it but without its wake-up
     * waits out the patched 1000 ms wait, and the check fails.
     */
    @Test
    void workThatDoesNotWakeTheWaitingThreadIsCaughtByTheTimingCheck() throws Exception {
        Timings stock;
        try (Run run = PopBufferMerges.start(IsolatedLib.brokerOracle(), null)) {
            stock = run.addAtRandomMoments(4, 300, 3, Add.SILENT_CK_MOCK);
        }
        Timings silent;
        try (Run run = PopBufferMerges.start(IsolatedLib.patched(), IDLE_WAIT_MS)) {
            silent = run.addAtRandomMoments(4, 300, 3, Add.SILENT_CK_MOCK);
        }
        System.out.printf("control, adds that wake nothing: %s; stock %s%n", silent, stock);
        assertThat(noLaterThan(silent, stock)).as("the check on adds that wake nothing: " + silent + " vs stock " + stock).isFalse();
    }

    private static void assertNoLaterThan(Timings patched, Timings stock) {
        assertThat(noLaterThan(patched, stock)).as("patched " + patched + " vs stock " + stock).isTrue();
    }

    /** The 90th percentile and the maximum of the add-to-commit times, each no later than stock's plus the tolerance. */
    private static boolean noLaterThan(Timings candidate, Timings oracle) {
        return candidate.percentileMs(90) <= oracle.percentileMs(90) + TOLERANCE_MS
            && candidate.maxMs() <= oracle.maxMs() + TOLERANCE_MS * 2;
    }
}
