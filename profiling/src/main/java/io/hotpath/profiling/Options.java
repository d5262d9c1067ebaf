package io.hotpath.profiling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options of one {@code bin/hotpath profile} subcommand: {@code --name value},
 * {@code --name=value}, flags, and positional arguments. Every mistake is a {@link UsageException}
 * naming the option and the subcommand's help.
 */
final class Options {

    private final String command;
    private final Map<String, List<String>> values = new LinkedHashMap<>();
    private final List<String> flags = new ArrayList<>();
    private final List<String> positional = new ArrayList<>();

    private Options(String command) {
        this.command = command;
    }

    static Options parse(String command, List<String> args, Set<String> valued, Set<String> flagNames) {
        Options options = new Options(command);
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--") || arg.equals("--")) {
                options.positional.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (flagNames.contains(name) && eq < 0) {
                options.flags.add(name);
            } else if (valued.contains(name)) {
                String value;
                if (eq > 0) {
                    value = arg.substring(eq + 1);
                } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                    value = args.get(++i);
                } else {
                    throw new UsageException("option " + name + " needs a value (see bin/hotpath profile " + command + " --help)");
                }
                options.values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else {
                throw new UsageException("unknown option '" + arg + "' for profile " + command
                    + " (see bin/hotpath profile " + command + " --help)");
            }
        }
        return options;
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    String get(String name, String defaultValue) {
        List<String> all = values.get(name);
        return all == null ? defaultValue : all.get(all.size() - 1);
    }

    String required(String name) {
        String value = get(name, null);
        if (value == null || value.isBlank()) {
            throw new UsageException("profile " + command + " needs " + name + " (see bin/hotpath profile " + command + " --help)");
        }
        return value;
    }

    List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    int number(String name, int defaultValue, int min, int max) {
        String text = get(name, null);
        if (text == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, got '" + text + "'");
        }
        if (value < min || value > max) {
            throw new UsageException(name + " must be between " + min + " and " + max + ", got " + text);
        }
        return (int) value;
    }

    List<String> positional() {
        return positional;
    }
}
