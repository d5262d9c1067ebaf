package io.hotpath.profiling;

/** Bad input (option, PID, directory): {@link ProfileCommand} prints its message as one line and exits 2. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
