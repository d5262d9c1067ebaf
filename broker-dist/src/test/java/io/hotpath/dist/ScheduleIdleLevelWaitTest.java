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

import io.hotpath.dist.ScheduleLevels.Delivery;
import io.hotpath.dist.ScheduleLevels.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0010 (5.5.1, 5.3.3): a delay level of {@code ScheduleMessageService} that finds nothing at its offset looks
 * again after min({@code scheduleIdleLevelWaitMs}, level delay - 100 ms) instead of upstream's 100 ms. Each test runs
 * the real service over a real store ({@link ScheduleLevels}) with upstream's 18 levels; the oracle is, on 5.5.1,
 * Central's rocketmq-broker and rocketmq-store 5.5.1 over the stock lib/, on 5.3.3 the stock lib/ (upstream's build of
 * its source release); the candidate the patched distribution's lib/ with the tuned 1000 ms.
 *
 * <p>Level 1 (1 s, the shortest level, where the wait is bounded by the level delay: 900 ms) gets messages at seeded
 * random moments, each after the level went idle (the previous one delivered), so each arrives at some phase of an idle
 * wait. Lateness = the store timestamp of the delivered copy in its real topic minus the due time (the delayed
 * message's store timestamp + 1 s, the store's tagsCode). Stock looks every 100 ms, so its worst lateness is 100 ms
 * (its measured ones are checked against that too); the patched service must never deliver before the due time and
 * never later than that worst plus a scheduling tolerance. Idle: the deliver executor's completed tasks, per level per
 * second: at most 2 with the tuned wait (1000 ms; level 1 900 ms), stock's ~10 is the bound's control, as is the patched
 * service with the switch at its default (upstream's 100 ms, upstream's code path). The timing check's control: the
 * patched service whose executor stretches each wait over 100 ms to 2000 ms (as a wait that ignored the level's delay)
 * delivers late, and the check says so.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class ScheduleIdleLevelWaitTest {

    /** The tuned value (patches/5.5.1/ and patches/5.3.3/tuned.properties). */
    private static final long IDLE_WAIT_MS = 1000;
    private static final int LEVEL = 1;
    private static final long LEVEL_DELAY_MS = 1000;
    /** Upstream's DELAY_FOR_A_WHILE: stock's look period, so its worst lateness. */
    private static final long STOCK_LOOK_MS = 100;
    /** How much later than stock's worst a delivery may be, on this shared 2-core machine (scheduling jitter). */
    private static final long TOLERANCE_MS = 30;
    /** Idle task runs allowed per level per second with the tuned wait: one, and one for slack. */
    private static final double IDLE_RUNS_PER_LEVEL_PER_SECOND = 2;
    private static final int MESSAGES = 5;
    /** The levels' first looks come 1 s after the service starts (upstream's FIRST_DELAY_TIME). */
    private static final long FIRST_LOOK_MS = 1300;
    /** The timing check's control: every wait over 100 ms stretched to this. */
    private static final long STRETCHED_WAIT_MS = 2000;
    private static final long SEED = 0x5eed_0010L;

    @Test
    void idleLevelsRunAboutOnceASecondAndDeliverNoLaterThanStock() throws Exception {
        // both sides at once, on the same timeline: the same messages go into each at the same moments
        try (Runs runs = new Runs(() -> new Run(oracle(), null, null), () -> new Run(IsolatedLib.patched(), IDLE_WAIT_MS, null))) {
            Run stockRun = runs.get(0);
            Run patchedRun = runs.get(1);
            Thread.sleep(FIRST_LOOK_MS);
            double[] idle = taskRunsPerLevelPerSecond(2000, stockRun, patchedRun);
            List<List<Delivery>> delivered = putAtRandomMomentsAndCollect(MESSAGES, SEED, stockRun, patchedRun);
            List<Delivery> stock = delivered.get(0);
            List<Delivery> patched = delivered.get(1);
            System.out.printf("stock: idle task runs per level per second %.2f; latenesses %s ms%n", idle[0], ScheduleLevels.latenesses(stock));
            System.out.printf("patched, %d ms: idle task runs per level per second %.2f; latenesses %s ms%n", IDLE_WAIT_MS, idle[1],
                ScheduleLevels.latenesses(patched));
            // the control of the idle bound: upstream's 100 ms look
            assertThat(idle[0]).as("stock's idle task runs per level per second").isGreaterThan(IDLE_RUNS_PER_LEVEL_PER_SECOND * 3);
            assertThat(maxLateness(stock)).as("stock's latenesses, ms: the harness sees its 100 ms look")
                .isBetween(0L, STOCK_LOOK_MS + TOLERANCE_MS);
            assertThat(idle[1]).as("patched idle task runs per level per second").isLessThanOrEqualTo(IDLE_RUNS_PER_LEVEL_PER_SECOND);
            assertThat(noLaterThanStock(patched, stock)).as("patched latenesses " + ScheduleLevels.latenesses(patched)
                + " ms vs stock's " + ScheduleLevels.latenesses(stock) + " ms").isTrue();
        }
    }

    /**
     * The controls, side by side: the patched levels with the switch at its default look every 100 ms as stock (the idle
     * bound fails on them, and they deliver within stock's 100 ms); waits stretched past the level's delay deliver late,
     * and the timing check says so.
     */
    @Test
    void theSwitchAtItsDefaultRunsAsStockAndAWaitPastTheLevelDelayIsCaught() throws Exception {
        try (Runs runs = new Runs(() -> new Run(IsolatedLib.patched(), null, null),
            () -> new Run(IsolatedLib.patched(), STRETCHED_WAIT_MS, STRETCHED_WAIT_MS))) {
            Run defaultRun = runs.get(0);
            Run stretchedRun = runs.get(1);
            Thread.sleep(FIRST_LOOK_MS);
            double[] idle = taskRunsPerLevelPerSecond(1000, defaultRun);
            List<List<Delivery>> delivered = putAtRandomMomentsAndCollect(3, SEED, defaultRun, stretchedRun);
            System.out.printf("patched, switch at its default: idle task runs per level per second %.2f; latenesses %s ms%n", idle[0],
                ScheduleLevels.latenesses(delivered.get(0)));
            System.out.printf("control, waits stretched to %d ms: latenesses %s ms%n", STRETCHED_WAIT_MS,
                ScheduleLevels.latenesses(delivered.get(1)));
            assertThat(idle[0]).as("idle task runs per level per second, switch at its default")
                .isGreaterThan(IDLE_RUNS_PER_LEVEL_PER_SECOND * 3);
            assertThat(maxLateness(delivered.get(0))).as("latenesses, switch at its default").isBetween(0L, STOCK_LOOK_MS + TOLERANCE_MS);
            assertThat(noLaterThanStock(delivered.get(1), List.of()))
                .as("the check on stretched waits: " + ScheduleLevels.latenesses(delivered.get(1))).isFalse();
        }
    }

    /** 5.5.1's tree is assembled: Central's broker and store jars are its oracle; 5.3.3's stock lib/ is upstream's build. */
    private static IsolatedLib oracle() {
        return IsolatedLib.brokerAndStoreOracle();
    }

    /** Each run's task runs per level per second over the same {@code windowMs}. */
    private static double[] taskRunsPerLevelPerSecond(long windowMs, Run... runs) throws Exception {
        long[] before = new long[runs.length];
        for (int i = 0; i < runs.length; i++) {
            before[i] = runs[i].completedTasks();
        }
        long start = System.nanoTime();
        Thread.sleep(windowMs);
        double seconds = (System.nanoTime() - start) / 1e9;
        double[] perLevel = new double[runs.length];
        for (int i = 0; i < runs.length; i++) {
            perLevel[i] = (runs[i].completedTasks() - before[i]) / seconds / ScheduleLevels.LEVELS;
        }
        return perLevel;
    }

    /**
     * Puts {@code count} level-1 messages into each run, each 1150 to 1750 ms after the one before (so the level has
     * delivered it and gone idle, and the next arrives at a seeded random phase of the idle wait), and returns each run's
     * deliveries.
     */
    private static List<List<Delivery>> putAtRandomMomentsAndCollect(int count, long seed, Run... runs) throws Exception {
        Random random = new Random(seed);
        long lastDue = 0;
        for (int i = 0; i < count; i++) {
            Thread.sleep(1150 + random.nextInt(600));
            for (Run run : runs) {
                lastDue = Math.max(lastDue, run.putDelayed(i, LEVEL, LEVEL_DELAY_MS));
            }
        }
        List<List<Delivery>> all = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Run run : runs) {
            List<Delivery> delivered = run.deliveries();
            while (delivered.size() < count && System.nanoTime() < deadline) {
                Thread.sleep(Math.max(20, lastDue + 150 - System.currentTimeMillis()));
                delivered = run.deliveries();
            }
            if (delivered.size() != count) {
                throw new IllegalStateException(run + ": delivered " + delivered.size() + " of " + count + " delayed messages within 10 s");
            }
            all.add(delivered);
        }
        return all;
    }

    /** Runs started side by side (each takes a few seconds), closed side by side (a store's shutdown sleeps 3 s). */
    static final class Runs implements AutoCloseable {
        private final List<Run> runs = new ArrayList<>();

        @SafeVarargs
        Runs(Callable<Run>... starts) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(starts.length);
            try {
                List<Future<Run>> futures = new ArrayList<>();
                for (Callable<Run> start : starts) {
                    futures.add(pool.submit(start));
                }
                Exception failure = null;
                for (Future<Run> future : futures) {
                    try {
                        runs.add(future.get());
                    } catch (ExecutionException e) {
                        failure = e.getCause() instanceof Exception cause ? cause : e;
                    }
                }
                if (failure != null) {
                    close();
                    throw failure;
                }
            } finally {
                pool.shutdown();
            }
        }

        Run get(int i) {
            return runs.get(i);
        }

        @Override
        public void close() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, runs.size()));
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (Run run : runs) {
                    futures.add(pool.submit(() -> {
                        run.close();
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get();
                }
            } finally {
                pool.shutdown();
            }
        }
    }

    private static long maxLateness(List<Delivery> deliveries) {
        return deliveries.stream().mapToLong(Delivery::latenessMs).max().orElseThrow();
    }

    /**
     * Never before the due time, and never later than stock's worst (its 100 ms look, or a later one it was measured
     * with) plus the tolerance.
     */
    private static boolean noLaterThanStock(List<Delivery> candidate, List<Delivery> stock) {
        long stockWorst = Math.max(STOCK_LOOK_MS, stock.isEmpty() ? 0 : maxLateness(stock));
        return candidate.stream().allMatch(d -> d.latenessMs() >= 0 && d.latenessMs() <= stockWorst + TOLERANCE_MS);
    }
}
