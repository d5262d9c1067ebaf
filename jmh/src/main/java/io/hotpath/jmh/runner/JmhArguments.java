package io.hotpath.jmh.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.ProfilerConfig;

/**
 * The JMH command line of one run: the options the runner builds itself, then the user's pass-through
 * ({@code bin/hotpath jmh -- ...}, {@link ArgsFile}) unchanged and in order.
 *
 * <p>The user's option wins. JMH 1.37 refuses a single-valued option given twice ({@code -f 2 -f 1}: "Found multiple
 * arguments for option f", likewise -wi, -w, -i, -r, -foe, -rf, -rff), and takes the union of repeated benchmark
 * regexps and of repeated {@code -p} values of one parameter. Neither lets a later option replace an earlier one, so
 * the runner leaves out its own option wherever the pass-through gives the same one, and {@link #leftOut()} says which.
 */
final class JmhArguments {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private final List<String> passThrough;
    /** The pass-through as JMH reads it: which options it gives. */
    private final CommandLineOptions given;
    /** The runner's includes, apart from its other options: a part of the default run swaps them for its own. */
    private final List<String> includes = new ArrayList<>();
    private final List<String> own = new ArrayList<>();
    private final List<String> leftOut = new ArrayList<>();

    JmhArguments(List<String> passThrough) {
        this.passThrough = Collections.unmodifiableList(new ArrayList<>(passThrough));
        try {
            this.given = new CommandLineOptions(passThrough.toArray(new String[0]));
        } catch (CommandLineOptionException e) {
            throw new IllegalArgumentException("JMH rejects the options after --: " + e.getMessage());
        }
    }

    /** The options after {@code --}, parsed by JMH. */
    CommandLineOptions given() {
        return given;
    }

    /** Whether the pass-through chooses benchmarks itself: names them, excludes some or sets a parameter's values. */
    boolean givesSelection(Iterable<String> paramNames) {
        if (!given.getIncludes().isEmpty() || !given.getExcludes().isEmpty()) {
            return true;
        }
        for (String name : paramNames) {
            if (given.getParameter(name).hasValue()) {
                return true;
            }
        }
        return false;
    }

    /** The benchmarks to run, unless the pass-through names benchmarks itself: JMH would run both selections. */
    JmhArguments include(String regexp) {
        (given.getIncludes().isEmpty() ? includes : leftOut).add(regexp);
        return this;
    }

    /** Excludes only ever narrow the run, and JMH applies all of them: both sides' stay. */
    JmhArguments exclude(String regexp) {
        own.add("-e");
        own.add(regexp);
        return this;
    }

    /** {@code -p name=values}, unless the pass-through sets that parameter: JMH would run both value lists. */
    JmhArguments param(String name, String values) {
        add(given.getParameter(name).hasValue(), "-p", name + "=" + values);
        return this;
    }

    /**
     * A single-valued option that the runner sets (-f, -wi, -w, -i, -r, -foe, -jvm, -jvmArgsPrepend), unless the
     * pass-through sets it.
     */
    JmhArguments option(String option, String value) {
        add(gives(option), option, value);
        return this;
    }

    /**
     * Always-on {@code -prof gc}, unless the pass-through runs the GC profiler itself, perhaps with options of its
     * own; other profilers after {@code --} run beside it.
     */
    JmhArguments gcProfiler() {
        boolean givesGc = false;
        for (ProfilerConfig p : given.getProfilers()) {
            givesGc |= p.getKlass().equals("gc") || p.getKlass().equals(GCProfiler.class.getName());
        }
        add(givesGc, "-prof", "gc");
        return this;
    }

    /**
     * {@code -rf format -rff file}, together: where the results go is one choice. If the pass-through gives either, JMH
     * writes the results as it says (JMH's own defaults for the other), and this returns false: the runner's file will
     * not be written.
     */
    boolean results(String format, String file) {
        boolean givesResults = given.getResultFormat().hasValue() || given.getResult().hasValue();
        add(givesResults, "-rf", format, "-rff", file);
        return !givesResults;
    }

    /** An argument of {@code -Djmh.args} (already whitespace-split): the user's too, so nothing to leave out. */
    JmhArguments raw(String arg) {
        own.add(arg);
        return this;
    }

    /** The runner's own options, then the pass-through, unchanged and in order. */
    List<String> toList() {
        List<String> all = new ArrayList<>(includes);
        all.addAll(own);
        all.addAll(passThrough);
        return all;
    }

    /**
     * The arguments of one part of a run that JMH runs in several invocations: {@code include} instead of the
     * runner's includes, and {@code forks} instead of the runner's own {@code -f} unless the pass-through gives one
     * (then the user's count holds for every part); everything else as {@link #toList()}.
     */
    List<String> part(String include, int forks) {
        List<String> all = new ArrayList<>();
        all.add(include);
        for (int i = 0; i < own.size(); i++) {
            all.add(own.get(i));
            if (own.get(i).equals("-f") && i + 1 < own.size()) {
                all.add(Integer.toString(forks));
                i++;
            }
        }
        all.addAll(passThrough);
        return all;
    }

    /** The runner's own options that the pass-through replaced, for the log. */
    List<String> leftOut() {
        return Collections.unmodifiableList(leftOut);
    }

    /** The whole command line as a shell would take it back: an argument with spaces or quotes shows as one. */
    @Override
    public String toString() {
        return shellWords(toList());
    }

    static String shellWords(List<String> args) {
        StringBuilder s = new StringBuilder();
        for (String a : args) {
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append(PLAIN.matcher(a).matches() ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return s.toString();
    }

    private void add(boolean replaced, String... args) {
        for (String a : args) {
            (replaced ? leftOut : own).add(a);
        }
    }

    /** Whether the pass-through gives this single-valued option. */
    boolean gives(String option) {
        switch (option) {
            case "-jvm":
                return given.getJvm().hasValue();
            case "-f":
                return given.getForkCount().hasValue();
            case "-wi":
                return given.getWarmupIterations().hasValue();
            case "-w":
                return given.getWarmupTime().hasValue();
            case "-i":
                return given.getMeasurementIterations().hasValue();
            case "-r":
                return given.getMeasurementTime().hasValue();
            case "-foe":
                return given.shouldFailOnError().hasValue();
            case "-jvmArgsPrepend":
                return given.getJvmArgsPrepend().hasValue();
            default:
                throw new IllegalStateException("JmhArguments knows no rule for the runner's own option " + option);
        }
    }
}
