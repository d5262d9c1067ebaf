package io.hotpath.profiling;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import one.profiler.AsyncProfiler;

/**
 * Flame graphs of JMH benchmarks through JMH's own async-profiler integration
 * ({@code -prof async:libPath=...;output=jfr;dir=...}). The benchmarks run in a separate JVM from
 * the jmh module's shaded {@code jmh/target/benchmarks.jar} (copied into the run directory), so nothing here depends
 * on jmh/ at compile time.
 *
 * <p>Each benchmark fork records one JFR with every requested event; jfrconv splits it into
 * {@code <Benchmark.method>[-params]-<event>.html} and {@code .collapsed} in the run directory.
 * One fork, short warmup: a profile shows where time goes, it is not a measurement to quote.
 */
public final class JmhSession {

    private static final String JMH_MAIN = "org.openjdk.jmh.Main";
    // JMH names each fork's output directory <package>.<Class>.<method>-<Mode>[-<param>-<value>...]
    private static final Pattern RUN_DIR = Pattern.compile("^(?:.*\\.)?([\\w$]+)\\.([\\w$]+)-[A-Za-z]+(-.*)?$");

    private final Path root;
    private final Path library;
    private final Path runDir;
    private final PrintStream console;

    public JmhSession(Path root, Path library, Path runDir, PrintStream console) {
        this.root = root;
        this.library = library;
        this.runDir = runDir;
        this.console = console;
    }

    public void run(String benchRegex, Set<ProfileEvent> events, int seconds, int warmupSeconds, List<String> params,
            CpuEngine forcedEngine) {
        LiveSession.createDirectories(runDir);
        String classpath = classpath();
        List<String> benchmarks = list(classpath, benchRegex);
        console.printf("hotpath: profiling %d benchmark(s) matching '%s': %s%n", benchmarks.size(), benchRegex,
            String.join(", ", benchmarks));

        CpuEngine engine = null;
        if (events.contains(ProfileEvent.CPU)) {
            engine = forcedEngine != null ? forcedEngine : probeCpuEngine();
        }
        Path jfrDir = runDir.resolve("jmh");
        List<String> command = javaCommand(classpath);
        command.add(benchRegex);
        command.addAll(List.of("-f", "1", "-wi", Integer.toString(warmupSeconds), "-w", "1s",
            "-i", Integer.toString(seconds), "-r", "1s", "-foe", "true",
            "-rf", "json", "-rff", runDir.resolve("jmh-result.json").toString(),
            "-prof", asyncProfilerOption(events, engine, jfrDir),
            // JMH 1.37 adds these for -prof async itself; explicit, so that the stacks stay exact
            // (inlined frames placed between safepoints) whatever the integration does
            "-jvmArgsAppend", "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints " + jvmHygiene()));
        for (String param : params) {
            command.add("-p");
            command.add(param);
        }
        console.println("hotpath: " + String.join(" ", command).replace(classpath, "<jmh classpath>"));
        int exit;
        try (ChildProcess jmh = ChildProcess.start("JMH", command, runDir, Duration.ofSeconds(10))) {
            exit = jmh.waitFor();
        }
        if (exit != 0) {
            throw new ProfilingException("JMH exited with status " + exit + " (its output is above)");
        }
        export(jfrDir, events, engine);
    }

    /** {@code async:libPath=...;output=jfr;dir=...;event=...[;alloc]}: every event into one JFR per fork. */
    String asyncProfilerOption(Set<ProfileEvent> events, CpuEngine engine, Path jfrDir) {
        StringBuilder option = new StringBuilder("async:libPath=").append(library)
            .append(";output=jfr;dir=").append(jfrDir);
        if (events.contains(ProfileEvent.CPU)) {
            option.append(";event=").append(engine.eventOption());
            if (events.contains(ProfileEvent.ALLOC)) {
                // alloc next to a cpu event: a secondary event, which JMH records only with output=jfr
                option.append(";alloc");
            }
        } else {
            option.append(";event=alloc");
        }
        return option.toString();
    }

    private void export(Path jfrDir, Set<ProfileEvent> events, CpuEngine engine) {
        List<Path> recordings;
        try (Stream<Path> files = Files.walk(jfrDir)) {
            recordings = files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList();
        } catch (IOException e) {
            throw new ProfilingException("JMH wrote no profiles under " + jfrDir + ": " + e.getMessage(), e);
        }
        if (recordings.isEmpty()) {
            throw new ProfilingException("JMH wrote no JFR recordings under " + jfrDir + " (its output is above)");
        }
        for (Path jfr : recordings) {
            String forkDir = jfr.getParent().getFileName().toString();
            Matcher m = RUN_DIR.matcher(forkDir);
            String label = m.matches() ? m.group(1) + "." + m.group(2) + (m.group(3) == null ? "" : m.group(3)) : forkDir;
            String frame = m.matches() ? "/" + m.group(1) + "." + m.group(2) : null;
            if (engine != null) {
                String used = JfrExport.engine(jfr);
                if (!engine.jfrName().equals(used)) {
                    console.printf("hotpath: warning: %s: asked for %s, async-profiler sampled CPU with %s%n", label,
                        engine.jfrName(), used);
                }
            }
            for (JfrExport.Output output : JfrExport.export(jfr, events, runDir, label, label)) {
                console.printf(Locale.ROOT, "hotpath: %-5s %8d samples%s -> %s%n", output.event().id(), output.samples(),
                    frame == null ? "" : ", " + share(output.collapsed(), frame), output.html());
            }
        }
        console.println("hotpath: flame graphs and collapsed stacks in " + runDir);
    }

