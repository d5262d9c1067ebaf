package io.hotpath.cli;

/** A command that ran and failed (exit 1): a build, a test or a check did not pass. Bad input is a UsageException. */
final class CommandFailure extends RuntimeException {

    CommandFailure(String message) {
        super(message, null, false, false);
    }
}
