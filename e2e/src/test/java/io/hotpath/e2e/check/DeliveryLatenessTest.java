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
package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hotpath.e2e.load.TimedSends;
import io.hotpath.e2e.load.TimedSends.Kind;
import io.hotpath.e2e.load.TimedSends.Observation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The timed phase's verdict and figures on fixtures: lateness per kind, and each way the phase fails (lost, early,
 * corrupt, duplicate), each beside the same fixture that passes.
 */
class DeliveryLatenessTest {

    private static final long T = 1_764_400_000_000L;

    /** Acknowledged, seen once, intact. */
    private static Observation seen(int seq, Kind kind, long asked, long earliest, long firstSeen) {
        return new Observation(seq, kind, asked, earliest, true, firstSeen, 1, 1, -1);
    }

    private static Observation timer(int seq, long asked, long firstSeen) {
        return new Observation(seq, Kind.TIMER, asked, TimedSends.timerSlot(asked, TimedSends.TIMER_PRECISION_MS), true, firstSeen, 1, 1,
                TimedSends.timerSlot(asked, TimedSends.TIMER_PRECISION_MS));
    }

    /** Plain messages 3, 5, 8, 12, 40 ms to the consumer; delay level 1 late by 20 - 110 ms; timer around its slot. */
    private static List<Observation> goodRun() {
        List<Observation> all = new ArrayList<>();
        int seq = 0;
        for (long floor : new long[] {3, 5, 8, 12, 40}) {
            all.add(seen(seq++, Kind.PLAIN, T + seq, T + seq, T + seq + floor));
        }
        for (long late : new long[] {110, 20, 50, 80}) {
            all.add(seen(seq++, Kind.DELAY_LEVEL_1, T + 1000, T + 1000, T + 1000 + late));
        }
        // asked 2 700 ms after T: slot T + 2000 (T is a whole second); seen 30 ms after the slot, 670 ms before the time asked
        all.add(timer(seq++, T + 2700, T + 2030));
        // asked on a whole second: the broker's slot is one precision earlier
        all.add(timer(seq++, T + 3000, T + 2005));
        all.add(timer(seq, T + 3999, T + 3100));
        return all;
    }

    @Test
    void timerSlotRoundsDownToThePrecisionLikeHookUtils() {
        assertThat(TimedSends.timerSlot(T + 2700, 1000)).isEqualTo(T + 2000);
        assertThat(TimedSends.timerSlot(T + 3000, 1000)).isEqualTo(T + 2000);
        assertThat(TimedSends.timerSlot(T + 3001, 1000)).isEqualTo(T + 3000);
        assertThat(TimedSends.timerSlot(T + 3001, 100)).isEqualTo(T + 3000);
    }

    @Test
    void kindsFollowTheSendOrder() {
        assertThat(TimedSends.kindOf(0)).isEqualTo(Kind.PROBE);
        assertThat(TimedSends.kindOf(TimedSends.PROBES)).isEqualTo(Kind.PLAIN);
        assertThat(TimedSends.kindOf(TimedSends.PROBES + TimedSends.PLAIN)).isEqualTo(Kind.TIMER);
        assertThat(TimedSends.kindOf(TimedSends.PROBES + TimedSends.PLAIN + TimedSends.TIMER)).isEqualTo(Kind.DELAY_LEVEL_1);
        assertThat(TimedSends.kindOf(TimedSends.PROBES + TimedSends.PLAIN + TimedSends.TIMER + TimedSends.LEVEL_1))
                .isEqualTo(Kind.DELAY_LEVEL_2);
    }

