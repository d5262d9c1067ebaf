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
 * the default run ({@link io.hotpath.jmh.runner.Headline}): 8 benchmark methods per release line x 3 forks x
 * (5 + 8) x 1 s + fork start-up, about 6 min per line.
 *
 * <p>Naming: benchmarks are {@code <Operation>Benchmark}, grouped by area in packages ({@code codec}, {@code header},
 * {@code store}); methods are named after the implementation they measure ({@code upstream490}, {@code upstream498},
 * {@code upstream533}, {@code upstreamLatest}, {@code hotpath}, {@code hotpath491}, ...). The summary computes each
 * row's ratios against its release line's stock method ({@link io.hotpath.jmh.runner.LineMethods}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = AbstractBenchmark.FORKS, jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = AbstractBenchmark.WARMUP_ITERATIONS, time = AbstractBenchmark.ITERATION_MILLIS,
    timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = AbstractBenchmark.MEASUREMENT_ITERATIONS, time = AbstractBenchmark.ITERATION_MILLIS,
    timeUnit = TimeUnit.MILLISECONDS)
public abstract class AbstractBenchmark {

    /** Three forks, so that one odd fork shows as such; a line's quotable run takes 4. */
    public static final int FORKS = 3;
    /** 5 s of warm-up: C2 has compiled these paths (well under 1 us per call) long before the first measurement. */
    public static final int WARMUP_ITERATIONS = 5;
    public static final int MEASUREMENT_ITERATIONS = 8;
    /** Warmup and measurement iteration length. */
    public static final int ITERATION_MILLIS = 1000;

    /** Every corpus holds this many distinct inputs; benchmarks cycle with {@code next++ & MASK}. */
    public static final int CORPUS_SIZE = 1024;
    public static final int MASK = CORPUS_SIZE - 1;
}
