package io.hotpath.profiling;

/**
 * A session that could not do its job (profiler refused, benchmark run failed, empty output, a
 * failed check): {@link ProfileCommand} prints its message as one line and exits 1.
 */
public final class ProfilingException extends RuntimeException {

    public ProfilingException(String message) {
        super(message);
    }

    public ProfilingException(String message, Throwable cause) {
        super(message, cause);
    }
}