    @Test
    void reportsLatenessPerKindAsMinMedianP90Max() {
        DeliveryLateness lateness = DeliveryLateness.judge(goodRun(), true, false);

        assertThat(lateness.passed()).isTrue();
        DeliveryLateness.Figures plain = lateness.figures(Kind.PLAIN);
        assertThat(List.of((long) plain.seen(), plain.minMs(), plain.medianMs(), plain.p90Ms(), plain.maxMs())).containsExactly(5L, 3L, 8L, 40L, 40L);
        DeliveryLateness.Figures level1 = lateness.figures(Kind.DELAY_LEVEL_1);
        assertThat(List.of(level1.minMs(), level1.medianMs(), level1.p90Ms(), level1.maxMs())).containsExactly(20L, 50L, 110L, 110L);
        // a timer message may come before the time asked (down to its slot): negative lateness, positive after the slot
        DeliveryLateness.Figures timer = lateness.figures(Kind.TIMER);
        assertThat(List.of(timer.minMs(), timer.medianMs(), timer.maxMs())).containsExactly(-995L, -899L, -670L);
        assertThat(List.of(timer.sinceEarliestMinMs(), timer.sinceEarliestMedianMs(), timer.sinceEarliestMaxMs()))
                .containsExactly(5L, 30L, 100L);
        assertThat(lateness.figures(Kind.DELAY_LEVEL_2)).isNull();
        assertThat(lateness.summaryLines()).contains("PASS").contains("delay level 1: 4 acked, seen 4; late min 20, median 50, p90 110, max 110 ms")
                .contains("after the broker's slot: median 30");
        assertThat(lateness.cell(Kind.PLAIN)).isEqualTo("8 / 40 / 40");
        assertThat(lateness.cell(Kind.DELAY_LEVEL_2)).isEqualTo("n/a");
    }

    @Test
    void theLatestMessageOfAKindShowsWhereItsTimeWent() {
        List<Observation> run = goodRun();
        long slot = T + 2000;
        // a timer message dequeued and stored at once after its slot, then seen a whole slot later: the time went after the store
        run.add(new Observation(40, Kind.TIMER, T + 2500, slot, true, slot + 2086, 1, 1, slot, slot + 2, slot + 4));
        DeliveryLateness lateness = DeliveryLateness.judge(run, true, false);

        DeliveryLateness.Stages latest = lateness.figures(Kind.TIMER).latest();
        assertThat(latest).isEqualTo(new DeliveryLateness.Stages(40, 2L, 4L, 2086));
        assertThat(latest.text()).isEqualTo("seq 40: dequeued +2, stored +4, seen +2086 ms");
        assertThat(lateness.summaryLines()).contains("latest: seq 40: dequeued +2, stored +4, seen +2086 ms");
        // without the broker's times (a plain message has no dequeue; the fixtures none at all) only the sight is shown
        assertThat(lateness.figures(Kind.PLAIN).latest().text()).isEqualTo("seq 4: seen +40 ms");
    }

    @Test
    void percentilesAreNearestRank() {
        long[] ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(DeliveryLateness.at(ten, 0.5)).isEqualTo(5);
        assertThat(DeliveryLateness.at(ten, 0.9)).isEqualTo(9);
        assertThat(DeliveryLateness.at(ten, 1)).isEqualTo(10);
        assertThat(DeliveryLateness.at(ten, 0)).isEqualTo(1);
        assertThat(DeliveryLateness.at(new long[0], 0.5)).isZero();
    }

    @Test
    void anAcknowledgedMessageNeverSeenFailsAsLost() {
        List<Observation> run = goodRun();
        Observation o = run.get(6);
        run.set(6, new Observation(o.seq(), o.kind(), o.askedMs(), o.earliestMs(), true, -1, 0, 0, -1));

        DeliveryLateness lateness = DeliveryLateness.judge(run, true, false);

        assertThat(lateness.passed()).isFalse();
        assertThat(lateness.lost()).isEqualTo(1);
        assertThat(lateness.failureReasons()).containsExactly("timed phase: lost 1, corrupt 0, early 0, duplicates 0");
        assertThat(lateness.problems()).containsExactly("lost: delay level 1 seq 6 was acknowledged and never seen");
        // the missing one is not in the figures
        assertThat(lateness.figures(Kind.DELAY_LEVEL_1).seen()).isEqualTo(3);
    }

    @Test
    void aFailedSendNeverSeenIsNotLost() {
        List<Observation> run = goodRun();
        Observation o = run.get(6);
        run.set(6, new Observation(o.seq(), o.kind(), o.askedMs(), o.earliestMs(), false, -1, 0, 0, -1));

        assertThat(DeliveryLateness.judge(run, true, false).passed()).isTrue();
    }

    @Test
    void aDelayLevelMessageBeforeItsTimeFailsAsEarly() {
        List<Observation> run = goodRun();
        run.set(5, seen(5, Kind.DELAY_LEVEL_1, T + 1000, T + 1000, T + 1000 - DeliveryLateness.CLOCK_TOLERANCE_MS - 1));

        DeliveryLateness lateness = DeliveryLateness.judge(run, true, false);

        assertThat(lateness.passed()).isFalse();
        assertThat(lateness.early()).isEqualTo(1);
        assertThat(lateness.problems()).singleElement().asString().startsWith("early: delay level 1 seq 5 seen 11 ms before");
    }

