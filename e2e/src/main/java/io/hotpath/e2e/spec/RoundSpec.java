package io.hotpath.e2e.spec;

import java.nio.file.Path;
import java.util.List;

/**
 * What one round is asked to do, whoever asks (the smoke's command line, a campaign arm, the CI check): the measured
 * load's shape, the brokers' extra JVM options and the fault. The cluster's ports and network ({@link ClusterLayout})
 * and the distribution are the caller's.
 *
 * @param messages         the load's messages, or with {@code seconds} the ledger's capacity
 * @param seconds          bounds the load by time when above 0
 * @param rate             paces the load at this many messages per second; 0 sends as fast as the threads go
 * @param keepStore        keep the stores after a pass (they are deleted otherwise)
 * @param runRecord        a second file the run record is kept in besides the run directory (profiling follows it), or null
 * @param extraSends       after the load, the sends it does not make (V1 headers, a batch, delayed, transactional, send-back,
 *                         the newer clients, the timed phase), each read back; false only where another round runs them
 */
public record RoundSpec(int messages, int threads, int bodySize, int queuesPerMaster, int seconds, int rate,
                        List<String> brokerJvmOptions, FaultScenario fault, boolean keepStore, Path runRecord, boolean extraSends) {

    /** Ledger capacity per second of a timed load without a message count: ~3x the saturated TPS seen here. */
    public static final int TIMED_CAPACITY_PER_SECOND = 30_000;

    public RoundSpec {
        brokerJvmOptions = List.copyOf(brokerJvmOptions);
    }

    /** A load bounded by time, paced at {@code rate}, with the ledger capacity a timed load gets. */
    public static RoundSpec timed(int seconds, int rate, int threads, int bodySize, int queuesPerMaster, FaultScenario fault) {
        return new RoundSpec((int) Math.min(50_000_000L, (long) seconds * TIMED_CAPACITY_PER_SECOND), threads, bodySize,
            queuesPerMaster, seconds, rate, List.of(), fault, false, null, true);
    }

    /** True when {@code seconds} bounds the load by time; {@link #messages()} is then only the ledger's capacity. */
    public boolean timed() {
        return seconds > 0;
    }
}
