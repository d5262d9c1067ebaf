package io.hotpath.e2e;

/**
 * The cluster or the run failed for a reason an operator can act on (a broker died during start-up,
 * replication never came up, a queue could not be read back). The message is one line and names
 * the log to look at; exit code 1.
 */
public final class ClusterException extends RuntimeException {

    public ClusterException(String message) {
        super(message);
    }

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
