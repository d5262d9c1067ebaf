package io.hotpath.profiling;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Profiles running JVMs (the masters of a 2m-2s cluster, or any JVM by PID) for the same window:
 * attach to all, choose the CPU engine per JVM, start all, wait, stop all, then write per JVM
 * {@code <name>.jfr} (every event in one recording), {@code <name>-<event>.html},
 * {@code <name>-<event>.collapsed} and {@code <name>-profiler.log}.
 *
 * <p>A shutdown hook stops every profiler still running, so Ctrl-C leaves no JVM profiling.
 */
public final class LiveSession {

    public record Target(long pid, String name) {
    }

    public record Result(Target target, CpuEngine engine, Path jfr, List<JfrExport.Output> outputs) {
    }

    private static final long POLL_MILLIS = 250;

    private final Path library;
    private final Set<ProfileEvent> events;
    private final CpuEngine forcedEngine;
    private final Path dir;
    private final PrintStream console;

    /**
     * @param forcedEngine CPU engine to use, or null to use perf events where the target's kernel
     *                     allows them and {@code itimer} elsewhere
     */
    public LiveSession(Path library, Set<ProfileEvent> events, CpuEngine forcedEngine, Path dir, PrintStream console) {
        this.library = library;
        this.events = EnumSet.copyOf(events);
        this.forcedEngine = forcedEngine;
        this.dir = dir;
        this.console = console;
    }

    public List<Result> run(List<Target> targets, Duration duration) {
        createDirectories(dir);
        try {
            letTargetsWrite(targets);
            return profile(targets, duration);
        } catch (RuntimeException e) {
            deleteIfEmpty(dir);
            throw e;
        }
    }

    private List<Result> profile(List<Target> targets, Duration duration) {
        List<LiveProfiler> profilers = new ArrayList<>();
        Thread stopOnExit = new Thread(() -> closeAll(profilers), "hotpath-profiler-stop");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        try {
            for (Target target : targets) {
                synchronized (profilers) {
                    profilers.add(LiveProfiler.attach(target.pid(), library, dir.resolve(target.name() + "-profiler.log")));
                }
            }
            List<CpuEngine> engines = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                engines.add(events.contains(ProfileEvent.CPU) ? chooseEngine(profilers.get(i), targets.get(i)) : null);
            }
            for (int i = 0; i < targets.size(); i++) {
                profilers.get(i).start(startOptions(engines.get(i), jfr(targets.get(i))));
            }
            console.printf(Locale.ROOT, "hotpath: profiling %s for %d s (%s)%n", describe(targets), duration.toSeconds(),
                String.join(", ", events.stream().map(ProfileEvent::id).toList()));
            await(targets, duration);
            for (LiveProfiler profiler : profilers) {
                profiler.stop();
            }
            List<Result> results = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                results.add(export(targets.get(i), engines.get(i), profilers.get(i)));
            }
            return results;
        } finally {
            closeAll(profilers);
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook runs closeAll as well
            }
        }
    }

    /**
     * The agent writes the JFR and its log as the target's user. When root profiles a JVM of another
     * user (a broker run as its own account), that user gets the output directory.
     */
    private void letTargetsWrite(List<Target> targets) {
        int self = Platform.effectiveUid("self");
        Set<Integer> others = new TreeSet<>();
        for (Target target : targets) {
            int uid = Platform.effectiveUid(Long.toString(target.pid()));
            if (uid >= 0 && uid != self && uid != 0) {
                others.add(uid);
            }
        }
        if (others.isEmpty()) {
            return;
        }
        if (self != 0 || others.size() > 1) {
            throw new UsageException("the profiled JVMs run as uid " + others + " and could not write to " + dir
                + "; run this as root or as the JVMs' user");
        }
        try {
            Files.setAttribute(dir, "unix:uid", others.iterator().next());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hand " + dir + " to uid " + others + ": " + e.getMessage(), e);
        }
    }

    private static void closeAll(List<LiveProfiler> profilers) {
        synchronized (profilers) {
            for (LiveProfiler profiler : profilers) {
                profiler.close();
            }
        }
    }

    private CpuEngine chooseEngine(LiveProfiler profiler, Target target) {
        if (forcedEngine != null) {
            return forcedEngine;
        }
        CpuEngine probed = profiler.probeCpuEngine(dir.resolve(target.name() + "-probe.jfr"));
        if (probed == CpuEngine.PERF_EVENTS) {
            return CpuEngine.PERF_EVENTS;
        }
        console.printf("hotpath: %s: perf events refused by the kernel (perf_event_paranoid=%s; async-profiler would "
                + "fall back to %s): sampling CPU with itimer instead, without kernel frames%n",
            target.name(), Platform.perfEventParanoid(), probed == null ? "an unknown engine" : probed.jfrName());
        return CpuEngine.ITIMER;
    }

    /** Agent options after {@code start,}: one JFR recording holding every requested event. */
    String startOptions(CpuEngine engine, Path jfr) {
        List<String> options = new ArrayList<>();
        if (engine != null) {
            options.add("event=" + engine.eventOption());
        }
        if (events.contains(ProfileEvent.ALLOC)) {
            options.add("alloc");
        }
        if (events.contains(ProfileEvent.WALL)) {
            // the wall option (not event=wall) runs wall-clock sampling next to the cpu engine
            options.add("wall");
        }
        options.add("jfr");
        options.add("file=" + jfr);
        return String.join(",", options);
    }

    private void await(List<Target> targets, Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline) {
            for (Target target : targets) {
                if (ProcessHandle.of(target.pid()).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE) {
                    throw new ProfilingException(target.name() + " (PID " + target.pid() + ") exited while it was profiled");
                }
            }
            try {
                Thread.sleep(Math.min(POLL_MILLIS, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProfilingException("interrupted while profiling");
            }
        }
    }

    private Result export(Target target, CpuEngine expected, LiveProfiler profiler) {
        Path jfr = jfr(target);
        CpuEngine used = null;
        if (expected != null) {
            used = CpuEngine.fromJfrName(JfrExport.engine(jfr));
            if (used != expected) {
                console.printf("hotpath: warning: %s: asked for %s, async-profiler sampled CPU with %s%n", target.name(),
                    expected.jfrName(), used == null ? "an unknown engine" : used.jfrName());
            }
        }
        for (String warning : profiler.warnings()) {
            console.printf("hotpath: %s: async-profiler: %s%n", target.name(), warning);
        }
        String title = target.name() + " (PID " + target.pid() + ")";
        List<JfrExport.Output> outputs = JfrExport.export(jfr, events, dir, target.name(), title);
        for (JfrExport.Output output : outputs) {
            console.printf(Locale.ROOT, "hotpath: %s %-5s %8d samples%s -> %s%n", target.name(), output.event().id(),
                output.samples(), output.event() == ProfileEvent.CPU && used != null ? " (" + used.jfrName() + ")" : "",
                output.html());
        }
        return new Result(target, used, jfr, outputs);
    }

    private Path jfr(Target target) {
        return dir.resolve(target.name() + ".jfr");
    }

    private static String describe(List<Target> targets) {
        return String.join(", ", targets.stream().map(t -> t.name() + " (PID " + t.pid() + ")").toList());
    }

    /** A session that failed before anything was written leaves no empty directory behind. */
    private static void deleteIfEmpty(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            if (files.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException e) {
            // keep it
        }
    }

    static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }
}
