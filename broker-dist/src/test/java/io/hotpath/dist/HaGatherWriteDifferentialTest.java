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

import io.hotpath.dist.store.shared.HaWireProbe;
import io.hotpath.dist.store.shared.HaWireProbe.HaWire;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0016 (5.5.1 and 5.3.3): with {@code haTransferGatherWrite=true} a master's HA connection writes each frame's
 * header and CommitLog data in one gathering write and skips the select after a frame went out whole. The oracle is a
 * REAL stock {@code DefaultMessageStore} of the line as a master (the stock distribution's lib/), the candidate the patched
 * distribution's with the switch on; both run {@link HaWireProbe} in their own class loader, the slave a plain socket that
 * keeps every byte it reads.
 *
 * <p>One store is filled once (by the stock classes: patch 0003 trims what the patched store writes, so the CommitLogs of
 * the two would differ) and each master starts over a copy of it, so what the masters send is decided by their HA code
 * alone: the frames' boundaries follow the CommitLog files and haTransferBatchSize, not timing. The slave asks from the
 * second file on, as a slave holding the first. Compared byte for byte: a fast slave; a slow one (4 KB buffers on both ends
 * and pauses, so the master's writes come back partial and frames resume on the next loop); flow control on with a limit
 * of 64 KB a second, which the headers never reach (stock counts the headers' bytes only; a count of the data's would cap
 * the third frame). The lever
 * itself: the writer thread's write system calls per frame, stock's two, patched's one. Control
 * ({@link #aMasterThatCutsOtherFramesIsToldApart}): a patched master with half stock's haTransferBatchSize writes the
 * same data in other frames, and the comparison says so.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class HaGatherWriteDifferentialTest {

    static final Map<String, String> ON = Map.of("haTransferGatherWrite", "true");
    static final Map<String, String> OFF = Map.of();
    static final int FILE = 256 * 1024; // ReputProbe533's CommitLog file size
    static final int FRAME_HEADER = 12;
    static final int FAST_CHUNK = 1 << 20;
    static final int SLOW_CHUNK = 4096;
    static final long SLOW_PAUSE_MICROS = 200;
    static final int SLOW_MASTER_SEND_BUFFER = 4096;
    static final long FLOW_LIMIT = 64 * 1024;
    static final long SEED = 0x5eed_0016L;

    private static Path filled;
    private static long maxOffset;
    private static byte[] commitLog;
    private static HaWire stock;
    private static HaWire patchedOff;
    private static HaWire patchedOn;

    @BeforeAll
    static void fillAndCapture() throws Exception {
        Random random = new Random(SEED);
        List<Integer> bodies = new ArrayList<>();
        for (int total = 0; total < 6 * FILE; ) {
            int body = random.nextInt(10) == 0 ? random.nextInt(40_000) : random.nextInt(6_000);
            bodies.add(body);
            total += body + 200;
        }
        filled = dir("filled");
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWith533Probe();
        maxOffset = stockLoader.callInside(() -> probe(stockLoader).fill(filled.toString(), bodies));
        commitLog = commitLog(filled, FILE, maxOffset);
        stock = capture(stockLoader, "stock", OFF, FAST_CHUNK, 0, 0);
        PatchedBrokerLoader patched = PatchedBrokerLoader.with533Probe();
        patchedOff = capture(patched, "patched-off", OFF, FAST_CHUNK, 0, 0);
        patchedOn = capture(patched, "patched-on", ON, FAST_CHUNK, 0, 0);
    }

    @Test
    void theSwitchIsThePatchedStoresAndOffByDefault() throws Exception {
        PatchedBrokerLoader patched = PatchedBrokerLoader.with533Probe();
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWith533Probe();
        assertThat(patched.callInside(() -> probe(patched).haTransferGatherWrite(ON))).isTrue();
        assertThat(patched.callInside(() -> probe(patched).haTransferGatherWrite(OFF))).isFalse();
        assertThat(stockLoader.callInside(() -> probe(stockLoader).haTransferGatherWrite(ON))).as("stock has no such key").isNull();
    }

    @Test
    void stocksFramesCarryTheCommitLogFromTheSlavesOffsetInBatchSizedPieces() {
        List<Frame> frames = frames(stock.bytes());
        assertThat(frames.size()).as("several frames per file").isGreaterThan(4 * (FILE / (32 * 1024)));
        assertThat(frames).allMatch(f -> f.size() > 0 && f.size() <= 32 * 1024);
        assertThat(bodies(stock.bytes())).isEqualTo(Arrays.copyOfRange(commitLog, FILE, (int) maxOffset));
    }

    @Test
    void patchedWithTheSwitchOnWritesStocksBytes() {
        assertThat(differences(stock, patchedOn)).isEmpty();
        assertThat(differences(stock, patchedOff)).isEmpty();
    }

    @Test
    void toASlowSlaveTheSwitchWritesStocksBytesToo() throws Exception {
        HaWire slowStock = capture(PatchedBrokerLoader.stockWith533Probe(), "slow-stock", OFF, SLOW_CHUNK, SLOW_PAUSE_MICROS,
            SLOW_MASTER_SEND_BUFFER);
        HaWire slowOn = capture(PatchedBrokerLoader.with533Probe(), "slow-on", ON, SLOW_CHUNK, SLOW_PAUSE_MICROS, SLOW_MASTER_SEND_BUFFER);
        int frames = frames(slowOn.bytes()).size();
        System.out.printf(Locale.ROOT, "[ha gather 0016] slow slave, %d frames: writer write calls stock %d, patched on %d%n",
            frames, slowStock.writeSystemCalls(), slowOn.writeSystemCalls());
        assertThat(differences(stock, slowStock)).as("timing decides no frame").isEmpty();
        assertThat(differences(slowStock, slowOn)).isEmpty();
        assertThat(slowOn.writeSystemCalls()).as("partial writes: frames resumed").isGreaterThan(2L * frames);
    }

    @Test
    void withFlowControlOnTheSwitchCountsWhatStockCounts() throws Exception {
        // every frame may be cut to what is left of the second's allowance: 64 KB less what was counted; the headers (12
        // bytes each) leave more than a whole frame (32 KB), the data of two frames would leave nothing
        Map<String, String> limit = Map.of("haFlowControlEnable", "true", "maxHaTransferByteInSecond", Long.toString(FLOW_LIMIT));
        Map<String, String> limitOn = new HashMap<>(limit);
        limitOn.putAll(ON);
        HaWire limitedStock = capture(PatchedBrokerLoader.stockWith533Probe(), "limit-stock", limit, FAST_CHUNK, 0, 0);
        HaWire limitedOn = capture(PatchedBrokerLoader.with533Probe(), "limit-on", limitOn, FAST_CHUNK, 0, 0);
        assertThat(frames(limitedStock.bytes()).size() * FRAME_HEADER).as("the headers leave a whole frame")
            .isLessThan((int) FLOW_LIMIT - 32 * 1024);
        assertThat(differences(limitedStock, limitedOn)).isEmpty();
        assertThat(differences(stock, limitedOn)).isEmpty();
    }

    @Test
    void theSwitchWritesEachFrameInOneSystemCallWhereStockTakesTwo() {
        int frames = frames(stock.bytes()).size();
        System.out.printf(Locale.ROOT, "[ha gather 0016] %d frames: writer write calls stock %d, patched off %d, patched on %d%n",
            frames, stock.writeSystemCalls(), patchedOff.writeSystemCalls(), patchedOn.writeSystemCalls());
        assertThat(stock.writeSystemCalls()).as("stock: the header, then the data").isGreaterThanOrEqualTo(2L * frames);
        assertThat(patchedOff.writeSystemCalls()).as("the switch off is stock's code").isGreaterThanOrEqualTo(2L * frames);
        assertThat(patchedOn.writeSystemCalls()).isGreaterThanOrEqualTo(frames).isLessThanOrEqualTo(frames + frames / 4 + 2L);
    }

    /** Control: the same data in frames of half stock's haTransferBatchSize (16 KB). */
    @Test
    void aMasterThatCutsOtherFramesIsToldApart() throws Exception {
        Map<String, String> halfBatch = new HashMap<>(ON);
        halfBatch.put("haTransferBatchSize", Integer.toString(16 * 1024));
        HaWire other = capture(PatchedBrokerLoader.with533Probe(), "half-batch", halfBatch, FAST_CHUNK, 0, 0);
        assertThat(bodies(other.bytes())).as("the same data").isEqualTo(bodies(stock.bytes()));
        List<String> found = differences(stock, other);
        assertThat(found).isNotEmpty();
        assertThat(found.get(0)).contains("frame 0");
    }

    /** Empty when the two wires are the same bytes; else where they part, by frame. */
    static List<String> differences(HaWire expected, HaWire actual) {
        assertThat(expected.complete()).as("the oracle's wire reaches the master's max offset").isTrue();
        if (Arrays.equals(expected.bytes(), actual.bytes()) && actual.complete()) {
            return List.of();
        }
        List<Frame> a = frames(expected.bytes());
        List<Frame> b = frames(actual.bytes());
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (a.get(i).offset() != b.get(i).offset() || a.get(i).size() != b.get(i).size()) {
                return List.of(String.format(Locale.ROOT, "frame %d: offset %d size %d, expected offset %d size %d", i, b.get(i).offset(),
                    b.get(i).size(), a.get(i).offset(), a.get(i).size()));
            }
        }
        int at = Arrays.mismatch(expected.bytes(), actual.bytes());
        return List.of(String.format(Locale.ROOT, "%d vs %d frames, %d vs %d bytes, first differing byte %d%s", a.size(), b.size(),
            expected.bytes().length, actual.bytes().length, at, actual.complete() ? "" : "; the master stopped before its max offset"));
    }

    /** One frame as its header announces it: the CommitLog offset and size of its data, and where on the wire the data starts. */
    record Frame(long offset, int size, int dataStart) {
    }

    /** Each frame, header by header. */
    static List<Frame> frames(byte[] wire) {
        List<Frame> frames = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(wire);
        while (in.remaining() >= FRAME_HEADER) {
            long offset = in.getLong();
            int size = in.getInt();
            frames.add(new Frame(offset, size, in.position()));
            in.position(in.position() + size);
        }
        assertThat(in.remaining()).as("the wire ends at a frame's end").isZero();
        return frames;
    }

    /** The frames' data, concatenated, when each frame starts where the one before ended. */
    static byte[] bodies(byte[] wire) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long next = -1;
        for (Frame frame : frames(wire)) {
            assertThat(next == -1 || frame.offset() == next).as("frame at %d follows the one ending at %d", frame.offset(), next).isTrue();
            out.write(wire, frame.dataStart(), frame.size());
            next = frame.offset() + frame.size();
        }
        return out.toByteArray();
    }

    private static HaWire capture(PatchedBrokerLoader loader, String name, Map<String, String> settings, int chunk, long pauseMicros,
        int masterSendBuffer) throws Exception {
        Path copy = dir(name);
        try (Stream<Path> files = Files.walk(filled)) {
            for (Path source : files.toList()) {
                Path target = copy.resolve(filled.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        return loader.callInside(() -> probe(loader).capture(copy.toString(), settings, FILE, chunk, pauseMicros, masterSendBuffer));
    }

    /** The CommitLog's bytes from 0 to {@code max}, read from its files (named by their first offset). */
    private static byte[] commitLog(Path root, int fileSize, long max) {
        byte[] all = new byte[(int) max];
        for (long start = 0; start < max; start += fileSize) {
            Path file = root.resolve("commitlog").resolve(String.format(Locale.ROOT, "%020d", start));
            try {
                byte[] bytes = Files.readAllBytes(file);
                System.arraycopy(bytes, 0, all, (int) start, (int) Math.min(fileSize, max - start));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all;
    }

    private static HaWireProbe probe(PatchedBrokerLoader loader) throws Exception {
        Class<?> type = loader.load(Probe533Classes.PACKAGE + "HaWireProbe533");
        return (HaWireProbe) type.getConstructor().newInstance();
    }

    private static Path dir(String name) throws IOException {
        return Files.createTempDirectory(BuiltDistributions.target(), "ha-wire-" + name + "-");
    }
}
