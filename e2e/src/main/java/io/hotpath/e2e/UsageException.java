package io.hotpath.e2e;

/** Bad input from the command line or environment: reported as one line, exit code 2, no stack trace. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message, null, false, false);
    }
}
