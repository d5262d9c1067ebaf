package io.hotpath.profiling;

import com.google.gson.JsonParseException;
import io.hotpath.e2e.run.RunRecord;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.LineOption.Partial;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/hotpath profile <jmh|broker|cluster|compare|check|provenance>}. Everything lands under
 * {@code profiling/target/flamegraphs/<kind>-<timestamp>/}. Bad input: one
 * {@code hotpath: error:} line and exit 2; a failed session or check: one line and exit 1.
 *
 * <p>System properties (set by bin/hotpath profile: module cli's Profile): {@code hotpath.root} (project root),
 * {@code hotpath.profiler.lib} (the unpacked libasyncProfiler.so).
 */
public final class ProfileCommand {

    static final String USAGE = """
        usage: bin/hotpath profile <command> [options]

          jmh      --bench REGEX [--event cpu|alloc|both] [--seconds N] [--warmup N] [--param NAME=VALUES]...
                   Flame graphs of the JMH benchmarks matching REGEX (one fork each), through JMH's async-profiler
                   integration. Writes profiling/target/flamegraphs/jmh-<ts>/<Benchmark.method>[-params]-<event>.{html,collapsed}.
          broker   --pid PID [--name NAME] [--seconds N] [--event cpu,alloc[,wall]]
                   Attaches to a running JVM for N seconds. Writes flamegraphs/<name>-<ts>/<name>-<event>.{html,collapsed}.
          cluster  --dist stock|patched [--line R] [--seconds N] [--warmup N] [--event cpu,alloc[,wall]] [--messages N]
                   [--threads N] [--rate N] [--cluster-warmup N]
                   Runs bin/hotpath smoke and profiles both masters (broker-a, broker-b) while it sends; it follows the
                   smoke through the run record the smoke keeps in the output directory (run-record.json). --line: the
                   release line (patches/<R>/line.properties), default the newest. --rate: the smoke's paced rate in
                   msg/s (its --rate; default unpaced), so that the profile's load stays below what the machine holds.
                   --cluster-warmup: seconds of the smoke's discarded warm-up load (its --warmup; default 0) before the
                   measured load, whose first --warmup seconds then pass before the profile starts.
                   Writes flamegraphs/cluster-<dist>-<ts>/broker-{a,b}-<event>.{html,collapsed}. The brokers also keep the
                   evidence of the provenance check (below) in their node directories.
          compare  STOCK_DIR PATCHED_DIR [--expect-stock present|absent|ignore] [--expect-patched present|absent|ignore]
                   Markdown table of samples by send-path frame family, diff flame graphs, and the reflection check
                   (defaults: stock present, patched absent: patch 0002 decodes send headers without reflection).
                   Writes flamegraphs/compare-<ts>/compare.md and diff-<event>.html.
          check    DIR [--expect present|absent]
                   Only the reflection check on DIR's cpu profiles: decodeCommandCustomHeader -> java/lang/reflect on the
                   send path present (stock 4.9.0, the default) or absent (patched, with patch 0002). Not a proof of the
                   patch on 5.x (stock 5.3.3 decodes V2 headers without reflection too); CI runs provenance instead.
          provenance DIR | --print-jvm-opts
                   Whether both masters of the run DIR's run-record.json describes (a cluster-<dist>-<ts> directory, or a
                   smoke run directory e2e/target/e2e/<ts>-<flavor> of a smoke given --broker-jvm-opts with the options
                   in profiling/README.md) decoded sends with the send-header decoder the line's patches add: loaded from
                   the distribution's rocketmq-broker jar, on the first send, by a send processor's parseRequestHeader.
                   Fails on a stock distribution. --print-jvm-opts prints the broker JVM options that make the evidence
                   (profile cluster passes them; for a smoke of your own: --broker-jvm-opts="$(... --print-jvm-opts)").

          --cpu-engine auto|perf|itimer|ctimer   (jmh, broker, cluster) auto = perf events where the kernel allows them,
                                                 else itimer (said in the output)

        See profiling/README.md.""";

    private static final Set<ProfileEvent> ALL_EVENTS = EnumSet.allOf(ProfileEvent.class);
    private static final Set<ProfileEvent> JMH_EVENTS = EnumSet.of(ProfileEvent.CPU, ProfileEvent.ALLOC);

    private final Path root;
    private final Path library;
    private final Path outputRoot;
    private final PrintStream out;

    ProfileCommand(Path root, Path library, Path outputRoot, PrintStream out) {
        this.root = root;
        this.library = library;
        this.outputRoot = outputRoot;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    // Set by a shutdown hook: after Ctrl-C the session's own errors (a broker "exited" because the
    // smoke stopped it) are consequences of the interrupt, not news.
    private static volatile boolean shuttingDown;

    /** Runs the command and returns the exit status; never throws. */
    public static int run(String... args) {
        Thread marker = new Thread(() -> shuttingDown = true, "hotpath-shutdown-marker");
        Runtime.getRuntime().addShutdownHook(marker);
        try {
            return dispatchSafely(args);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(marker);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    private static int dispatchSafely(String... args) {
        Path root = Path.of(System.getProperty("hotpath.root", ".")).toAbsolutePath().normalize();
        Path library = Path.of(System.getProperty("hotpath.profiler.lib",
            root.resolve("profiling/target/async-profiler/linux-x64/libasyncProfiler.so").toString()));
        try {
            return new ProfileCommand(root, library, root.resolve("profiling/target/flamegraphs"), System.out).dispatch(List.of(args));
        } catch (UsageException | ReleaseLineException e) {
            // bad input, or a release line that this checkout does not have or cannot read
            return error(e.getMessage(), 2);
        } catch (ProfilingException | UncheckedIOException e) {
            return error(e.getMessage(), 1);
        } catch (RuntimeException e) {
            return error("unexpected " + e, 1);
        }
    }

    private static int error(String message, int status) {
        System.err.println(shuttingDown ? "hotpath: interrupted; everything this session started was stopped"
            : "hotpath: error: " + message);
        return status;
    }

    int dispatch(List<String> args) {
        if (args.isEmpty()) {
            System.err.println(USAGE);
            throw new UsageException("missing profile command (jmh, broker, cluster, compare, check, provenance)");
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        if (rest.contains("-h") || rest.contains("--help") || command.equals("-h") || command.equals("--help")) {
            out.println(USAGE);
            return 0;
        }
        switch (command) {
            case "jmh":
                return jmh(Options.parse(command, rest, Set.of("--bench", "--event", "--seconds", "--warmup", "--param",
                    "--cpu-engine"), Set.of()));
            case "broker":
                return broker(Options.parse(command, rest, Set.of("--pid", "--name", "--seconds", "--event", "--cpu-engine"),
                    Set.of()));
            case "cluster":
                return cluster(Options.parse(command, rest, Set.of("--dist", LineOption.LINE, "--seconds", "--warmup", "--event",
                    "--messages", "--threads", "--rate", "--cluster-warmup", "--cpu-engine"), Set.of()));
            case "compare":
                return compare(Options.parse(command, rest, Set.of("--expect-stock", "--expect-patched"), Set.of()));
            case "check":
                return check(Options.parse(command, rest, Set.of("--expect"), Set.of()));
            case "provenance":
                return provenance(Options.parse(command, rest, Set.of(), Set.of("--print-jvm-opts")));
            default:
                throw new UsageException("unknown profile command '" + command + "' (jmh, broker, cluster, compare, check,"
                    + " provenance)");
        }
    }

    private int jmh(Options options) {
        noPositional(options, "jmh");
        String bench = options.required("--bench");
        Set<ProfileEvent> events = ProfileEvent.parseList("--event", options.get("--event", "both"), JMH_EVENTS);
        int seconds = options.number("--seconds", 5, 1, 600);
        int warmup = options.number("--warmup", 3, 0, 600);
        for (String param : options.all("--param")) {
            if (!param.matches("[\\w$]+=.+")) {
                throw new UsageException("--param wants NAME=VALUE[,VALUE...], got '" + param + "'");
            }
        }
        CpuEngine engine = CpuEngine.parseOption(options.get("--cpu-engine", "auto"));
        requireLibrary();
        Path dir = outputRoot.resolve("jmh-" + Platform.stamp());
        new JmhSession(root, library, dir, out).run(bench, events, seconds, warmup, options.all("--param"), engine);
        return 0;
    }

    private int broker(Options options) {
        noPositional(options, "broker");
        options.required("--pid");
        long pid = options.number("--pid", -1, 1, Integer.MAX_VALUE);
        String name = options.get("--name", "pid" + pid);
        if (!name.matches("[\\w.-]+")) {
            throw new UsageException("--name may contain letters, digits, '.', '_' and '-' only, got '" + name + "'");
        }
        int seconds = options.number("--seconds", 30, 1, 3600);
        Set<ProfileEvent> events = ProfileEvent.parseList("--event", options.get("--event", "cpu,alloc"), ALL_EVENTS);
        CpuEngine engine = CpuEngine.parseOption(options.get("--cpu-engine", "auto"));
        requireLibrary();
        LiveProfiler.checkJvm(pid);
        Path dir = outputRoot.resolve(name + "-" + Platform.stamp());
        new LiveSession(library, events, engine, dir, out)
            .run(List.of(new LiveSession.Target(pid, name)), Duration.ofSeconds(seconds));
        out.println("hotpath: flame graphs and collapsed stacks in " + dir);
        return 0;
    }

    private int cluster(Options options) {
        noPositional(options, "cluster");
        String dist = options.required("--dist");
        if (!dist.equals("stock") && !dist.equals("patched")) {
            throw new UsageException("--dist must be stock or patched, got '" + dist + "'");
        }
        ReleaseLine line = LineOption.resolve(options.get(LineOption.LINE, null), root.resolve("patches"), Partial.REFUSED);
        Path distribution = ReleaseLines.distributionHome(root, line.release(), dist);
        if (!Files.isDirectory(distribution)) {
            throw new UsageException("no " + dist + " distribution of " + line.release() + " at " + distribution
                + " (bin/hotpath build-broker)");
        }
        int seconds = options.number("--seconds", 30, 1, 3600);
        int warmup = options.number("--warmup", 20, 0, 3600);
        // the smoke sends a count, not for a time: enough for warmup + profile at up to 10k msg/s
        int messages = options.number("--messages", Math.min(50_000_000, 10_000 * (warmup + seconds)), 1, 50_000_000);
        int threads = options.number("--threads", 16, 1, 1024);
        int rate = options.number("--rate", 0, 0, 1_000_000);
        int clusterWarmup = options.number("--cluster-warmup", 0, 0, 3600);
        Set<ProfileEvent> events = ProfileEvent.parseList("--event", options.get("--event", "cpu,alloc"), ALL_EVENTS);
        CpuEngine engine = CpuEngine.parseOption(options.get("--cpu-engine", "auto"));
        requireLibrary();
        Path dir = outputRoot.resolve("cluster-" + dist + "-" + Platform.stamp());
        new ClusterSession(root, library, dir, out).run(dist, line, seconds, warmup,
            new ClusterSession.SmokeLoad(messages, threads, rate, clusterWarmup), events, engine);
        out.println("hotpath: flame graphs and collapsed stacks in " + dir);
        return 0;
    }

    private int compare(Options options) {
        List<String> dirs = options.positional();
        if (dirs.size() != 2) {
            throw new UsageException("profile compare needs STOCK_DIR PATCHED_DIR, got " + dirs.size() + " argument(s)");
        }
        ReflectionCheck.Expectation stock = ReflectionCheck.Expectation.parse("--expect-stock",
            options.get("--expect-stock", "present"));
        // absent: patch 0002 decodes every send header without reflection
        ReflectionCheck.Expectation patched = ReflectionCheck.Expectation.parse("--expect-patched",
            options.get("--expect-patched", "absent"));
        Path dir = outputRoot.resolve("compare-" + Platform.stamp());
        StringBuilder report = new StringBuilder();
        List<String> failures = CompareSession.run(Path.of(dirs.get(0)), Path.of(dirs.get(1)), dir, stock, patched, report);
        out.print(report);
        out.println();
        out.println("hotpath: wrote " + dir.resolve("compare.md") + " and the diff flame graphs next to it");
        if (!failures.isEmpty()) {
            throw new ProfilingException("reflection check failed: " + String.join("; ", failures));
        }
        return 0;
    }

    private int check(Options options) {
        List<String> dirs = options.positional();
        if (dirs.size() != 1) {
            throw new UsageException("profile check needs one DIR, got " + dirs.size() + " argument(s)");
        }
        ReflectionCheck.Expectation expected = ReflectionCheck.Expectation.parse("--expect", options.get("--expect", "present"));
        Path dir = Path.of(dirs.get(0));
        StringBuilder report = new StringBuilder();
        Optional<String> failure = CompareSession.check(dir, dir.getFileName().toString(), expected, report);
        out.println("hotpath: " + report);
        if (failure.isPresent()) {
            throw new ProfilingException("reflection check failed: " + failure.get());
        }
        out.println("hotpath: reflection check passed");
        return 0;
    }

    private int provenance(Options options) {
        List<String> dirs = options.positional();
        if (options.flag("--print-jvm-opts")) {
            if (!dirs.isEmpty()) {
                throw new UsageException("profile provenance --print-jvm-opts takes no DIR");
            }
            out.println(String.join(" ", DecoderProvenance.brokerJvmOptions()));
            return 0;
        }
        if (dirs.size() != 1) {
            throw new UsageException("profile provenance needs one DIR, got " + dirs.size() + " argument(s)");
        }
        Path recordFile = Path.of(dirs.get(0)).resolve(RunRecord.FILE);
        RunRecord record;
        try {
            record = RunRecord.read(recordFile).orElseThrow(() -> new UsageException("no run record at " + recordFile
                + " (give a profile cluster directory or a smoke run directory)"));
        } catch (JsonParseException e) {
            throw new UsageException("cannot read the run record " + recordFile + ": " + e.getMessage());
        }
        if (!record.flavor().equals("stock") && !record.flavor().equals("patched")) {
            throw new UsageException("the run in " + record.runDir() + " ran distribution '" + record.flavor()
                + "'; the provenance check knows the stock and the patched distribution of a line only");
        }
        ReleaseLine line = ReleaseLine.resolve(record.line(), root.resolve("patches"));
        String decoder = DecoderProvenance.decoderClass(line).orElseThrow(() -> new UsageException("the patches of line "
            + line.release() + " carry no send-header decoder into broker (" + line.dir().resolve(ReleaseLine.DESCRIPTOR)
            + "): nothing to check"));
        Path jar = DecoderProvenance.brokerJar(ReleaseLines.distributionHome(root, record.line(), record.flavor()), record.line());
        StringBuilder report = new StringBuilder();
        List<String> failures = DecoderProvenance.check(Path.of(record.runDir()), ClusterSession.MASTERS, decoder, jar, report);
        report.toString().lines().forEach(l -> out.println("hotpath: " + record.flavor() + " " + line.release() + " " + l));
        if (!failures.isEmpty()) {
            throw new ProfilingException("decoder provenance check failed: " + String.join("; ", failures));
        }
        out.println("hotpath: decoder provenance check passed");
        return 0;
    }

    private void requireLibrary() {
        if (!Files.isRegularFile(library)) {
            throw new UsageException("async-profiler library not found at " + library
                + " (build the profiling module: mvn -B -q -pl e2e,profiling package)");
        }
    }

    private static void noPositional(Options options, String command) {
        if (!options.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + options.positional().get(0) + "' for profile " + command
                + " (see bin/hotpath profile " + command + " --help)");
        }
    }
}
