package io.hotpath.jmh.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the patches of one release line quote in their Result: the one source both for which benchmarks a line's
 * quotable run measures ({@code -Djmh.line}) and for the Result sections written from that run's JSON
 * ({@link ResultSection}). Read from {@code io/hotpath/jmh/results/<line>.quotes} (format in 4.9.0.quotes).
 */
public final class LineQuotes {

    /** One quoted comparison: the stock method against the patched one, for every value of one parameter. */
    public static final class Comparison {
        public final String patch;
        public final String benchmark;
        public final String param;
        public final List<String> values;
        public final String stock;
        public final String patched;

        Comparison(String patch, String benchmark, String param, List<String> values, String stock, String patched) {
            this.patch = patch;
            this.benchmark = benchmark;
            this.param = param;
            this.values = values;
            this.stock = stock;
            this.patched = patched;
        }
    }

    private static final Pattern COMPARISON = Pattern.compile(
        "^(\\d{4}) (\\w+Benchmark) (\\w+)=(\\w+(?:,\\w+)*) (\\w+) -> (\\w+)$");
    private static final Pattern NOTE = Pattern.compile("^(\\d{4}) note (.+)$");
    private static final Pattern CAMPAIGN = Pattern.compile("^(\\d{4}) campaign$");

    public final String line;
    private final List<Comparison> comparisons;
    private final Map<String, List<String>> notes;
    private final Set<String> endToEnd;

    private LineQuotes(String line, List<Comparison> comparisons, Map<String, List<String>> notes, Set<String> endToEnd) {
        this.line = line;
        this.comparisons = comparisons;
        this.notes = notes;
        this.endToEnd = endToEnd;
    }

    /** The quotes of {@code line}, from this module's resources; a line without a file is bad input. */
    public static LineQuotes load(String line) {
        String resource = "/io/hotpath/jmh/results/" + line + ".quotes";
        try (InputStream in = LineQuotes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no quotes for release line '" + line + "' (jmh/src/main/resources"
                    + resource + ")");
            }
            List<String> lines = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String s = r.readLine(); s != null; s = r.readLine()) {
                    lines.add(s);
                }
            }
            return parse(line, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    static LineQuotes parse(String line, List<String> text) {
        List<Comparison> comparisons = new ArrayList<>();
        Map<String, List<String>> notes = new LinkedHashMap<>();
        Set<String> endToEnd = new TreeSet<>();
        for (String raw : text) {
            String s = raw.trim();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            Matcher c = COMPARISON.matcher(s);
            Matcher n = NOTE.matcher(s);
            Matcher e = CAMPAIGN.matcher(s);
            if (e.matches()) {
                endToEnd.add(e.group(1));
            } else if (c.matches()) {
                comparisons.add(new Comparison(c.group(1), c.group(2), c.group(3),
                    Collections.unmodifiableList(Arrays.asList(c.group(4).split(","))), c.group(5), c.group(6)));
            } else if (n.matches()) {
                if (n.group(2).contains("ns/op") || n.group(2).contains("B/op")) {
                    throw new IllegalArgumentException(line + ".quotes: a note carries no figures, quote them as a"
                        + " comparison: " + s);
                }
                notes.computeIfAbsent(n.group(1), k -> new ArrayList<>()).add(n.group(2));
            } else {
                throw new IllegalArgumentException(line + ".quotes: not '<NNNN> <Benchmark> <param>=<v>[,<v>...]"
                    + " <stock> -> <patched>', '<NNNN> note <text>' nor '<NNNN> campaign': " + s);
            }
        }
        for (Comparison c : comparisons) {
            if (endToEnd.contains(c.patch)) {
                throw new IllegalArgumentException(line + ".quotes: patch " + c.patch + " quotes a campaign, so it quotes no"
                    + " benchmark: " + c.benchmark);
            }
        }
        return new LineQuotes(line, comparisons, notes, Collections.unmodifiableSet(endToEnd));
    }

    /** Patch numbers ({@code 0001}) with at least one comparison, in order. */
    public Set<String> patches() {
        Set<String> patches = new TreeSet<>();
        for (Comparison c : comparisons) {
            patches.add(c.patch);
        }
        return patches;
    }

    /**
     * Patch numbers whose Result quotes an end-to-end campaign file instead of a JMH run (a threading switch, whose
     * effect no benchmark shows); the JMH tooling leaves their Result as it is.
     */
    public Set<String> endToEnd() {
        return endToEnd;
    }

    public List<Comparison> comparisons(String patch) {
        List<Comparison> of = new ArrayList<>();
        for (Comparison c : comparisons) {
            if (c.patch.equals(patch)) {
                of.add(c);
            }
        }
        return of;
    }

    public List<String> notes(String patch) {
        return notes.getOrDefault(patch, Collections.emptyList());
    }

    /** A JMH include regex matching exactly the quoted methods. */
    public String include() {
        Map<String, Set<String>> methods = new LinkedHashMap<>();
        for (Comparison c : comparisons) {
            Set<String> m = methods.computeIfAbsent(c.benchmark, k -> new LinkedHashSet<>());
            m.add(c.stock);
            m.add(c.patched);
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : methods.entrySet()) {
            parts.add("\\." + e.getKey() + "\\.(" + String.join("|", e.getValue()) + ")$");
        }
        return String.join("|", parts);
    }

    /** JMH {@code -p} values: every quoted value of each parameter. */
    public Map<String, Set<String>> params() {
        Map<String, Set<String>> params = new LinkedHashMap<>();
        for (Comparison c : comparisons) {
            params.computeIfAbsent(c.param, k -> new LinkedHashSet<>()).addAll(c.values);
        }
        return params;
    }
}
