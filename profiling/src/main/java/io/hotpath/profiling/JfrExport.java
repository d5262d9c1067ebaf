package io.hotpath.profiling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

/**
 * Turns async-profiler's JFR recordings into what people read: one HTML flame graph and one
 * collapsed-stack file per event, rendered in-process by jfr-converter (jfrconv) from Maven
 * Central. Also renders the differential flame graph of two collapsed profiles.
 */
public final class JfrExport {

    /** The files written for one event of one recording. */
    public record Output(ProfileEvent event, Path html, Path collapsed, long samples) {
    }

    private JfrExport() {
    }

    /**
     * Writes {@code <stem>-<event>.html} and {@code <stem>-<event>.collapsed} into {@code dir} for
     * every event in {@code events}; an event without samples still gets (empty) files.
     */
    public static List<Output> export(Path jfr, Set<ProfileEvent> events, Path dir, String stem, String title) {
        List<Output> outputs = new ArrayList<>();
        for (ProfileEvent event : events) {
            Path html = dir.resolve(stem + "-" + event.id() + ".html");
            Path collapsed = dir.resolve(stem + "-" + event.id() + ".collapsed");
            convert(jfr, collapsed, new Arguments(event.jfrconvOption(), "-o", "collapsed"));
            convert(jfr, html, new Arguments(event.jfrconvOption(), "-o", "html", "--title", title + " (" + event.id() + ")"));
            outputs.add(new Output(event, html, collapsed, CollapsedStacks.read(collapsed).totalSamples()));
        }
        return outputs;
    }

    private static void convert(Path jfr, Path output, Arguments args) {
        try {
            JfrToFlame.convert(jfr.toString(), output.toString(), args);
        } catch (IOException e) {
            throw new ProfilingException("cannot convert " + jfr + " to " + output + ": " + e.getMessage(), e);
        }
    }

    /**
     * The CPU engine async-profiler recorded in the JFR's settings ({@code perf_events},
     * {@code itimer}, {@code ctimer}, or {@code noop} when no cpu event ran), or null.
     */
    public static String engine(Path jfr) {
        try (JfrReader reader = new JfrReader(jfr.toString())) {
            // settings arrive as events of the first chunk
            while (reader.readEvent() != null && !reader.settings.containsKey("engine")) {
                // keep reading
            }
            return reader.settings.get("engine");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jfr + ": " + e.getMessage(), e);
        }
    }

    /**
     * jfrconv's differential flame graph: the shape of {@code current}, each frame coloured by how
     * its self samples changed against {@code base} (red: more, blue: fewer). Frames that exist
     * only in {@code base} do not appear. Both inputs should have equal totals
     * ({@link CollapsedStacks#normalizedTo}): jfrconv compares raw counts.
     */
    public static void diff(Path baseCollapsed, Path currentCollapsed, Path html, String title) {
        Arguments args = new Arguments("--diff", "-o", "html", "--title", title);
        // what jfrconv's own --diff sets: lambda and hidden-class ids differ between JVMs
        args.norm = true;
        try {
            FlameGraph base = FlameGraph.parse(baseCollapsed.toString(), args);
            FlameGraph current = FlameGraph.parse(currentCollapsed.toString(), args);
            current.diff(base);
            try (var out = Files.newOutputStream(html)) {
                current.dump(out);
            }
        } catch (IOException e) {
            throw new ProfilingException("cannot write the diff flame graph " + html + ": " + e.getMessage(), e);
        }
    }
}
