package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.dist.TimerWheels.Outcome;
import io.hotpath.dist.TimerWheels.Side;
import io.hotpath.dist.TimerWheels.Wheel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Patch 0006 (5.5.1): {@code TimerWheel#flush} copies only the slots written since the last flush. The oracle is Central's
 * rocketmq-store 5.5.1 {@code TimerWheel} ({@link TimerWheels#central()}); the candidate is the patched distribution's. The
 * same sequence of putSlot (both forms), reviseSlot (forced or not), repeated writes of the same bytes, flushes and crashes
 * (unmapped without a flush, then opened again from the file, as a restarted broker does) runs on a wheel of each, each on
 * its own file: every call must end the same way (or throw the same exception), and after every flush the two files must
 * hold the same bytes; at the end every slot must read the same. The sequences favour slot 0, the last slot, the slots at
 * a 64-slot word's edge (the patched bit set's), wheels of 2 to 200 slots, several turns of the wheel (wrap-around:
 * a slot reused by a later time) and times before 0 (both throw). The same harness passes with upstream's own build of
 * the stock tree as the candidate, and it catches a patched flush that skips one written slot (the control,
 * {@link #aFlushThatSkipsOneWrittenSlotIsCaught}).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class TimerWheelFlushDifferentialTest {

    /** A wheel's files; tmpfs where there is one: a force() there writes nothing back, so the 2 x 5,000 tries stay short. */
    private static final Path FILES = files();
    /** TimerWheel.IGNORE: reviseSlot leaves that position as it is. */
    private static final long IGNORE = -2;

    @AfterContainer
    static void deleteFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(FILES)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Example
    void thePatchedClassTracksWrittenSlotsAndTheOracleDoesNot() {
        assertThat(TimerWheels.patched().hasWrittenSlots()).as("patch 0006 in the patched lib/").isTrue();
        assertThat(TimerWheels.central().hasWrittenSlots()).as("Central's rocketmq-store 5.5.1").isFalse();
        assertThat(TimerWheels.stock().hasWrittenSlots()).as("the stock lib/").isFalse();
    }

    @Property(tries = 5000)
    void thePatchedWheelFileIsStocksAfterEveryFlush(@ForAll("slotsTotals") int slotsTotal, @ForAll("precisions") int precisionMs,
        @ForAll("sequences") List<Op> ops) {
        assertThat(firstDifference(TimerWheels.patched(), null, slotsTotal, precisionMs, ops)).isEmpty();
    }

    @Property(tries = 1000)
    void theHarnessPassesOnUpstreamsOwnBuildOfTheStockTree(@ForAll("slotsTotals") int slotsTotal,
        @ForAll("precisions") int precisionMs, @ForAll("sequences") List<Op> ops) {
        assertThat(firstDifference(TimerWheels.stock(), null, slotsTotal, precisionMs, ops)).isEmpty();
    }

    @Example
    void theRealWheelSizeFlushesTheSameBytesAtItsEdgesAndAcrossACrash() {
        int slotsTotal = 7 * 24 * 3600; // TimerMessageStore's: TIMER_WHEEL_TTL_DAY * DAY_SECS
        int slots = 2 * slotsTotal;
        long turn = (long) slots * 1000;
        long now = 1_764_400_000_000L; // 2025-11-29
        List<Op> ops = List.of(new Flush(),
            new Put5(new At(now), 100, 200, 1, 0), new Put5(new At(0), 1, 1, 1, 1), new Put5(new At(turn - 1), 7, 8, 9, 10),
            new Flush(), new Flush(), new Revise(new At(now), IGNORE, 300, false),
            new Revise(new At(now + turn), 5, 6, true), new Put3(new At(turn * 3 + 1000), -1, -1), new Repeat(),
            new Flush(), new Put5(new At(now + 1000), 1, 2, 3, 4), new Crash(), new Flush(),
            new Put5(new At(now + 2000), 1, 2, 3, 4), new Put5(new At(now + 2000), 1, 2, 3, 4), new Flush());
        assertThat(firstDifference(TimerWheels.patched(), null, slotsTotal, 1000, ops)).isEmpty();
    }

    /**
     * The control: the patched wheel, with one written slot's bit cleared before the flush that follows its write (what a
     * flush that skips that slot would do). The harness must report the slot: the first slot, the last, one at a word's
     * edge, one rewritten by a later turn of the wheel, and one written by a forced revise.
     */
    @Example
    void aFlushThatSkipsOneWrittenSlotIsCaught() {
        int slotsTotal = 50; // 100 slots, two words
        long turn = 100L * 1000;
        List<List<Op>> writes = List.of(
            List.of(new Put5(new At(0), 1, 2, 3, 4)),
            List.of(new Put5(new At(99 * 1000), 1, 2, 3, 4)),
            List.of(new Put3(new At(63 * 1000), 5, 6), new Put3(new At(64 * 1000), 5, 6)),
            List.of(new Put5(new At(7 * 1000), 1, 2, 3, 4), new Flush(), new Put5(new At(turn + 7 * 1000), 1, 2, 3, 4)),
            List.of(new Revise(new At(42 * 1000), 9, 9, true)));
        for (List<Op> write : writes) {
            List<Op> ops = new ArrayList<>(write);
            ops.add(new Flush());
            int skipped = (int) (((At) lastWrite(write).at()).timeMs / 1000 % 100);
            assertThat(firstDifference(TimerWheels.patched(), null, slotsTotal, 1000, ops)).as("patched, " + ops).isEmpty();
            assertThat(firstDifference(TimerWheels.patched(), skipped, slotsTotal, 1000, ops)).as("control, " + ops)
                .hasValueSatisfying(d -> assertThat(d).contains("slot " + skipped));
        }
    }

    private static Write lastWrite(List<Op> ops) {
        return (Write) ops.stream().filter(op -> op instanceof Write).reduce((a, b) -> b).orElseThrow();
    }

    /**
     * Runs {@code ops} on the oracle and on {@code candidate}; the first way they differ, or empty. With {@code skipSlot},
     * the candidate forgets that slot was written right before the last flush (the control).
     */
    private static Optional<String> firstDifference(Side candidate, Integer skipSlot, int slotsTotal, int precisionMs,
        List<Op> ops) {
        Path dir = newDir();
        Wheel oracle = TimerWheels.central().open(dir.resolve("oracle/timerwheel"), slotsTotal, precisionMs);
        Wheel other = candidate.open(dir.resolve("candidate/timerwheel"), slotsTotal, precisionMs);
        try {
            Write last = null;
            int lastFlush = ops.lastIndexOf(new Flush());
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                if (op instanceof Repeat) {
                    if (last == null) {
                        continue;
                    }
                    op = last;
                }
                if (op instanceof Write write) {
                    last = write;
                }
                if (i == lastFlush && skipSlot != null) {
                    other.forgetWritten(skipSlot);
                }
                Outcome expected = op.apply(oracle);
                Outcome actual = op.apply(other);
                if (!expected.equals(actual)) {
                    return Optional.of(what(i, op, ops, slotsTotal, precisionMs) + ": " + candidate + " " + actual + ", oracle "
                        + expected);
                }
                if (op instanceof Flush || op instanceof Crash) {
                    Optional<String> files = compareFiles(oracle, other);
                    if (files.isPresent()) {
                        return Optional.of(what(i, op, ops, slotsTotal, precisionMs) + ": " + files.get());
                    }
                }
            }
            if (skipSlot == null) {
                oracle.flush();
                other.flush();
                Optional<String> files = compareFiles(oracle, other);
                if (files.isPresent()) {
                    return Optional.of("final flush of " + ops + ": " + files.get());
                }
            }
            for (int slot = 0; slot < 2 * slotsTotal; slot++) {
                long timeMs = (long) slot * precisionMs;
                if (!oracle.rawSlot(timeMs).equals(other.rawSlot(timeMs))) {
                    return Optional.of("slot " + slot + " reads " + other.rawSlot(timeMs) + ", oracle " + oracle.rawSlot(timeMs));
                }
            }
            return Optional.empty();
        } finally {
            oracle.close();
            other.close();
            delete(dir);
        }
    }

    private static String what(int i, Op op, List<Op> ops, int slotsTotal, int precisionMs) {
        return "op " + i + " " + op + " of " + ops + ", " + slotsTotal + " x 2 slots of " + precisionMs + " ms";
    }

    private static Optional<String> compareFiles(Wheel oracle, Wheel other) {
        byte[] expected = oracle.fileBytes();
        byte[] actual = other.fileBytes();
        if (expected.length != actual.length) {
            return Optional.of("file length " + actual.length + ", oracle " + expected.length);
        }
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                return Optional.of("file byte " + i + " (slot " + i / 32 + ", byte " + i % 32 + ") is " + actual[i] + ", oracle "
                    + expected[i]);
            }
        }
        return Optional.empty();
    }

    // ---- the operations

    /** A time: {@code turn} turns of the wheel plus {@code slot} (negative: counted from the last slot) plus a jitter. */
    record Time(int turn, int slot, int jitter) {
        long timeMs(Wheel wheel) {
            int slots = 2 * wheel.slotsTotal;
            int index = Math.floorMod(slot, slots);
            return ((long) turn * slots + index) * wheel.precisionMs + Math.floorMod(jitter, wheel.precisionMs);
        }
    }

    /** A fixed time in ms (the examples). */
    record At(long timeMs) {
    }

    sealed interface Op permits Write, Flush, Crash, Repeat {
        Outcome apply(Wheel wheel);
    }

    sealed interface Write extends Op permits Put3, Put5, Revise {
        Object at();

        default long timeMs(Wheel wheel) {
            return at() instanceof Time t ? t.timeMs(wheel) : ((At) at()).timeMs;
        }
    }

    record Put3(Object at, long firstPos, long lastPos) implements Write {
        @Override
        public Outcome apply(Wheel wheel) {
            return wheel.putSlot(timeMs(wheel), firstPos, lastPos);
        }
    }

    record Put5(Object at, long firstPos, long lastPos, int num, int magic) implements Write {
        @Override
        public Outcome apply(Wheel wheel) {
            return wheel.putSlot(timeMs(wheel), firstPos, lastPos, num, magic);
        }
    }

    record Revise(Object at, long firstPos, long lastPos, boolean force) implements Write {
        @Override
        public Outcome apply(Wheel wheel) {
            return wheel.reviseSlot(timeMs(wheel), firstPos, lastPos, force);
        }
    }

    record Flush() implements Op {
        @Override
        public Outcome apply(Wheel wheel) {
            return wheel.flush();
        }
    }

    /** The broker dies without a flush and starts again: the wheel is read back from its file. */
    record Crash() implements Op {
        @Override
        public Outcome apply(Wheel wheel) {
            wheel.crashAndReopen();
            return Outcome.OK;
        }
    }

    /** The previous write again, the same bytes into the same slot (replaced by that write when run). */
    record Repeat() implements Op {
        @Override
        public Outcome apply(Wheel wheel) {
            throw new IllegalStateException("replaced by the write it repeats");
        }
    }

    // ---- generators

    @Provide
    Arbitrary<Integer> slotsTotals() {
        // 2 x: 2, 4, 62, 64 (one word exactly), 66, 128, 200 slots
        return Arbitraries.of(1, 2, 31, 32, 33, 64, 100);
    }

    @Provide
    Arbitrary<Integer> precisions() {
        return Arbitraries.of(1, 100, 1000);
    }

    @Provide
    Arbitrary<List<Op>> sequences() {
        Arbitrary<Time> time = Combinators.combine(
            Arbitraries.frequency(tuple(1, -1), tuple(8, 0), tuple(4, 1), tuple(2, 3), tuple(1, 1000)),
            Arbitraries.oneOf(Arbitraries.of(0, -1, 63, 64, -64, 1), Arbitraries.integers().between(0, 199)),
            Arbitraries.integers().between(0, 999)).as(Time::new);
        Arbitrary<Long> pos = Arbitraries.oneOf(Arbitraries.of(-1L, -2L, 0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE),
            Arbitraries.longs().between(0, 1L << 40), Arbitraries.longs());
        Arbitrary<Integer> small = Arbitraries.oneOf(Arbitraries.of(0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE),
            Arbitraries.integers());
        Arbitrary<Op> put3 = Combinators.combine(time, pos, pos).as(Put3::new);
        Arbitrary<Op> put5 = Combinators.combine(time, pos, pos, small, small).as(Put5::new);
        Arbitrary<Op> revise = Combinators.combine(time, pos, pos, Arbitraries.of(true, false)).as(Revise::new);
        Arbitrary<Op> op = Arbitraries.frequencyOf(tuple(4, put3), tuple(6, put5), tuple(6, revise),
            tuple(3, Arbitraries.just(new Repeat())), tuple(4, Arbitraries.just(new Flush())), tuple(1, Arbitraries.just(new Crash())));
        return op.list().ofMaxSize(40);
    }

    private static <T> net.jqwik.api.Tuple.Tuple2<Integer, T> tuple(int weight, T value) {
        return net.jqwik.api.Tuple.of(weight, value);
    }

    // ---- files

    private static Path files() {
        try {
            Path shm = Path.of("/dev/shm");
            Path parent = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
            return Files.createTempDirectory(parent, "timer-wheel-flush-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path newDir() {
        try {
            return Files.createTempDirectory(FILES, "case-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