    /** "62.1 % in PropertiesEncodeBenchmark.hotpath": how much of the profile is the benchmark itself. */
    private static String share(Path collapsed, String frame) {
        CollapsedStacks stacks = CollapsedStacks.read(collapsed);
        long hits = 0;
        for (CollapsedStacks.Stack stack : stacks.stacks()) {
            for (String f : stack.frames()) {
                if (CollapsedStacks.frameName(f).endsWith(frame)) {
                    hits += stack.count();
                    break;
                }
            }
        }
        long total = stacks.totalSamples();
        return String.format(Locale.ROOT, "%.1f %% under %s", total == 0 ? 0 : 100.0 * hits / total, frame.substring(1));
    }

    /**
     * Runs {@code event=cpu} for a moment in this JVM (same user, same kernel settings as the
     * forks) to learn whether perf events are allowed; where they are not, samples with itimer.
     */
    private CpuEngine probeCpuEngine() {
        Path probe = runDir.resolve("probe.jfr");
        CpuEngine probed;
        try {
            AsyncProfiler profiler = AsyncProfiler.getInstance(library.toString());
            profiler.execute("start,event=cpu,jfr,file=" + probe);
            profiler.execute("stop");
            probed = CpuEngine.fromJfrName(JfrExport.engine(probe));
            Files.deleteIfExists(probe);
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            throw new ProfilingException("async-profiler (" + library + ") does not run in this JVM: " + e.getMessage(), e);
        }
        if (probed == CpuEngine.PERF_EVENTS) {
            console.println("hotpath: cpu samples from perf events (kernel frames included)");
            return probed;
        }
        console.printf("hotpath: perf events refused by the kernel (perf_event_paranoid=%s; async-profiler would fall "
            + "back to %s): sampling CPU with itimer instead, without kernel frames%n", Platform.perfEventParanoid(),
            probed == null ? "an unknown engine" : probed.jfrName());
        return CpuEngine.ITIMER;
    }

    /** The benchmarks {@code regex} selects ({@code -l}); one clear line when it selects none. */
    private List<String> list(String classpath, String regex) {
        List<String> command = javaCommand(classpath);
        command.addAll(List.of("-l", regex));
        List<String> output = new ArrayList<>();
        int exit;
        try (ChildProcess jmh = ChildProcess.startWatched("JMH -l", command, runDir, Duration.ofSeconds(5),
                output::add, new PrintStream(PrintStream.nullOutputStream()))) {
            exit = jmh.waitFor();
        }
        List<String> benchmarks = new ArrayList<>();
        boolean listing = false;
        for (String line : output) {
            if (listing && !line.isBlank()) {
                benchmarks.add(line.strip());
            }
            listing |= line.startsWith("Benchmarks:");
        }
        if (exit != 0 || !listing) {
            throw new ProfilingException("JMH could not list benchmarks (exit " + exit + "): "
                + (output.isEmpty() ? "no output" : output.get(output.size() - 1)));
        }
        if (benchmarks.isEmpty()) {
            throw new UsageException("no benchmark matches --bench '" + regex + "'");
        }
        return benchmarks;
    }

    private List<String> javaCommand(String classpath) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // JMH's fork link server: loopback is JMH's default, stated here because it is a rule
        command.add("-Djmh.link.address=127.0.0.1");
        command.addAll(List.of(jvmHygiene().split(" ")));
        command.add("-cp");
        command.add(classpath);
        command.add(JMH_MAIN);
        return command;
    }

    /** Keeps JMH's temporary files in the run directory and the JVMs' perf data out of /tmp. */
    private String jvmHygiene() {
        return "-XX:-UsePerfData -Djava.io.tmpdir=" + tmpDir();
    }

    private Path tmpDir() {
        Path tmp = runDir.resolve("tmp");
        LiveSession.createDirectories(tmp);
        return tmp;
    }

    /**
     * A private copy of {@code jmh/target/benchmarks.jar}, the shaded jar holding the benchmarks and everything they
     * run (copied, because the jmh module may be rebuilt while the forks run).
     */
    String classpath() {
        Path jar = root.resolve("jmh/target/benchmarks.jar");
        if (!Files.isRegularFile(jar)) {
            throw new UsageException("no jmh/target/benchmarks.jar: build it first (mvn -pl jmh -am package -DskipTests)");
        }
        warnIfStale(jar);
        return copy(jar).toString();
    }

    private void warnIfStale(Path jar) {
        Path sources = root.resolve("jmh/src/main");
        try (Stream<Path> files = Files.walk(sources)) {
            long built = Files.getLastModifiedTime(jar).toMillis();
            if (files.anyMatch(p -> lastModified(p) > built)) {
                console.println("hotpath: warning: " + jar + " is older than jmh/src/main: profiling the benchmarks as last built");
            }
        } catch (IOException e) {
            // no sources to compare with: nothing to warn about
        }
    }

    private static long lastModified(Path path) {
        try {
            return Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private Path copy(Path jar) {
        Path copy = runDir.resolve(jar.getFileName());
        try {
            Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + jar + " to " + copy + ": " + e.getMessage(), e);
        }
    }
}
