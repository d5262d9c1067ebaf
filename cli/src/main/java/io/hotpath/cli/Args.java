package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A command's options, read left to right: {@code --name value} or {@code --name=value}, and flags. Each error is the
 * command line's one line, naming the command's help.
 */
final class Args {

    private final String command;
    private final Deque<String> rest;
    private String option;
    private String inline;

    Args(String command, List<String> args) {
        this.command = command;
        this.rest = new ArrayDeque<>(args);
    }

    /** Steps to the next argument; false when none is left. {@link #option} then names it, without any {@code =value}. */
    boolean next() {
        if (rest.isEmpty()) {
            return false;
        }
        String arg = rest.removeFirst();
        int eq = arg.startsWith("--") ? arg.indexOf('=') : -1;
        option = eq < 0 ? arg : arg.substring(0, eq);
        inline = eq < 0 ? null : arg.substring(eq + 1);
        return true;
    }

    String option() {
        return option;
    }

    /** The current option's value (inline or the next argument); {@code what} says what it should be. */
    String value(String what) {
        if (inline != null) {
            return inline;
        }
        if (rest.isEmpty() || rest.peekFirst().startsWith("--")) {
            throw new UsageException("option " + option + " needs " + what);
        }
        return rest.removeFirst();
    }

    /** The current option as a flag: refused with a value. */
    void flag() {
        if (inline != null) {
            throw new UsageException("option " + option + " takes no value (got '" + inline + "')");
        }
    }

    UsageException unknown() {
        return new UsageException("unknown option '" + option + "' for " + command + " (see bin/hotpath " + command + " --help)");
    }
}
