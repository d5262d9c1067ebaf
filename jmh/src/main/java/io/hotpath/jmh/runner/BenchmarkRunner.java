package io.hotpath.jmh.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.hotpath.jmh.results.JmhResults;
import io.hotpath.jmh.results.LineQuotes;
import io.hotpath.jmh.results.PatchResults;
import io.hotpath.jmh.results.ResultSection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Entry point of {@code mvn -pl jmh verify} (exec:exec in this module's pom): decides whether to
 * run ({@link RunDecision}), what to run (by default {@link Headline}: each release line's drop-ins against its own
 * stock; {@code -Djmh.matrix=full}, {@code -Djmh.include} etc.: the full matrix or part of it; {@code -Djmh.line}: what
 * the line's patches quote), plans the settings ({@link RunPlan}), samples how busy the machine is,
 * runs every selected benchmark with {@code -prof gc} (in one JMH invocation; the default run in one per line, with a
 * fork of the machine control between them: {@link PartedRun}), and writes
 * {@code target/jmh-result.json} and {@code target/jmh-summary.md} ({@link SummaryWriter}).
 *
 * <p>Run switches arrive as system properties ({@code -Djmh.include} etc., empty = default, see
 * README.md); Maven facts as {@code --name=value} arguments. JMH's own options after
 * {@code bin/hotpath jmh --} arrive in the file {@code -Djmh.argsFile} names ({@link ArgsFile}) and go to JMH
 * unchanged, after the runner's own, in every kind of run; where they give an option the runner sets, the runner
 * leaves its own out ({@link JmhArguments}). Bad input gives one line on stderr
 * and exit status 2; a failed benchmark (e.g. a {@code @Setup} guard) exit status 1.
 */
public final class BenchmarkRunner {

    static final String DEFAULT_INCLUDE = "^io\\.hotpath\\.jmh\\.";
    static final String RESULT_JSON = "jmh-result.json";
    static final String SUMMARY_MD = "jmh-summary.md";
    /** Where the result files that patch Results quote are committed, from the repository root. */
    static final String DOCS_RESULTS = "docs/results";
    /** A line's run without -Djmh.resultDir: under the build directory, so that nothing lands in the tree unasked. */
    static final String LINE_RESULTS = "results";
    /** The runner's and the forks' java.io.tmpdir, under the build directory: JMH's temporary files and its lock. */
    static final String TMP = "tmp";

    private BenchmarkRunner() {
    }

    public static void main(String[] argv) {
        try {
            // the pom starts this JVM with -Djava.io.tmpdir=target/tmp: JMH's lock (<tmpdir>/jmh.lock, read when its
            // Runner class loads) and its temporary files stay in the build directory
            Files.createDirectories(Paths.get(System.getProperty("java.io.tmpdir")));
            System.exit(run(argv, RunnerOptions.fromSystemProperties()));
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("hotpath-jmh: error: " + e.getMessage());
            System.exit(2);
        } catch (RunnerException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            System.err.println("hotpath-jmh: error: benchmark run failed: " + cause.getMessage()
                + " (JMH output above has the details)");
            System.exit(1);
        } catch (IOException | InterruptedException e) {
            System.err.println("hotpath-jmh: error: " + e);
            System.exit(1);
        }
    }

    static int run(String[] argv, RunnerOptions opts) throws IOException, InterruptedException, RunnerException, CommandLineOptionException {
        return run(argv, opts, false);
    }

    /**
     * @param rehearse decide everything a run would (whether, what, how long: the errors a user would get) and
     *                 return before anything is written or measured; 0 when the run would start. The class path is
     *                 not checked for installed io.hotpath jars then: nothing is measured.
     */
    static int run(String[] argv, RunnerOptions opts, boolean rehearse)
            throws IOException, InterruptedException, RunnerException, CommandLineOptionException {
        Map<String, String> maven = mavenArgs(argv);
        RunDecision decision = RunDecision.decide(opts.get("jmh.run"), maven.get("selected-projects"),
            maven.get("execution-root"), required(maven, "basedir"), required(maven, "module"));
        if (!decision.run) {
            System.out.println("benchmarks skipped: run mvn -pl jmh verify (or -Djmh.run=true)");
            return 0;
        }

        String root = maven.get("project-root");
        List<String> stale = rehearse ? List.of() : ReactorClasspath.repositoryCopies(System.getProperty("java.class.path"),
            Paths.get(blank(root) ? required(maven, "basedir") + "/.." : root).toAbsolutePath().normalize());
        if (!stale.isEmpty()) {
            throw new IllegalArgumentException("the benchmarks would measure io.hotpath jars from a Maven repository, not"
                + " this tree's sources (" + stale.get(0) + (stale.size() > 1 ? " and " + (stale.size() - 1) + " more" : "")
                + "): run mvn -pl jmh verify from the repository root, which builds them (.mvn/maven.config: --also-make)");
        }

        Path projectRoot = Paths.get(blank(root) ? required(maven, "basedir") + "/.." : root).toAbsolutePath().normalize();
        String line = opts.get("jmh.line").trim();
        if (!blank(opts.get("jmh.writeResults"))) {
            return rehearse ? writeResultsFile(line, maven, projectRoot, opts) == null ? 1 : 0
                : writeResults(line, maven, projectRoot, opts);
        }
        LineQuotes quotes = line.isEmpty() ? null : LineQuotes.load(line);
        JmhArguments args = new JmhArguments(passThrough(maven, opts));
        boolean headline = quotes == null
            && Headline.applies(opts.get("jmh.matrix"), opts.get("jmh.include"), opts.get("jmh.exclude"), opts.get("jmh.params"), args);
        if (headline) {
            Headline.select(args);
            rawArgs(args, opts);
        } else if (quotes == null) {
            selectionArgs(args, opts);
        } else {
            lineSelection(quotes, args, opts);
        }
        CommandLineOptions selected = new CommandLineOptions(args.toList().toArray(new String[0]));
        boolean list = "true".equalsIgnoreCase(opts.get("jmh.list"));
        if (rehearse && (list || selected.shouldHelp() || selected.shouldList() || selected.shouldListWithParams()
            || selected.shouldListProfilers() || selected.shouldListResultFormats())) {
            return 0; // what JMH prints for a query is JMH's
        }
        if (answeredQuery(selected)) {
            return 0;
        }
        if (list) {
            new Runner(selected).listWithParams(selected);
            return 0;
        }
        int combinations = combinations(selected);
        if (combinations == 0) {
            throw new IllegalArgumentException("no benchmark matches " + args);
        }
        // a line's quotable run takes the defaults too: AbstractBenchmark's 4 forks and 1 s iterations are what its
        // Results may quote (PatchFreshnessTest requires >= 4 forks, 1 s; MEASURING.md: one odd fork of two moves a
        // mean by 10-15 %)
        RunPlan plan = RunPlan.plan(combinations, args.given(), opts.get("jmh.forks"), opts.get("jmh.warmupIterations"),
            opts.get("jmh.warmupTime"), opts.get("jmh.iterations"), opts.get("jmh.time"), opts.get("jmh.budget"));

        if (rehearse) {
            return 0;
        }

        Path out = Paths.get(required(maven, "output-dir"));
        Path buildDir = out;
        Path json = out.resolve(RESULT_JSON);
        Path summary = out.resolve(SUMMARY_MD);
        if (quotes != null) {
            // jmh-<line>-<date>.json; in docs/results/ (-Djmh.resultDir=docs/results, bin/hotpath jmh --to-docs) the
            // file the line's Results may name
            out = lineResultDir(opts, buildDir, executionRoot(maven));
            String name = "jmh-" + line + "-" + LocalDate.now(ZoneOffset.UTC);
            json = out.resolve(name + ".json");
            summary = out.resolve(name + ".md");
        }
        Files.createDirectories(out);
        // a failed run must not leave an older result looking current
        Files.deleteIfExists(json);
        Files.deleteIfExists(summary);

        // the plan holds the pass-through's -f etc. where it gives them, and JmhArguments leaves these out then
        args.option("-f", Integer.toString(plan.forks))
            .option("-wi", Integer.toString(plan.warmupIterations)).option("-w", jmhTime(plan.warmupMillis))
            .option("-i", Integer.toString(plan.iterations)).option("-r", jmhTime(plan.measurementMillis))
            .gcProfiler().option("-foe", "true");
        int cpus = Runtime.getRuntime().availableProcessors();
        Optional<ForkPinning> pinning = args.gives("-jvm") ? Optional.empty()
            : ForkPinning.of(buildDir, cpus, opts.get("jmh.pin"), System.getenv("PATH"), System.getProperty("java.home"));
        pinning.ifPresent(p -> args.option("-jvm", p.wrapper().toString()));
        forkTemporaryFiles(args, buildDir);
        boolean ownResults = args.results("json", json.toString());

        PrintStream log = System.out;
        log.println("hotpath-jmh: " + decision.reason + "; " + combinations + " benchmark/param combinations, "
            + plan.describe() + ", estimated " + RunPlan.duration(plan.estimateSeconds()));
        if (headline) {
            log.println("hotpath-jmh: the default run, each line's drop-ins vs its own stock on the headline paths ("
                + perLine(args, opts) + "); every method and parameter: -Djmh.matrix=full");
        }
        if (!args.leftOut().isEmpty()) {
            log.println("hotpath-jmh: the options after -- replace the runner's own " + JmhArguments.shellWords(args.leftOut()));
        }
        if (!ownResults) {
            log.println("hotpath-jmh: -rf/-rff after --: JMH writes the results where they say, and there is no " + SUMMARY_MD);
        }
        log.println("hotpath-jmh: JMH " + args);
        waitForOtherJmhRuns(log);
        Double idleBefore = CpuSampler.idlePercent(2000);
        log.println("hotpath-jmh: machine " + (idleBefore == null ? "load unknown"
            : String.format("%.1f %% idle over the last 2 s", idleBefore)));

        ZonedDateTime started = ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        CpuSampler.Snapshot cpuStart = CpuSampler.snapshot();
        long t0 = System.nanoTime();
        // the default run's control gets a fork between the lines; a user's own -rf/-rff would get the last part only
        List<Headline.Part> parts = headline && ownResults ? Headline.parts() : Collections.emptyList();
        Collection<?> results;
        try {
            if (!parts.isEmpty()) {
                List<RunResult> merged = PartedRun.run(parts, args, plan.forks, log);
                ResultFormatFactory.getInstance(ResultFormatType.JSON, json.toString()).writeOut(merged);
                results = merged;
            } else {
                results = new Runner(new CommandLineOptions(args.toList().toArray(new String[0]))).run();
            }
        } catch (RunnerException e) {
            Files.deleteIfExists(json); // partial results of a failed run, e.g. a @Setup guard
            throw e;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        CpuSampler.Snapshot cpuEnd = CpuSampler.snapshot();
        if (results.isEmpty() || (ownResults && !Files.exists(json))) {
            throw new RunnerException("JMH produced no results");
        }
        if (!ownResults) {
            return 0; // the summary reads the runner's own -rf json file, which the options after -- replaced
        }

        SummaryWriter.RunContext ctx = new SummaryWriter.RunContext();
        ctx.date = started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        ctx.command = command();
        ctx.jmhArgs = args.toString();
        ctx.duration = RunPlan.duration(seconds);
        ctx.estimate = RunPlan.duration(plan.estimateSeconds());
        ctx.cpus = cpus;
        ctx.pinning = pinning.map(p -> p.describe(cpus)).orElse(args.gives("-jvm") ? "as the -jvm after -- says"
            : "not pinned (one CPU, no taskset, or -Djmh.pin=false)");
        if (!parts.isEmpty()) {
            ctx.parts = parts.size() + ", in order: " + parts.stream().map(Headline.Part::label)
                .collect(Collectors.joining("; ")) + " (the control: " + Headline.CONTROL_FORKS_PER_PART
                + " fork each time, its forks together in one row)";
        }
        ctx.idleBeforePercent = idleBefore;
        ctx.othersDuringPercent = CpuSampler.othersPercent(cpuStart, cpuEnd);
        Path jsonPath = json.toAbsolutePath().normalize();
        // a line's summary is committed beside its JSON: name the file from the repository root, not this machine's
        ctx.resultFile = jsonPath.startsWith(projectRoot) ? projectRoot.relativize(jsonPath).toString() : json.toString();
        // a line's quotable run is summarised against that line's stock alone (5.5.1's drop-ins are 5.3.3's methods)
        List<LineMethods> lines = quotes == null ? LineMethods.ALL : LineMethods.forRelease(line).map(List::of).orElse(List.of());
        String md = new SummaryWriter(lines, Headline.CONTROL)
            .write(new String(Files.readAllBytes(json), StandardCharsets.UTF_8), ctx);
        Files.write(summary, md.getBytes(StandardCharsets.UTF_8));
        log.println();
        log.println(md);
        log.println("hotpath-jmh: wrote " + json + " and " + summary);
        if (quotes != null && json.toAbsolutePath().normalize().startsWith(projectRoot.resolve(DOCS_RESULTS))) {
            log.println("hotpath-jmh: to quote it in the line's patch messages (commit it first): bin/hotpath jmh --line "
                + line + " --write-results " + projectRoot.relativize(json.toAbsolutePath().normalize()));
        } else if (quotes != null) {
            log.println("hotpath-jmh: not in " + DOCS_RESULTS + "/, so no Result quotes it; a run to quote: bin/hotpath jmh"
                + " --line " + line + " --to-docs, on a quiet machine");
        }
        return 0;
    }

    /** Where a line's run writes: {@code -Djmh.resultDir} (from where Maven was started), else the build directory. */
    static Path lineResultDir(RunnerOptions opts, Path buildDir, Path executionRoot) {
        return opts.blank("jmh.resultDir") ? buildDir.resolve(LINE_RESULTS).toAbsolutePath().normalize()
            : executionRoot.resolve(opts.get("jmh.resultDir").trim()).toAbsolutePath().normalize();
    }

    /**
     * The forks' temporary files under the build directory too, as the runner's (the pom's -Djava.io.tmpdir), and no
     * /tmp/hsperfdata_<user> file per fork (JMH reads no perf counter): {@code -jvmArgsPrepend}, unless the options
     * after {@code --} give their own. JMH splits that option's value at spaces, so with a space in the path the forks
     * keep the JDK's default.
     */
    static void forkTemporaryFiles(JmhArguments args, Path buildDir) throws IOException {
        Path tmp = buildDir.resolve(TMP).toAbsolutePath().normalize();
        Files.createDirectories(tmp);
        if (!tmp.toString().matches(".*\\s.*")) {
            args.option("-jvmArgsPrepend", "-XX:-UsePerfData -Djava.io.tmpdir=" + tmp);
        }
    }

    /** Each part's share of the default run: its lines, combinations and estimated time with the plan's settings. */
    private static String perLine(JmhArguments args, RunnerOptions opts) throws CommandLineOptionException {
        List<String> parts = new ArrayList<>();
        for (List<LineMethods> group : Headline.groups()) {
            List<String> argv = new ArrayList<>(List.of(Headline.include(group)));
            for (Map.Entry<String, String> p : Headline.PARAMS.entrySet()) {
                argv.addAll(List.of("-p", p.getKey() + "=" + p.getValue()));
            }
            int n = combinations(new CommandLineOptions(argv.toArray(new String[0])));
            double seconds = RunPlan.plan(n, args.given(), opts.get("jmh.forks"), opts.get("jmh.warmupIterations"),
                opts.get("jmh.warmupTime"), opts.get("jmh.iterations"), opts.get("jmh.time"), "").estimateSeconds();
            parts.add(Headline.releases(group) + ": " + n + " methods ~" + RunPlan.duration(seconds));
        }
        return String.join("; ", parts);
    }

    /** The JMH selection of a line's quotable run: exactly what its patches quote ({@link LineQuotes}). */
    static void lineSelection(LineQuotes quotes, JmhArguments args, RunnerOptions opts) {
        if (!blank(opts.get("jmh.include")) || !blank(opts.get("jmh.exclude")) || !blank(opts.get("jmh.params"))) {
            throw new IllegalArgumentException("-Djmh.line runs what the line's patches quote: give no -Djmh.include,"
                + " -Djmh.exclude or -Djmh.params with it");
        }
        if (args.givesSelection(quotes.params().keySet())) {
            throw new IllegalArgumentException("-Djmh.line runs what the line's patches quote: give no benchmark regexp,"
                + " -e or -p of " + String.join(", ", quotes.params().keySet()) + " after -- with it");
        }
        args.include(quotes.include());
        for (Map.Entry<String, java.util.Set<String>> p : quotes.params().entrySet()) {
            args.param(p.getKey(), String.join(",", p.getValue()));
        }
        rawArgs(args, opts);
    }

    /** The JMH arguments after {@code bin/hotpath jmh --}, from the file {@code -Djmh.argsFile} names; none without it. */
    private static List<String> passThrough(Map<String, String> maven, RunnerOptions opts) {
        String file = opts.get("jmh.argsFile").trim();
        return file.isEmpty() ? Collections.emptyList() : ArgsFile.read(executionRoot(maven).resolve(file));
    }

    /**
     * JMH's own queries after {@code --} ({@code -h}, {@code -l}, {@code -lp}, {@code -lprof}, {@code -lrf}), answered
     * as {@code org.openjdk.jmh.Main} answers them, which the runner replaces: nothing runs.
     */
    private static boolean answeredQuery(CommandLineOptions o) throws IOException, RunnerException {
        if (o.shouldHelp()) {
            o.showHelp();
        } else if (o.shouldList()) {
            new Runner(o).list();
        } else if (o.shouldListWithParams()) {
            new Runner(o).listWithParams(o);
        } else if (o.shouldListProfilers()) {
            o.listProfilers();
        } else if (o.shouldListResultFormats()) {
            o.listResultFormats();
        } else {
            return false;
        }
        return true;
    }

    /**
     * {@code -Djmh.line=<release> -Djmh.writeResults=<json>}: rewrites the Result section of every patch of the line
     * from that committed result file (no benchmark runs).
     */
    private static int writeResults(String line, Map<String, String> maven, Path projectRoot, RunnerOptions opts) throws IOException {
        Path file = writeResultsFile(line, maven, projectRoot, opts);
        String relative = projectRoot.relativize(file).toString().replace('\\', '/');
        JmhResults results = JmhResults.parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        Path lineDir = projectRoot.resolve("patches").resolve(line);
        for (Path p : PatchResults.rewrite(lineDir, LineQuotes.load(line), results, relative,
                ResultSection.command(file, line))) {
            System.out.println("hotpath-jmh: rewrote the Result of " + projectRoot.relativize(p) + " from " + relative);
        }
        return 0;
    }

    /** The result file {@code -Djmh.writeResults} names, when a Result may quote it: committable, in docs/results/. */
    private static Path writeResultsFile(String line, Map<String, String> maven, Path projectRoot, RunnerOptions opts) {
        if (line.isEmpty()) {
            throw new IllegalArgumentException("-Djmh.writeResults needs -Djmh.line=<release>: whose patches to rewrite");
        }
        Path file = executionRoot(maven).resolve(opts.get("jmh.writeResults").trim()).toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no result file " + file);
        }
        if (!file.startsWith(projectRoot.resolve(DOCS_RESULTS))) {
            throw new IllegalArgumentException("a Result quotes a file committed in " + DOCS_RESULTS + "/, not " + file
                + " (a line's run writes there with bin/hotpath jmh --line " + line + " --to-docs)");
        }
        return file;
    }

    private static Path executionRoot(Map<String, String> maven) {
        String root = maven.get("execution-root");
        return blank(root) ? Paths.get("").toAbsolutePath() : Paths.get(root);
    }

    /**
     * JMH refuses to start while another JMH run holds {@code <tmpdir>/jmh.lock} (the runner's tmpdir is
     * {@code jmh/target/tmp}, so: another run from this checkout); two runs at once would only measure each other. Wait
     * for it (up to 30 min) instead of failing.
     */
    private static void waitForOtherJmhRuns(PrintStream log) throws IOException, InterruptedException {
        Path lock = Paths.get(System.getProperty("java.io.tmpdir"), "jmh.lock");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        long nextNotice = 0;
        while (true) {
            try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock held = ch.tryLock()) {
                if (held != null) {
                    return; // released at once; JMH takes it right after
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalArgumentException("another JMH run has held " + lock + " for 30 min; stop it or retry later");
            }
            if (System.nanoTime() >= nextNotice) {
                log.println("hotpath-jmh: waiting for another JMH run on this machine to finish (" + lock + ")");
                nextNotice = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            }
            Thread.sleep(1000);
        }
    }

    /** -Djmh.include / exclude / params / args as JMH arguments: what to run, not how long. */
    static void selectionArgs(JmhArguments args, RunnerOptions opts) {
        args.include(blank(opts.get("jmh.include")) ? DEFAULT_INCLUDE : opts.get("jmh.include").trim());
        if (!blank(opts.get("jmh.exclude"))) {
            args.exclude(opts.get("jmh.exclude").trim());
        }
        // "corpus=small5 other=a,b" or "corpus=small5;other=a,b"
        for (String p : opts.get("jmh.params").trim().split("[\\s;]+")) {
            if (!p.isEmpty()) {
                int eq = p.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("-Djmh.params wants name=value[,value...], got '" + p + "'");
                }
                args.param(p.substring(0, eq), p.substring(eq + 1));
            }
        }
        rawArgs(args, opts);
    }

    /** -Djmh.args: further JMH options, whitespace-split (options after {@code --} keep their spaces). */
    private static void rawArgs(JmhArguments args, RunnerOptions opts) {
        // e.g. "-prof async:libPath=... -jvmArgsAppend -XX:+PrintCompilation"
        for (String s : opts.get("jmh.args").trim().split("\\s+")) {
            if (!s.isEmpty()) {
                args.raw(s);
            }
        }
    }

    /** Benchmark methods x parameter combinations x modes that JMH will run for these options. */
    static int combinations(CommandLineOptions o) {
        SortedSet<BenchmarkListEntry> entries = BenchmarkList.defaultList()
            .find(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), o.getIncludes(), o.getExcludes());
        int total = 0;
        for (BenchmarkListEntry e : entries) {
            int n = 1;
            if (e.getParams().hasValue()) {
                for (Map.Entry<String, String[]> p : e.getParams().get().entrySet()) {
                    n *= o.getParameter(p.getKey()).hasValue() ? o.getParameter(p.getKey()).get().size() : p.getValue().length;
                }
            }
            total += n * Math.max(1, o.getBenchModes().size());
        }
        return total;
    }

    private static String jmhTime(long millis) {
        return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
    }

    private static String command() {
        String hotpath = System.getenv("HOTPATH_JMH_COMMAND");
        String mvn = System.getenv("MAVEN_CMD_LINE_ARGS");
        String m = mvn == null ? null : "mvn " + mvn.trim();
        if (hotpath != null && !hotpath.isEmpty()) {
            return m == null ? hotpath : hotpath + "` -> `" + m;
        }
        return m;
    }

    private static Map<String, String> mavenArgs(String[] argv) {
        Map<String, String> m = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("unexpected argument '" + a + "', expected --name=value");
            }
            m.put(a.substring(2, eq), a.substring(eq + 1));
        }
        return m;
    }

    private static String required(Map<String, String> m, String key) {
        String v = m.get(key);
        if (blank(v)) {
            throw new IllegalArgumentException("missing --" + key + "=...");
        }
        return v;
    }

    private static boolean blank(String s) {
        return s == null || s.trim().isEmpty();
    }
}
