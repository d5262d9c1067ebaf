package io.hotpath.jmh.runner;

import java.util.Map;
import java.util.TreeMap;

/**
 * The runner's {@code -Djmh.*} switches (jmh/README.md names each; empty = the default), read once in {@code main} and
 * handed to everything that decides what and how to run. No other part of the runner reads system properties: a unit
 * test passes exactly the switches it means, whatever {@code -D} options the caller gave Maven (surefire hands the
 * command line's {@code -Djmh.include} etc. to every test JVM, over the pom's systemPropertyVariables).
 */
final class RunnerOptions {

    /** Every switch the pom passes to the runner. */
    static final String[] NAMES = {"jmh.run", "jmh.include", "jmh.exclude", "jmh.forks", "jmh.warmupIterations",
        "jmh.warmupTime", "jmh.iterations", "jmh.time", "jmh.params", "jmh.matrix", "jmh.budget", "jmh.args",
        "jmh.argsFile", "jmh.list", "jmh.line", "jmh.resultDir", "jmh.writeResults", "jmh.pin"};

    private final Map<String, String> values;

    private RunnerOptions(Map<String, String> values) {
        this.values = values;
    }

    /** The switches this JVM was started with. */
    static RunnerOptions fromSystemProperties() {
        Map<String, String> values = new TreeMap<>();
        for (String name : NAMES) {
            values.put(name, System.getProperty(name, ""));
        }
        return new RunnerOptions(values);
    }

    /** Exactly these switches ({@code "jmh.include", "Parse", ...}); every other one empty. */
    static RunnerOptions of(String... nameValuePairs) {
        return of(pairs(nameValuePairs));
    }

    static RunnerOptions of(Map<String, String> given) {
        Map<String, String> values = new TreeMap<>();
        for (String name : NAMES) {
            values.put(name, "");
        }
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!values.containsKey(e.getKey())) {
                throw new IllegalArgumentException("the runner has no switch -D" + e.getKey());
            }
            values.put(e.getKey(), e.getValue() == null ? "" : e.getValue());
        }
        return new RunnerOptions(values);
    }

    /** The switch's value, empty when not given. */
    String get(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalStateException("the runner reads no switch " + name);
        }
        return v;
    }

    boolean blank(String name) {
        return get(name).trim().isEmpty();
    }

    private static Map<String, String> pairs(String... nameValuePairs) {
        if (nameValuePairs.length % 2 != 0) {
            throw new IllegalArgumentException("name/value pairs expected");
        }
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            m.put(nameValuePairs[i], nameValuePairs[i + 1]);
        }
        return m;
    }
}
