package io.hotpath.jmh.runner;

import java.util.List;
import java.util.Optional;

/**
 * A release line's benchmark methods: its stock release and the drop-ins compared with it (README's row table). Every
 * ratio in the summary is a drop-in against its own line's stock from the same run, never against another release.
 *
 * @param release the line, as under {@code patches/}
 * @param stock   the method that runs the line's unpatched release
 * @param dropIns the methods that run the line's drop-ins
 */
public record LineMethods(String release, String stock, List<String> dropIns) {

    /**
     * The lines the default run measures, oldest first. 5.5.1's drop-ins are the 5.3.3 line's methods: one row of each
     * is measured once and compared with each of the two stocks ({@link Headline#parts()} measures such lines together).
     */
    public static final List<LineMethods> ALL = List.of(
        new LineMethods("4.9.0", "upstream490", List.of("hotpath")),
        new LineMethods("4.9.8", "upstream498", List.of("hotpath491", "hotpath498")),
        new LineMethods("5.3.3", "upstream533", List.of("hotpath520", "hotpath533")),
        new LineMethods("5.5.1", "upstream551", List.of("hotpath520", "hotpath533")));

    public LineMethods {
        dropIns = List.copyOf(dropIns);
    }

    /** Whether {@code method} is this line's stock or one of its drop-ins. */
    public boolean has(String method) {
        return stock.equals(method) || dropIns.contains(method);
    }

    /** The lines (of {@code lines}) whose stock or drop-in {@code method} is; none for the other rows (floors, ...). */
    public static List<LineMethods> of(String method, List<LineMethods> lines) {
        return lines.stream().filter(l -> l.has(method)).toList();
    }

    /** The methods of the line {@code release}. */
    public static Optional<LineMethods> forRelease(String release) {
        return ALL.stream().filter(l -> l.release.equals(release)).findFirst();
    }

    /** Whether this line's drop-ins are {@code other}'s: then a default run measures the two lines in one part. */
    public boolean sharesDropIns(LineMethods other) {
        return dropIns.equals(other.dropIns);
    }
}
