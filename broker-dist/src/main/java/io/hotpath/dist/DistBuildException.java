package io.hotpath.dist;

/**
 * A build failure whose message is the whole story for the operator: it is printed as one
 * {@code hotpath: error: ...} line, without a stack trace.
 */
public final class DistBuildException extends RuntimeException {

    public DistBuildException(String message) {
        super(message);
    }
}
