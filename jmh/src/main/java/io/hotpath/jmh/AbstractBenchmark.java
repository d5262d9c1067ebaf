package io.hotpath.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The one place for the settings every benchmark shares (Netty's {@code AbstractMicrobenchmarkBase}):
 * mode, unit, forks, warmup, measurement and fork JVM flags. Every {@code *Benchmark} extends it
 * and declares none of these annotations itself (JMH's are {@code @Inherited}; a subclass
 * {@code @Fork} would replace this one, JVM flags included).
 *
 * <p>{@link io.hotpath.jmh.runner.BenchmarkRunner} ({@code mvn -pl jmh verify}) passes these
 * constants to JMH explicitly, overridden by {@code -Djmh.forks} etc., and never shortens them; the annotations make
 * direct runs ({@code java -jar jmh/target/benchmarks.jar}, an IDE) use the same defaults. They are the settings of
 * the default run ({@link io.hotpath.jmh.runner.Headline}): 8 benchmark methods per release line x 4 forks x
 * (8 + 4) x 1 s + fork start-up, about 8 min per line, plus the two machine-control rows.
 *
 * <p>Fork heap: fixed and pre-touched, so that no measured iteration pays the kernel for first-touch page zeroing;
 * 512 MB, because pre-touching 2 GB cost ~5 s per fork here and the corpora need a few MB. G1 by name, the brokers'
 * collector: a fork pinned to one CPU ({@link io.hotpath.jmh.runner.ForkPinning}) would otherwise get SerialGC from
 * the JVM's ergonomics, and a pinned run with SerialGC put several drop-ins behind their stock (2026-11-26).
 *
 * <p>Naming: benchmarks are {@code <Operation>Benchmark}, grouped by area in packages ({@code codec}, {@code header},
 * {@code store}); methods are named after the implementation they measure ({@code upstream490}, {@code upstream498},
 * {@code upstream533}, {@code upstream551}, {@code hotpath}, {@code hotpath491}, ...). The summary computes each
 * row's ratios against its release line's stock method ({@link io.hotpath.jmh.runner.LineMethods}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = AbstractBenchmark.FORKS, jvmArgs = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@Warmup(iterations = AbstractBenchmark.WARMUP_ITERATIONS, time = AbstractBenchmark.ITERATION_MILLIS,
    timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = AbstractBenchmark.MEASUREMENT_ITERATIONS, time = AbstractBenchmark.ITERATION_MILLIS,
    timeUnit = TimeUnit.MILLISECONDS)
public abstract class AbstractBenchmark {

    /**
     * Four forks: on this kind of shared machine a fork's mean moves 10-15 % with the memory system's state, so the
     * error needs several forks, not more iterations of one (24 samples either way).
     */
    public static final int FORKS = 4;
    /**
     * 8 s of warm-up. C2 compiles these paths within the first second, but in the default run of 2026-11-27 (3 s of
     * warm-up) three of its four rows with errors over 10 % had one fork whose time jumped for good 5-8 s in, a
     * recompilation after the profile moved (PropertiesParse upstream490 1500 -> 850 ns, SendHeaderDecode upstream498
     * 138 -> 215 ns, PersistedProperties hotpath533 1860 -> 2500 ns): warm-up has to outlast that.
     */
    public static final int WARMUP_ITERATIONS = 8;
    /** 4 x 1 s per fork, 16 samples per row: keeps a line near 8 min with the longer warm-up. */
    public static final int MEASUREMENT_ITERATIONS = 4;
    /** Warmup and measurement iteration length. */
    public static final int ITERATION_MILLIS = 1000;

    /** Every corpus holds this many distinct inputs; benchmarks cycle with {@code next++ & MASK}. */
    public static final int CORPUS_SIZE = 1024;
    public static final int MASK = CORPUS_SIZE - 1;
}