    @Test
    void theClockToleranceIsNotEarly() {
        List<Observation> run = goodRun();
        run.set(5, seen(5, Kind.DELAY_LEVEL_1, T + 1000, T + 1000, T + 1000 - DeliveryLateness.CLOCK_TOLERANCE_MS));

        assertThat(DeliveryLateness.judge(run, true, false).passed()).isTrue();
    }

    @Test
    void aTimerMessageBeforeItsSlotFailsAsEarlyThoughAfterItIsNot() {
        List<Observation> run = goodRun();
        // asked T + 2700, slot T + 2000: seen at T + 1900 is 100 ms before the slot
        run.set(9, timer(9, T + 2700, T + 1900));

        DeliveryLateness lateness = DeliveryLateness.judge(run, true, false);

        assertThat(lateness.early()).isEqualTo(1);
        assertThat(lateness.passed()).isFalse();
    }

    @Test
    void aCopyWithAnotherBodyFailsAsCorrupt() {
        List<Observation> run = goodRun();
        Observation o = run.get(10);
        run.set(10, new Observation(o.seq(), o.kind(), o.askedMs(), o.earliestMs(), true, o.firstSeenMs(), 1, 0, o.brokerSlotMs()));

        DeliveryLateness lateness = DeliveryLateness.judge(run, true, false);

        assertThat(lateness.corrupt()).isEqualTo(1);
        assertThat(lateness.passed()).isFalse();
    }

    @Test
    void aSecondCopyFailsWithoutAFaultAndIsCountedUnderOne() {
        List<Observation> run = goodRun();
        Observation o = run.get(0);
        run.set(0, new Observation(o.seq(), o.kind(), o.askedMs(), o.earliestMs(), true, o.firstSeenMs(), 2, 2, -1));

        DeliveryLateness strict = DeliveryLateness.judge(run, true, false);
        DeliveryLateness underFault = DeliveryLateness.judge(run, true, true);

        assertThat(strict.passed()).isFalse();
        assertThat(strict.duplicates()).isEqualTo(1);
        assertThat(underFault.passed()).isTrue();
        assertThat(underFault.duplicates()).isEqualTo(1);
    }

    @Test
    void withoutATimerTheSummarySaysWhy() {
        List<Observation> run = goodRun().stream().filter(o -> o.kind() != Kind.TIMER).toList();

        DeliveryLateness lateness = DeliveryLateness.judge(run, false, false);

        assertThat(lateness.passed()).isTrue();
        assertThat(lateness.summaryLines()).contains("no timer messages: a 4.9.x broker has no timer");
        assertThat(lateness.cell(Kind.TIMER)).isEqualTo("n/a");
    }

    @Test
    void aSkippedPhaseSaysWhyAndJudgesNothing() {
        DeliveryLateness skipped = DeliveryLateness.skipped("not run under a mid-run fault (kill-slave, kill-master)");

        assertThat(skipped.passed()).isTrue();
        assertThat(skipped.ran()).isFalse();
        assertThat(skipped.summaryLines()).isEqualTo("  timed hotpath_smoke_timed: not run under a mid-run fault (kill-slave, kill-master)\n");
        assertThat(skipped.toJson().skipped()).startsWith("not run under");
        assertThat(DeliveryLateness.NONE.summaryLines()).isEmpty();
    }

    @Test
    void theJsonCarriesTheVerdictAndEachKindsFigures() {
        JsonObject json = JsonParser.parseString(DeliveryLateness.judge(goodRun(), true, false).json()).getAsJsonObject();

        assertThat(json.get("result").getAsString()).isEqualTo("PASS");
        assertThat(json.getAsJsonArray("kinds")).hasSize(3);
        JsonObject level1 = json.getAsJsonArray("kinds").get(2).getAsJsonObject();
        assertThat(level1.get("kind").getAsString()).isEqualTo("delay level 1");
        assertThat(level1.get("p90Ms").getAsLong()).isEqualTo(110);
        assertThat(DeliveryLateness.NONE.toJson().result()).isEqualTo("NONE");
        assertThat(DeliveryLateness.NONE.passed()).isTrue();
    }
}
