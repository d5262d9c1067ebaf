package io.hotpath.lines;

/** A release line that is missing, unknown or has a malformed descriptor: one line for the operator. */
public final class ReleaseLineException extends RuntimeException {

    public ReleaseLineException(String message) {
        super(message);
    }
}
