package io.hotpath.jmh.control;

import java.util.HashMap;
import java.util.Map;

import io.hotpath.jmh.AbstractBenchmark;
import io.hotpath.jmh.PropertiesCorpus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The machine's own noise, measured in the same run as the rows it qualifies. Neither method runs RocketMQ or
 * hotpath code, and neither changes between runs, so whatever error JMH reports for them is the floor the machine
 * sets for the rows beside them:
 * <ul>
 *   <li>{@code allocating}: splits one of the default run's properties strings into a fresh {@code HashMap} with the
 *       JDK's own {@code indexOf}/{@code substring} — the same kind of memory traffic as the codec rows (~1 KB a call,
 *       young-generation churn), with fixed code;</li>
 *   <li>{@code cpuOnly}: a fixed chain of multiply/xor-shift steps on a long, no memory traffic at all.</li>
 * </ul>
 * On a shared virtual machine the two tell apart what a noisy row suffers from: when {@code cpuOnly} is steady and
 * {@code allocating} is not, the noise is the memory system's (other tenants' cache and bandwidth use), which no
 * benchmark setting removes.
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=MachineControlBenchmark} (the default run includes it).
 */
@State(Scope.Thread)
public class MachineControlBenchmark extends AbstractBenchmark {

    /** Steps of {@link #cpuOnly} per call: a few hundred nanoseconds, the scale of the rows it qualifies. */
    private static final int CPU_STEPS = 256;

    private String[] strings;
    private int next;
    private long seed;

    @Setup
    public void setup() {
        strings = PropertiesCorpus.persistedStrings(PropertiesCorpus.LARGE12);
        seed = System.nanoTime() | 1; // not a constant: the JIT must not fold the chain
    }

    @Benchmark
    public Map<String, String> allocating() {
        String s = strings[next++ & MASK];
        Map<String, String> map = new HashMap<>();
        int at = 0;
        while (at < s.length()) {
            int end = s.indexOf('\2', at);
            if (end < 0) {
                end = s.length();
            }
            int nv = s.indexOf('\1', at);
            if (nv > at && nv < end) {
                map.put(s.substring(at, nv), s.substring(nv + 1, end));
            }
            at = end + 1;
        }
        return map;
    }

    @Benchmark
    public long cpuOnly() {
        long x = seed;
        for (int i = 0; i < CPU_STEPS; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        seed = x;
        return x;
    }
}
