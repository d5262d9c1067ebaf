package io.hotpath.profiling;

import java.util.Locale;

/**
 * How async-profiler samples CPU time. {@code event=cpu} uses perf events when the kernel allows
 * them for the target process (root here, or {@code perf_event_paranoid} <= 1) and otherwise
 * silently switches to {@code ctimer}; we probe first and, where perf events are refused, sample
 * with {@code itimer} instead and say so. Only perf events record kernel frames.
 */
public enum CpuEngine {
    PERF_EVENTS("cpu", "perf_events"),
    ITIMER("itimer", "itimer"),
    CTIMER("ctimer", "ctimer");

    private final String eventOption;
    private final String jfrName;

    CpuEngine(String eventOption, String jfrName) {
        this.eventOption = eventOption;
        this.jfrName = jfrName;
    }

    /** The value of async-profiler's {@code event=} option. */
    public String eventOption() {
        return eventOption;
    }

    /** The name async-profiler records as the {@code engine} setting of a JFR recording. */
    public String jfrName() {
        return jfrName;
    }

    public static CpuEngine fromJfrName(String name) {
        for (CpuEngine engine : values()) {
            if (engine.jfrName.equals(name)) {
                return engine;
            }
        }
        return null;
    }

    /** {@code --cpu-engine}: auto (null: probe), perf, itimer or ctimer. */
    public static CpuEngine parseOption(String text) {
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return null;
            case "perf":
            case "perf_events":
                return PERF_EVENTS;
            case "itimer":
                return ITIMER;
            case "ctimer":
                return CTIMER;
            default:
                throw new UsageException("--cpu-engine takes auto, perf, itimer or ctimer, got '" + text + "'");
        }
    }
}
