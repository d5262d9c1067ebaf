package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;

/**
 * 5.5.1's {@code org.apache.rocketmq.store.timer.TimerWheel} from one of three places, each in a class loader of its own
 * (parent: the platform loader, so nothing of the test classpath's RocketMQ 4.9.0 leaks in), called by reflection:
 * <ul>
 * <li>{@link #central()}: Central's rocketmq-store 5.5.1 jar (copied to target/ by broker-dist/pom.xml, profile
 * line-5.5.1) over the stock distribution's other jars: the oracle;</li>
 * <li>{@link #patched()}: the patched distribution's lib/ (patch 0006's TimerWheel);</li>
 * <li>{@link #stock()}: the stock distribution's lib/ (upstream's build of the assembled tree), to show the harness passes
 * on two stock wheels.</li>
 * </ul>
 */
final class TimerWheels {

    static final String TIMER_WHEEL = "org.apache.rocketmq.store.timer.TimerWheel";
    /** Patch 0006's bit set of written slots: present in the patched class only. */
    static final String WRITTEN_SLOTS = "writtenSlots";

    private TimerWheels() {
    }

    private static final class Central {
        static final Side INSTANCE = new Side(IsolatedLib.centralStore());
    }

    private static final class Patched {
        static final Side INSTANCE = new Side(IsolatedLib.patched());
    }

    private static final class Stock {
        static final Side INSTANCE = new Side(IsolatedLib.stock());
    }

    static Side central() {
        return Central.INSTANCE;
    }

    static Side patched() {
        return Patched.INSTANCE;
    }

    static Side stock() {
        return Stock.INSTANCE;
    }

    /** One source of TimerWheel: its class and the methods the tests call. */
    static final class Side {
        final String name;
        final URLClassLoader loader;
        final Class<?> type;
        private final Constructor<?> open;
        private final Method put3;
        private final Method put5;
        private final Method revise;
        private final Method flush;
        private final Method shutdown;
        private final Method rawSlot;

        Side(IsolatedLib lib) {
            this.name = lib.name;
            this.loader = lib.loader;
            try {
                this.type = inside(() -> Class.forName(TIMER_WHEEL, true, loader));
                this.open = type.getConstructor(String.class, int.class, int.class);
                this.put3 = type.getMethod("putSlot", long.class, long.class, long.class);
                this.put5 = type.getMethod("putSlot", long.class, long.class, long.class, int.class, int.class);
                this.revise = type.getMethod("reviseSlot", long.class, long.class, long.class, boolean.class);
                this.flush = type.getMethod("flush");
                this.shutdown = type.getMethod("shutdown", boolean.class);
                this.rawSlot = type.getMethod("getRawSlot", long.class);
            } catch (Exception e) {
                throw new IllegalStateException("TimerWheel of " + name + ": " + e, e);
            }
        }

        boolean hasWrittenSlots() {
            return Stream.of(type.getDeclaredFields()).anyMatch(f -> f.getName().equals(WRITTEN_SLOTS));
        }

        Wheel open(Path file, int slotsTotal, int precisionMs) {
            return new Wheel(this, file, slotsTotal, precisionMs);
        }

        private <T> T inside(Call<T> call) throws Exception {
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            // 5.x's shaded slf4j finds its provider through the context loader
            thread.setContextClassLoader(loader);
            try {
                return call.call();
            } finally {
                thread.setContextClassLoader(context);
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface Call<T> {
        T call() throws Exception;
    }

    /** What a call threw: the exception's class name (the same on every side), or null. */
    record Outcome(String thrown) {
        static final Outcome OK = new Outcome(null);
    }

    /** One open TimerWheel of a side, on its own file. */
    static final class Wheel {
        final Side side;
        final Path file;
        final int slotsTotal;
        final int precisionMs;
        private Object wheel;

        private Wheel(Side side, Path file, int slotsTotal, int precisionMs) {
            this.side = side;
            this.file = file;
            this.slotsTotal = slotsTotal;
            this.precisionMs = precisionMs;
            reopen();
        }

        /** A new TimerWheel on the same file, as a restarted broker opens it. */
        void reopen() {
            try {
                wheel = side.inside(() -> side.open.newInstance(file.toString(), slotsTotal, precisionMs));
            } catch (Exception e) {
                throw new IllegalStateException(side + ": cannot open " + file, e);
            }
        }

        Outcome putSlot(long timeMs, long firstPos, long lastPos) {
            return call(side.put3, timeMs, firstPos, lastPos);
        }

        Outcome putSlot(long timeMs, long firstPos, long lastPos, int num, int magic) {
            return call(side.put5, timeMs, firstPos, lastPos, num, magic);
        }

        Outcome reviseSlot(long timeMs, long firstPos, long lastPos, boolean force) {
            return call(side.revise, timeMs, firstPos, lastPos, force);
        }

        Outcome flush() {
            return call(side.flush);
        }

        /** The process dies: the wheel unmapped without a flush (what the page cache holds stays), then opened again. */
        void crashAndReopen() {
            call(side.shutdown, false);
            reopen();
        }

        void close() {
            call(side.shutdown, false);
        }

        /** The slot's fields as getRawSlot reads them from the local buffer (timeMs, firstPos, lastPos, num, magic). */
        String rawSlot(long timeMs) {
            try {
                Object slot = side.inside(() -> side.rawSlot.invoke(wheel, timeMs));
                StringBuilder fields = new StringBuilder();
                for (String name : new String[] {"timeMs", "firstPos", "lastPos", "num", "magic"}) {
                    fields.append(name).append('=').append(slot.getClass().getField(name).get(slot)).append(' ');
                }
                return fields.toString().trim();
            } catch (Exception e) {
                throw new IllegalStateException(side + ": getRawSlot(" + timeMs + ")", e);
            }
        }

        byte[] fileBytes() {
            try {
                return Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * The control: clears one slot's bit in patch 0006's written-slots set, as a flush that skipped that slot would
         * leave it. Only on a patched wheel.
         */
        void forgetWritten(int slotIndex) {
            try {
                Field field = side.type.getDeclaredField(WRITTEN_SLOTS);
                field.setAccessible(true);
                AtomicLongArray bits = (AtomicLongArray) field.get(wheel);
                bits.getAndUpdate(slotIndex >>> 6, word -> word & ~(1L << slotIndex));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(side + " has no " + WRITTEN_SLOTS, e);
            }
        }

        private Outcome call(Method method, Object... args) {
            try {
                side.inside(() -> method.invoke(wheel, args));
                return Outcome.OK;
            } catch (InvocationTargetException e) {
                return new Outcome(e.getCause().getClass().getName());
            } catch (Exception e) {
                throw new IllegalStateException(side + ": " + method, e);
            }
        }
    }
}
