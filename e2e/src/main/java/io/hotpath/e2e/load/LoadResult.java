package io.hotpath.e2e.load;

import java.util.Map;

/**
 * A finished load phase: the {@link SendLedger} and how long sending took, with the figures
 * upstream's benchmark Producer prints (send TPS, average and max RT of successful sends) plus
 * percentiles and failure reasons.
 */
public record LoadResult(SendLedger ledger, long elapsedNanos, long maxScheduleLagNanos) {

    /** An unpaced load: no schedule, so no lag ({@code maxScheduleLagNanos} -1). */
    public LoadResult(SendLedger ledger, long elapsedNanos) {
        this(ledger, elapsedNanos, -1);
    }

    /** With {@code --rate}: how late the latest send started against its slot; large means the cluster could not keep the rate. */
    public double maxScheduleLagMillis() {
        return maxScheduleLagNanos < 0 ? -1 : maxScheduleLagNanos / 1e6;
    }

    public long sent() {
        return ledger.completed();
    }

    public long acked() {
        return ledger.acked();
    }

    /** Not acknowledged: a SendResult other than SEND_OK, or an exception. */
    public long failed() {
        return ledger.notOk() + ledger.failed();
    }

    /** Attempts beyond one per send() call: the client's own retries. */
    public long clientRetries() {
        return Math.max(0, ledger.attempts() - sent());
    }

    public double seconds() {
        return elapsedNanos / 1e9;
    }

    /** Acknowledged messages per second over the whole load phase. */
    public double tps() {
        return elapsedNanos == 0 ? 0 : acked() / seconds();
    }

    public double avgRtMillis() {
        return acked() == 0 ? 0 : ledger.ackedRtMicrosTotal() / 1000.0 / acked();
    }

    public double maxRtMillis() {
        return ledger.ackedRtMicrosMax() / 1000.0;
    }

    /** RT percentiles of acknowledged sends in ms, keys "p50", "p99", "p999". */
    public Map<String, Double> rtPercentilesMillis() {
        int[] sorted = ledger.sortedAckedRtMicros();
        return Map.of("p50", percentile(sorted, 0.50), "p99", percentile(sorted, 0.99), "p999", percentile(sorted, 0.999));
    }

    private static double percentile(int[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1000.0;
    }
}
