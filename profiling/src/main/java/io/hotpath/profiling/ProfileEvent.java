package io.hotpath.profiling;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a session samples. Every session records one JFR file with all its events at once
 * (async-profiler 4.5 runs a cpu engine, allocation sampling and wall-clock sampling side by side
 * with JFR output) and jfrconv splits it into one flame graph and one collapsed file per event.
 */
public enum ProfileEvent {
    /** CPU time: perf events, or a timer where perf events are refused ({@link CpuEngine}). */
    CPU("--cpu"),
    /** Heap allocations, sampled every 512 KiB (async-profiler's default interval). */
    ALLOC("--alloc"),
    /** Wall-clock time of every thread, running or not. */
    WALL("--wall");

    private final String jfrconvOption;

    ProfileEvent(String jfrconvOption) {
        this.jfrconvOption = jfrconvOption;
    }

    /** The jfrconv option that selects this event's samples from a JFR recording. */
    public String jfrconvOption() {
        return jfrconvOption;
    }

    /** Lower-case name, used in file names: {@code broker-a-cpu.html}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** "cpu,alloc", "both" (= cpu,alloc) or a single event; rejects unknown and empty lists. */
    public static Set<ProfileEvent> parseList(String option, String text, Set<ProfileEvent> allowed) {
        Set<ProfileEvent> events = EnumSet.noneOf(ProfileEvent.class);
        if (text.trim().equals("both")) {
            events.add(CPU);
            events.add(ALLOC);
        } else {
            for (String part : text.split(",")) {
                ProfileEvent event = null;
                for (ProfileEvent candidate : allowed) {
                    if (candidate.id().equals(part.trim())) {
                        event = candidate;
                    }
                }
                if (event == null) {
                    throw new UsageException(option + " takes " + describe(allowed) + ", got '" + text + "'");
                }
                events.add(event);
            }
        }
        if (!allowed.containsAll(events)) {
            throw new UsageException(option + " takes " + describe(allowed) + ", got '" + text + "'");
        }
        return events;
    }

    private static String describe(Set<ProfileEvent> allowed) {
        StringBuilder s = new StringBuilder();
        for (ProfileEvent event : allowed) {
            s.append(s.length() == 0 ? "" : ",").append(event.id());
        }
        return "a comma-separated list of " + s + (allowed.containsAll(EnumSet.of(CPU, ALLOC)) ? " (or both)" : "");
    }
}
