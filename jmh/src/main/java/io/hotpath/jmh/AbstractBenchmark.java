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
 * constants to JMH explicitly, overridden by {@code -Djmh.forks} etc., and may shorten the
 * iteration time to keep the whole default run inside its time budget; the annotations make
 * direct runs ({@code org.openjdk.jmh.Main}, an IDE) use the same defaults.
 *
 * <p>Naming: benchmarks are {@code <Operation>Benchmark}; methods are named after the
 * implementation they measure ({@code upstream490}, {@code upstream498}, {@code upstreamLatest},
 * {@code hotpath}). The summary computes ratios against a method named {@value #BASELINE}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = AbstractBenchmark.FORKS, jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = AbstractBenchmark.WARMUP_ITERATIONS, time = AbstractBenchmark.ITERATION_MILLIS,
    timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = AbstractBenchmark.MEASUREMENT_ITERATIONS, time = AbstractBenchmark.ITERATION_MILLIS,
    timeUnit = TimeUnit.MILLISECONDS)
public abstract class AbstractBenchmark {

    /** Two forks show fork-to-fork variance; quote figures from {@code -Djmh.forks=4} or more. */
    public static final int FORKS = 2;
    public static final int WARMUP_ITERATIONS = 3;
    public static final int MEASUREMENT_ITERATIONS = 5;
    /** Warmup and measurement iteration length. */
    public static final int ITERATION_MILLIS = 1000;

    /** The method every ratio in the summary is computed against. */
    public static final String BASELINE = "upstream490";

    /** Every corpus holds this many distinct inputs; benchmarks cycle with {@code next++ & MASK}. */
    public static final int CORPUS_SIZE = 1024;
    public static final int MASK = CORPUS_SIZE - 1;
}
