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

import io.hotpath.dist.store.shared.ReputProbe;
import io.hotpath.dist.store.shared.ReputProbe.ReputPut;
import io.hotpath.dist.store.shared.ReputProbe.ReputRun;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0007 (5.5.1 and 5.3.3, each line's own): with {@code reputWakeOnAppend=true} the ReputMessageService waits for the
 * CommitLog's advance (a put wakes it) instead of polling every millisecond. The oracle is a REAL stock
 * {@code DefaultMessageStore} of the line (the stock distribution's lib/), the candidate the patched distribution's with
 * the switch on; both run {@link ReputProbe} in their own class loader ({@link PatchedBrokerLoader#stockWith533Probe},
 * {@link PatchedBrokerLoader#with533Probe}).
 *
 * <p>One seeded sequence of puts (singles and client batches; four topics, four queues; bodies of 0 to 6 KB, so the
 * 256 KB CommitLog files and the 64-entry consume queue files roll; tags, one to three keys and a UNIQ_KEY for the index;
 * user properties; idle pauses so the reput waits and is woken) goes into the stock store, the patched store with the
 * switch off and with it on. What the dispatch built must be the same: every consume queue file and every index file,
 * CommitLog offsets read as the message they point at (patch 0003 trims each record, so the patched offsets are not
 * stock's), the index's timestamps masked; and the dispatch order (CommitLog order). Patched off and on: the same bytes
 * but the index's timestamps. Control ({@link #aReputThatSkipsOneDispatchIsCaught}): the same harness reports a patched
 * store whose consume-queue dispatch skips one message.
 *
 * <p>Timing: with the switch on and a 200 ms bound, a put is announced to long polling ({@code arriving}) within
 * milliseconds; its control drops the wake-ups (they go to a ReputMessageService that does not run) and waits for the
 * bound. Idle: with the switch on (default bound, 10 ms) the reput thread switches context at most ~100 times a second;
 * stock's ~1000 (its 1 ms sleep) is the measurement's control.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class ReputWakeOnAppendDifferentialTest {

    static final Map<String, String> ON = Map.of("reputWakeOnAppend", "true");
    static final Map<String, String> OFF = Map.of();
    static final List<String> TOPICS = List.of("reput-a", "reput-b", "reput-c", "reput-d");
    static final int PUTS = 600;
    static final long SEED = 0x5eed_0007L;
    /** IndexHeader: beginTimestamp, endTimestamp, beginPhyOffset, endPhyOffset, hashSlotCount, indexCount. */
    static final int INDEX_HEADER = 40;
    /** The probe's store: MessageStoreConfig maxHashSlotNum, maxIndexNum. */
    static final int HASH_SLOTS = 500;
    static final int INDEX_ENTRY = 20;
    static final int CQ_ENTRY = 20;

    private static List<ReputPut> puts;
    private static ReputRun stock;
    private static ReputRun patchedOff;
    private static ReputRun patchedOn;
    /** Every store of this class lives under it; gone after the class, so runs do not pile up in target/. */
    private static Path scratch;

    @BeforeAll
    static void runTheStores() throws Exception {
        scratch = Files.createTempDirectory(BuiltDistributions.target(), "reput-");
        puts = puts(new Random(SEED), PUTS);
        stock = run(PatchedBrokerLoader.stockWith533Probe(), "stock", OFF, -1);
        patchedOff = run(PatchedBrokerLoader.with533Probe(), "patched-off", OFF, -1);
        patchedOn = run(PatchedBrokerLoader.with533Probe(), "patched-on", ON, -1);
    }

    @Test
    void theSwitchIsThePatchedStoresAndOffByDefault() throws Exception {
        PatchedBrokerLoader patched = PatchedBrokerLoader.with533Probe();
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWith533Probe();
        assertThat(patched.callInside(() -> probe(patched).reputWakeOnAppend(ON))).isTrue();
        assertThat(patched.callInside(() -> probe(patched).reputWakeOnAppend(OFF))).isFalse();
        assertThat(stockLoader.callInside(() -> probe(stockLoader).reputWakeOnAppend(ON))).as("stock has no such key").isNull();
    }

    @Test
    void everyStoreDispatchedEveryMessageOnceInCommitLogOrder() {
        int messages = puts.stream().mapToInt(ReputPut::batch).sum();
        for (ReputRun run : List.of(stock, patchedOff, patchedOn)) {
            assertThat(run.recordOffsets()).hasSize(messages);
            assertThat(run.dispatchOrder()).containsExactlyElementsOf(run.recordOffsets());
        }
        assertThat(stock.consumeQueueFiles().keySet()).as("several files per queue").anyMatch(f -> !f.endsWith("00000000000000000000"));
        assertThat(stock.indexFiles().keySet()).as("the index rolled").hasSizeGreaterThan(1);
    }

    @Test
    void patchedWithTheSwitchOnBuildsStocksConsumeQueuesAndIndex() {
        assertThat(differences(stock, patchedOn)).isEmpty();
    }

    @Test
    void theSwitchChangesNoByteOfThePatchedStoresConsumeQueuesNorIndexButItsTimestamps() {
        assertThat(patchedOn.recordOffsets()).isEqualTo(patchedOff.recordOffsets());
        assertThat(patchedOn.consumeQueueFiles().keySet()).isEqualTo(patchedOff.consumeQueueFiles().keySet());
        patchedOff.consumeQueueFiles().forEach((file, bytes) ->
            assertThat(Arrays.equals(bytes, patchedOn.consumeQueueFiles().get(file))).as(file).isTrue());
        List<byte[]> off = new ArrayList<>(patchedOff.indexFiles().values());
        List<byte[]> on = new ArrayList<>(patchedOn.indexFiles().values());
        assertThat(on).hasSameSizeAs(off);
        for (int i = 0; i < off.size(); i++) {
            assertThat(Arrays.equals(timestampsMasked(off.get(i)), timestampsMasked(on.get(i)))).as("index file %d", i).isTrue();
        }
        assertThat(differences(patchedOff, patchedOn)).isEmpty();
    }

    /** Control: a patched store (switch on) whose consume-queue dispatcher skips message 137's dispatch (0-based). */
    @Test
    void aReputThatSkipsOneDispatchIsCaught() throws Exception {
        ReputRun broken = run(PatchedBrokerLoader.with533Probe(), "patched-on-skips", ON, 137);
        List<String> found = differences(stock, broken);
        assertThat(found).isNotEmpty();
        assertThat(found.get(0)).contains("message 137");
    }

    @Test
    void withTheSwitchOnAPutReachesLongPollingWithinMillisecondsNotTheBound() throws Exception {
        Map<String, String> bound = Map.of("reputWakeOnAppend", "true", "reputWakeOnAppendMaxWaitMs", "200");
        PatchedBrokerLoader patched = PatchedBrokerLoader.with533Probe();
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWith533Probe();
        String onRoot = root("latency-on");
        String stockRoot = root("latency-stock");
        String droppedRoot = root("latency-dropped");
        long[] woken = patched.callInside(() -> probe(patched).arrivalDelaysMicros(onRoot, bound, 30, 20, false));
        long[] polled = stockLoader.callInside(() -> probe(stockLoader).arrivalDelaysMicros(stockRoot, OFF, 30, 20, false));
        long[] dropped = patched.callInside(() -> probe(patched).arrivalDelaysMicros(droppedRoot, bound, 5, 20, true));
        System.out.printf(Locale.ROOT, "[reput 0007] put -> arriving, us: patched on p50 %d p90 %d max %d; stock p50 %d p90 %d max %d;"
                + " wake-ups dropped p50 %d%n", pct(woken, 50), pct(woken, 90), pct(woken, 100), pct(polled, 50), pct(polled, 90),
            pct(polled, 100), pct(dropped, 50));
        assertThat(pct(woken, 90)).as("p90 with the switch on, us").isLessThan(30_000);
        assertThat(pct(woken, 50)).as("p50 with the switch on, us").isLessThan(5_000);
        // a consumer's long poll is answered no later than on stock: stock polls every millisecond (p50 ~1 ms here)
        assertThat(pct(woken, 50)).as("p50 with the switch on vs stock's, us").isLessThanOrEqualTo(pct(polled, 50) + 2_000);
        // the control: without its wake-ups the reput waits for the 200 ms bound (minus the 20 ms pause)
        assertThat(pct(dropped, 50)).as("p50 with the wake-ups dropped, us").isGreaterThan(100_000);
    }

    @Test
    void anIdleReputWakesAboutOncePerBoundWithTheSwitchOnAndEveryMillisecondOnStock() throws Exception {
        PatchedBrokerLoader patched = PatchedBrokerLoader.with533Probe();
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWith533Probe();
        String onRoot = root("idle-on");
        String stockRoot = root("idle-stock");
        long on = patched.callInside(() -> probe(patched).idleReputContextSwitches(onRoot, ON, 300, 1000));
        long off = stockLoader.callInside(() -> probe(stockLoader).idleReputContextSwitches(stockRoot, OFF, 300, 1000));
        System.out.printf(Locale.ROOT, "[reput 0007] idle reput context switches per second: patched on %d, stock %d%n", on, off);
        assertThat(on).as("switch on, 10 ms bound").isLessThanOrEqualTo(130);
        assertThat(off).as("stock's 1 ms poll (the measurement's control)").isGreaterThan(400);
    }

    /**
     * Every difference between what two stores' dispatch built, CommitLog offsets read as the message (put order) they
     * point at and the index's timestamps masked; first the message a difference is about, where there is one.
     */
    static List<String> differences(ReputRun oracle, ReputRun candidate) {
        List<String> found = new ArrayList<>();
        if (!oracle.consumeQueueFiles().keySet().equals(candidate.consumeQueueFiles().keySet())) {
            found.add("consume queue files: " + oracle.consumeQueueFiles().keySet() + " vs " + candidate.consumeQueueFiles().keySet());
        }
        oracle.consumeQueueFiles().forEach((file, bytes) -> {
            byte[] theirs = candidate.consumeQueueFiles().get(file);
            if (theirs != null) {
                List<String> a = consumeQueue(bytes, oracle);
                List<String> b = consumeQueue(theirs, candidate);
                for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                    String x = i < a.size() ? a.get(i) : "none";
                    String y = i < b.size() ? b.get(i) : "none";
                    if (!x.equals(y)) {
                        found.add(file + " entry " + i + ": " + y + ", oracle " + x);
                        break;
                    }
                }
            }
        });
        List<byte[]> a = new ArrayList<>(oracle.indexFiles().values());
        List<byte[]> b = new ArrayList<>(candidate.indexFiles().values());
        if (a.size() != b.size()) {
            found.add("index files: " + b.size() + ", oracle " + a.size());
        }
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            List<String> x = index(a.get(i), oracle);
            List<String> y = index(b.get(i), candidate);
            for (int j = 0; j < Math.max(x.size(), y.size()); j++) {
                String p = j < x.size() ? x.get(j) : "none";
                String q = j < y.size() ? y.get(j) : "none";
                if (!p.equals(q)) {
                    found.add("index file " + i + " " + q + ", oracle " + p);
                    break;
                }
            }
        }
        List<Long> orderA = ordinals(oracle.dispatchOrder(), oracle);
        List<Long> orderB = ordinals(candidate.dispatchOrder(), candidate);
        if (!orderA.equals(orderB)) {
            found.add("dispatch order differs");
        }
        found.sort((s, t) -> Boolean.compare(!s.contains("message "), !t.contains("message ")));
        return found;
    }

    /** A consume queue file's entries up to the first empty one: "message N size-ok|size S tags T". */
    static List<String> consumeQueue(byte[] file, ReputRun run) {
        List<String> entries = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file);
        for (int at = 0; at + CQ_ENTRY <= file.length; at += CQ_ENTRY) {
            long offset = b.getLong(at);
            int size = b.getInt(at + 8);
            long tags = b.getLong(at + 12);
            if (offset == 0 && size == 0 && tags == 0) {
                break;
            }
            entries.add(message(offset, run) + (sizeOf(offset, run) == size ? " size-ok" : " size " + size) + " tags " + tags);
        }
        return entries;
    }

    /** An index file: header (timestamps masked, offsets as messages, counts), every slot, every entry (time masked). */
    static List<String> index(byte[] file, ReputRun run) {
        ByteBuffer b = ByteBuffer.wrap(file);
        List<String> out = new ArrayList<>();
        int count = b.getInt(36);
        out.add("header begin " + message(b.getLong(16), run) + " end " + message(b.getLong(24), run) + " slots " + b.getInt(32)
            + " entries " + count);
        for (int slot = 0; slot < HASH_SLOTS; slot++) {
            out.add("slot " + slot + " -> " + b.getInt(INDEX_HEADER + slot * 4));
        }
        int entries = INDEX_HEADER + HASH_SLOTS * 4;
        for (int i = 0; i <= count && entries + (i + 1) * INDEX_ENTRY <= file.length; i++) {
            int at = entries + i * INDEX_ENTRY;
            out.add("entry " + i + ": hash " + b.getInt(at) + " " + message(b.getLong(at + 4), run) + " prev " + b.getInt(at + 16));
        }
        return out;
    }

    /** The index file with its timestamps (header begin and end, each entry's time difference) zeroed. */
    static byte[] timestampsMasked(byte[] file) {
        byte[] copy = file.clone();
        ByteBuffer b = ByteBuffer.wrap(copy);
        b.putLong(0, 0).putLong(8, 0);
        int entries = INDEX_HEADER + HASH_SLOTS * 4;
        for (int at = entries; at + INDEX_ENTRY <= copy.length; at += INDEX_ENTRY) {
            b.putInt(at + 12, 0);
        }
        return copy;
    }

    private static String message(long offset, ReputRun run) {
        int i = run.recordOffsets().indexOf(offset);
        return i >= 0 ? "message " + i : "offset " + offset;
    }

    private static int sizeOf(long offset, ReputRun run) {
        int i = run.recordOffsets().indexOf(offset);
        return i >= 0 ? run.recordSizes().get(i) : -1;
    }

    private static List<Long> ordinals(List<Long> offsets, ReputRun run) {
        return offsets.stream().map(o -> (long) run.recordOffsets().indexOf(o)).toList();
    }

    /** A seeded sequence: mostly single puts, one in eight a batch of 2-5, one in ten after an idle pause of 0.2-3 ms. */
    static List<ReputPut> puts(Random random, int count) {
        List<ReputPut> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int batch = random.nextInt(8) == 0 ? 2 + random.nextInt(4) : 1;
            int body = random.nextInt(10) == 0 ? random.nextInt(6 * 1024) : random.nextInt(600);
            List<String> keys = new ArrayList<>();
            for (int k = random.nextInt(4); k > 0; k--) {
                keys.add("key" + random.nextInt(300));
            }
            Map<String, String> user = new LinkedHashMap<>();
            for (int u = random.nextInt(3); u > 0; u--) {
                user.put("p" + random.nextInt(5), "v" + random.nextInt(1000));
            }
            out.add(new ReputPut(TOPICS.get(random.nextInt(TOPICS.size())), random.nextInt(4), batch, body, "Tag" + random.nextInt(6),
                keys, random.nextBoolean() ? "UNIQ" + i : null, user, random.nextInt(10) == 0 ? 200 + random.nextInt(2800) : 0));
        }
        return out;
    }

    private static ReputRun run(PatchedBrokerLoader loader, String name, Map<String, String> settings, int skip) throws Exception {
        String root = root(name);
        return loader.callInside(() -> probe(loader).putAll(root, settings, puts, skip));
    }

    private static ReputProbe probe(PatchedBrokerLoader loader) throws Exception {
        Class<?> type = loader.load(Probe533Classes.PACKAGE + "ReputProbe533");
        return (ReputProbe) type.getConstructor().newInstance();
    }

    private static String root(String name) throws IOException {
        return Files.createDirectory(scratch.resolve(name)).toString();
    }

    /** After the probe's background closes (ReputProbe533: a store's shutdown sleeps 3 s, then writes a checkpoint). */
    @AfterAll
    static void deleteTheStores() throws InterruptedException {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(ReputProbe.CLOSE_THREAD)) {
                thread.join(Duration.ofSeconds(15).toMillis());
            }
        }
        if (scratch != null) {
            FileTrees.deleteRecursively(scratch);
        }
    }

    private static long pct(long[] values, int percentile) {
        return NearestRank.percentile(values, percentile);
    }
}
