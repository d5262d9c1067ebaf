package io.hotpath.jmh.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.hotpath.jmh.AbstractBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What TimerFlushService does every {@code timerFlushIntervalMs} (1 s): {@code TimerWheel#flush()} of a broker's wheel
 * (604,800 x 2 slots of 32 B, a 38.7 MB file), after {@code changedSlots} slots were written since the last flush (0: an
 * idle broker's unchanged wheel; a few: a broker taking a few timer messages a second). Each written slot gets a new
 * value, so each flush has that many slots to copy and a mapping to force. {@code upstream551()}: Central's
 * rocketmq-store 5.5.1 (a whole-wheel byte compare, then force() every time); {@code hotpath551()}: patch 0006's
 * TimerWheel from the patched 5.5.1 distribution (copies only the written slots, forces only when a byte changed).
 * The writes ({@code putSlot}) are timed too, in both; a flush dwarfs them.
 *
 * <p>Both wheels live in class loaders of their own (the benchmark class path has RocketMQ 4.9.0, without a timer
 * wheel), made from broker-dist's 5.5.1 build: {@code distTarget}/rocketmq-5.5.1-{stock,patched}/lib and the Central
 * jar broker-dist copies to {@code distTarget}/upstream-551-rocketmq-store.jar. Build them first with
 * {@code mvn -B -pl broker-dist verify -Dhotpath.line=5.5.1}. The files are in java.io.tmpdir (a disk here, as a broker's
 * store): a force() of dirty pages writes them back, so the rows with written slots include that I/O. {@code @Setup}
 * writes the same slots into both wheels, flushes, and fails unless the two files hold the same bytes.
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=TimerFlushBenchmark} (or {@code java -jar jmh/target/benchmarks.jar
 * TimerFlushBenchmark -prof gc}, from the repository root: {@code distTarget} is relative to it). These rows belong to
 * no line of the default run's summary (io.hotpath.jmh.runner.LineMethods): read the ratio off the two rows.
 */
@State(Scope.Thread)
public class TimerFlushBenchmark extends AbstractBenchmark {

    private static final String TIMER_WHEEL = "org.apache.rocketmq.store.timer.TimerWheel";
    /** TimerMessageStore's wheel: TIMER_WHEEL_TTL_DAY (7) x DAY_SECS slots, 1 s precision. */
    private static final int SLOTS_TOTAL = 7 * 24 * 3600;
    private static final int PRECISION_MS = 1000;

    @Param({"0", "4"})
    public int changedSlots;

    @Param({"broker-dist/target"})
    public String distTarget;

    private Path dir;
    private Wheel stock;
    private Wheel patched;
    /** The times of the slots written before each flush: spread over the wheel, one page apart at least. */
    private long[] times;
    private long next = 4;

    @Setup
    public void setUp() throws Throwable {
        Path target = Path.of(distTarget);
        Path central = target.resolve("upstream-551-rocketmq-store.jar");
        Path stockLib = target.resolve("rocketmq-5.5.1-stock/lib");
        Path patchedLib = target.resolve("rocketmq-5.5.1-patched/lib");
        if (!Files.isRegularFile(central) || !Files.isDirectory(stockLib) || !Files.isDirectory(patchedLib)) {
            throw new IllegalStateException("no 5.5.1 distributions under " + target.toAbsolutePath()
                + ": run mvn -B -pl broker-dist verify -Dhotpath.line=5.5.1 first (or -p distTarget=<its target/>)");
        }
        dir = Files.createTempDirectory("timer-flush-benchmark-");
        stock = new Wheel("central-rocketmq-store-5.5.1", jars(stockLib, central), dir.resolve("stock/timerwheel"));
        patched = new Wheel("patched-lib", jars(patchedLib, null), dir.resolve("patched/timerwheel"));
        times = new long[Math.max(changedSlots, 1)];
        long now = 1_764_400_000_000L;
        for (int i = 0; i < times.length; i++) {
            times[i] = now + (long) i * 1000 * 997;
        }
        // the guard: the same writes and a flush leave the same file bytes
        for (long value = 1; value <= 3; value++) {
            writeAndFlush(stock, value);
            writeAndFlush(patched, value);
        }
        if (!Arrays.equals(Files.readAllBytes(stock.file), Files.readAllBytes(patched.file))) {
            throw new IllegalStateException("the patched wheel's file differs from stock's after the same writes and flushes");
        }
    }

    @TearDown
    public void tearDown() throws Throwable {
        stock.close();
        patched.close();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Benchmark
    public long upstream551() throws Throwable {
        return writeAndFlush(stock, next++);
    }

    @Benchmark
    public long hotpath551() throws Throwable {
        return writeAndFlush(patched, next++);
    }

    private long writeAndFlush(Wheel wheel, long value) throws Throwable {
        for (int i = 0; i < changedSlots; i++) {
            wheel.put.invokeExact(times[i], value, value, i, 0);
        }
        wheel.flush.invokeExact();
        return value;
    }

    private static URL[] jars(Path lib, Path storeJar) throws IOException {
        List<URL> urls = new ArrayList<>();
        if (storeJar != null) {
            urls.add(storeJar.toUri().toURL());
        }
        try (Stream<Path> files = Files.list(lib)) {
            for (Path jar : files.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                if (storeJar == null || !jar.getFileName().toString().startsWith("rocketmq-store-")) {
                    urls.add(toUrl(jar));
                }
            }
        }
        return urls.toArray(new URL[0]);
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A TimerWheel of one class loader on its own file, with its putSlot and flush bound to it. */
    private static final class Wheel {
        final Path file;
        final MethodHandle put;
        final MethodHandle flush;
        final MethodHandle shutdown;

        Wheel(String name, URL[] urls, Path file) throws Throwable {
            this.file = file;
            URLClassLoader loader = new URLClassLoader(name, urls, ClassLoader.getPlatformClassLoader());
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            // 5.x's shaded slf4j finds its provider through the context loader
            thread.setContextClassLoader(loader);
            try {
                Class<?> type = Class.forName(TIMER_WHEEL, true, loader);
                Object wheel = type.getConstructor(String.class, int.class, int.class).newInstance(file.toString(), SLOTS_TOTAL,
                    PRECISION_MS);
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                put = lookup.findVirtual(type, "putSlot", MethodType.methodType(void.class, long.class, long.class, long.class,
                    int.class, int.class)).bindTo(wheel);
                flush = lookup.findVirtual(type, "flush", MethodType.methodType(void.class)).bindTo(wheel);
                shutdown = lookup.findVirtual(type, "shutdown", MethodType.methodType(void.class, boolean.class)).bindTo(wheel);
            } finally {
                thread.setContextClassLoader(context);
            }
        }

        void close() throws Throwable {
            shutdown.invokeExact(false);
        }
    }
}
