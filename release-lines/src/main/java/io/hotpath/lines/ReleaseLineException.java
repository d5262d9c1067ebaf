package io.hotpath.lines;

/**
 * A release line that is missing, unknown or has a malformed descriptor, or a {@link LineOption} value that names no
 * line: one line for the operator.
 */
public final class ReleaseLineException extends RuntimeException {

    public ReleaseLineException(String message) {
        super(message);
    }
}
