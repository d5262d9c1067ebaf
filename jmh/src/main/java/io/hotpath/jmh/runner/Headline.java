package io.hotpath.jmh.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.hotpath.jmh.PropertiesCorpus;
import io.hotpath.jmh.codec.PropertiesEncodeBenchmark;
import io.hotpath.jmh.control.MachineControlBenchmark;
import io.hotpath.jmh.codec.PropertiesParseBenchmark;
import io.hotpath.jmh.header.SendHeaderDecodeBenchmark;
import io.hotpath.jmh.store.PersistedPropertiesBenchmark;

/**
 * What the default run ({@code mvn -pl jmh verify} with no selection of its own) measures: every release line's
 * drop-ins against that line's own stock ({@link LineMethods}) on the headline paths, one realistic input each.
 * With {@link io.hotpath.jmh.AbstractBenchmark}'s settings that is 8 methods per line x 4 forks x (8 + 4) x 1 s plus
 * fork start-up: about 8 min per line, 4 min for a line whose drop-ins an older line's part measures already (only its
 * stock is new). The full matrix (every method, floors included, every parameter value) runs with
 * {@code -Djmh.matrix=full}, or narrowed by {@code -Djmh.include} / {@code -Djmh.params}.
 */
public final class Headline {

    /** The hot paths every line patches: properties parse and encode, send-header decode, the stored properties. */
    static final List<String> BENCHMARKS = List.of(
        PropertiesParseBenchmark.class.getSimpleName(),
        PropertiesEncodeBenchmark.class.getSimpleName(),
        SendHeaderDecodeBenchmark.class.getSimpleName(),
        PersistedPropertiesBenchmark.class.getSimpleName());

    /** The machine's control rows, measured in the same run: the noise floor the summary states beside the lines'. */
    static final String CONTROL = MachineControlBenchmark.class.getSimpleName();

    /**
     * One value per parameter: a producer's message with user properties (what real traffic carries besides
     * TAGS, KEYS, WAIT, UNIQ_KEY and CLUSTER) and the SEND_MESSAGE_V2 header every client since 4.x sends.
     */
    static final Map<String, String> PARAMS = params();

    private Headline() {
    }

    /** Whether the run is the default one: no selection given by property, by -Djmh.matrix or after {@code --}. */
    static boolean applies(String matrix, String include, String exclude, String params, JmhArguments args) {
        String m = matrix == null ? "" : matrix.trim();
        if (!m.isEmpty() && !m.equals("headline") && !m.equals("full")) {
            throw new IllegalArgumentException("-Djmh.matrix must be headline (the default) or full, got '" + matrix + "'");
        }
        boolean ownSelection = !blank(include) || !blank(exclude) || !blank(params) || args.givesSelection(PARAMS.keySet());
        if (m.equals("headline") && ownSelection) {
            throw new IllegalArgumentException("-Djmh.matrix=headline is a fixed selection: give no -Djmh.include,"
                + " -Djmh.exclude, -Djmh.params or benchmark regexp / -p after -- with it");
        }
        return !m.equals("full") && !ownSelection;
    }

    /** The default run's JMH selection: one include per part's lines ({@link #groups()}), one value per parameter. */
    static void select(JmhArguments args) {
        for (List<LineMethods> group : groups()) {
            args.include(include(group));
        }
        args.include(controlInclude());
        for (Map.Entry<String, String> p : PARAMS.entrySet()) {
            args.param(p.getKey(), p.getValue());
        }
    }

    /**
     * One JMH invocation of the default run: a line's rows, or one fork of each control row. {@code label} says which
     * in the run's progress lines.
     */
    record Part(String label, String include, boolean control) {
    }

    /** Forks of the control rows per {@link Part}: one each time, spread through the run (see {@link #parts()}). */
    static final int CONTROL_FORKS_PER_PART = 1;

    /**
     * The default run as JMH invocations, in order: the control before the first line and after every line. The host
     * of this machine has slow spells of seconds to minutes (a fork 1.3-1.8x slower than the others, see
     * jmh/README.md); a control measured once, at the end, misses them, while one fork of it before and after each
     * line samples the machine across the whole run, and its error is then the floor that run's rows are judged by.
     * Lines that share their drop-ins ({@link #groups()}) are one part: each drop-in is measured once, beside every
     * stock it is compared with.
     */
    static List<Part> parts() {
        List<Part> parts = new ArrayList<>();
        parts.add(new Part("control, before the first line", controlInclude(), true));
        for (List<LineMethods> group : groups()) {
            String label = releases(group) + (group.size() == 1 ? " line" : " lines");
            parts.add(new Part(label, include(group), false));
            parts.add(new Part("control, after the " + label, controlInclude(), true));
        }
        return Collections.unmodifiableList(parts);
    }

    /** {@link LineMethods#ALL} in order, a line that shares its drop-ins with the line before it in that line's group. */
    static List<List<LineMethods>> groups() {
        List<List<LineMethods>> groups = new ArrayList<>();
        for (LineMethods line : LineMethods.ALL) {
            List<LineMethods> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (last != null && last.get(last.size() - 1).sharesDropIns(line)) {
                last.add(line);
            } else {
                groups.add(new ArrayList<>(List.of(line)));
            }
        }
        return groups;
    }

    /** The group's releases as the run's progress lines and summary name it: "5.3.3 and 5.5.1". */
    static String releases(List<LineMethods> group) {
        return group.stream().map(LineMethods::release).collect(Collectors.joining(" and "));
    }

    /** The JMH include of the control rows. */
    static String controlInclude() {
        return "\\." + CONTROL + "\\.";
    }

    /** The JMH include of one line's headline rows. */
    static String include(LineMethods line) {
        return include(List.of(line));
    }

    /** The JMH include of the headline rows of lines measured together: each one's stock, their drop-ins once. */
    static String include(List<LineMethods> lines) {
        Set<String> methods = new LinkedHashSet<>();
        for (LineMethods line : lines) {
            methods.add(line.stock());
            methods.addAll(line.dropIns());
        }
        return "\\.(" + String.join("|", BENCHMARKS) + ")\\.(" + String.join("|", methods) + ")$";
    }

    private static Map<String, String> params() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("corpus", PropertiesCorpus.LARGE12);
        p.put("shape", PropertiesCorpus.LARGE12);
        p.put("header", "V2");
        return Collections.unmodifiableMap(p);
    }

    private static boolean blank(String s) {
        return s == null || s.trim().isEmpty();
    }
}
