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

    /** The lines the default run measures, oldest first. */
    public static final List<LineMethods> ALL = List.of(
        new LineMethods("4.9.0", "upstream490", List.of("hotpath")),
        new LineMethods("4.9.8", "upstream498", List.of("hotpath491", "hotpath498")),
        new LineMethods("5.3.3", "upstream533", List.of("hotpath520", "hotpath533")));

    /**
     * Lines measured in their quotable run ({@code -Djmh.line}) only: the partial 5.5.1 line, whose drop-ins are the
     * 5.3.3 line's methods. In the default run they would be measured twice (a row each under 5.3.3 and 5.5.1), which
     * the summary cannot pair with their stock, and the run would take ~8 min more.
     */
    public static final List<LineMethods> QUOTABLE_ONLY = List.of(
        new LineMethods("5.5.1", "upstream551", List.of("hotpath520", "hotpath533")));

    public LineMethods {
        dropIns = List.copyOf(dropIns);
    }

    /** Whether {@code method} is this line's stock or one of its drop-ins. */
    public boolean has(String method) {
        return stock.equals(method) || dropIns.contains(method);
    }

    /** The line (of {@code lines}) whose stock or drop-in {@code method} is; empty for the other rows (floors, ...). */
    public static Optional<LineMethods> of(String method, List<LineMethods> lines) {
        return lines.stream().filter(l -> l.has(method)).findFirst();
    }

    /** The methods of the line {@code release}, default run or quotable-only. */
    public static Optional<LineMethods> forRelease(String release) {
        return java.util.stream.Stream.concat(ALL.stream(), QUOTABLE_ONLY.stream()).filter(l -> l.release.equals(release))
            .findFirst();
    }

    /** A JMH regex matching the line's methods of the given benchmark classes (simple names), in any package. */
    public String include(List<String> benchmarks) {
        return "\\.(" + String.join("|", benchmarks) + ")\\.(" + stock + "|" + String.join("|", dropIns) + ")$";
    }
}
