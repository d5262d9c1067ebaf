package io.hotpath.dist;

import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Builds a release line's stock and patched broker distributions the way a user who keeps their own
 * broker build does (run by Maven in broker-dist's process-classes phase; see broker-dist/pom.xml):
 *
 * <ol>
 *   <li>fetch upstream's source release from Maven Central (or the pieces a line's tree is assembled from:
 *       {@link SourceReleaseAssembly}), unpack it into a stock tree and a patched tree, and
 *       {@code git apply} the line's patches, in the order of its {@code series}, to the patched one;</li>
 *   <li>build the servers (namesrv, broker, tools) and every module they need with upstream's own Maven
 *       build on each tree, checkstyle included ({@link UpstreamMavenBuild}; nothing is installed into
 *       {@code ~/.m2}), and copy their runtime classpath as upstream's poms resolve it;</li>
 *   <li>optionally run upstream's own unit tests, every test of the line's tested modules on both trees
 *       ({@code --upstream-tests full}), or the test classes its descriptor lists for CI ({@code ci},
 *       {@code upstream.tests.ci.<module>}) on the patched tree and, on stock, those that did not pass there; and fail
 *       on any test that passes on stock and not on patched, and on the other failures {@link UpstreamTestReport} names;</li>
 *   <li>assemble {@code target/rocketmq-<release>-{stock,patched}/} from each tree's build: the same
 *       build of the same source, so the two distributions differ by the patches and nothing else.</li>
 * </ol>
 *
 * <p>Every failure ends in one {@code hotpath: error: ...} line on stderr and exit code 2.
 */
public final class BrokerDistBuilder {

    private static final List<String> OPTIONS = List.of(LineOption.LINE, "--flavor", "--upstream-tests", "--compile-tests",
        "--source-release", "--dist-template", "--target", "--store-home", "--maven-home", "--user-repository");
    /** Passes of {@link #rerunSkipCascade} at most: each is a Maven run of the skipped classes. */
    private static final int MAX_CASCADE_PASSES = 3;
    private static final String USAGE = "usage: BrokerDistBuilder " + String.join(" X ", OPTIONS) + " X";

    private final Map<String, String> options;
    private final ReleaseLine line;
    /** tree -> the distribution assembled from it, for {@link BuildOutcome} */
    private final Map<String, Path> assembled = new LinkedHashMap<>();
    private Path testReport;
    /** The classes run again after upstream's skip cascade, per tree and module ({@link #rerunSkipCascade}). */
    private final List<String> cascadeReruns = new ArrayList<>();
    /**
     * A targeted run's stock classes per module: the listed ones that did not pass on patched ({@link #runTests}); null
     * when the stock tree runs everything the patched tree runs.
     */
    private Map<String, List<String>> stockOnDemand;

    private BrokerDistBuilder(Map<String, String> options) {
        this.options = options;
        this.line = LineOption.folder(options.get(LineOption.LINE));
    }

    public static void main(String[] args) {
        Map<String, String> options = null;
        BrokerDistBuilder builder = null;
        String error = null;
        try {
            options = parse(args);
            builder = new BrokerDistBuilder(options);
            builder.build();
        } catch (DistBuildException | ReleaseLineException e) {
            error = e.getMessage();
        } catch (RuntimeException e) {
            error = "broker-dist builder failed unexpectedly: " + e;
            e.printStackTrace();
        }
        if (options != null && options.get("--target") != null && options.get(LineOption.LINE) != null) {
            // the caller (bin/hotpath build-broker) reads this record, not Maven's log; the release is the line folder's name
            String release = builder != null ? builder.line.release() : Path.of(options.get(LineOption.LINE)).getFileName().toString();
            new BuildOutcome(release, builder != null ? builder.assembled : Map.of(), builder != null ? builder.testReport : null, error)
                .write(Path.of(options.get("--target")).toAbsolutePath().normalize());
        }
        if (error != null) {
            System.err.println("hotpath: error: " + error);
            System.exit(2);
        }
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = Options.parse(args, OPTIONS,
            Map.of("--store-home", System.getProperty("user.home"), "--upstream-tests", "false", "--compile-tests", "true"), USAGE);
        // true: what callers passed before there was a targeted mode
        options.computeIfPresent("--upstream-tests", (k, v) -> v.equals("true") ? "full" : v);
        String flavor = options.get("--flavor");
        if (!List.of("stock", "patched", "both").contains(flavor)) {
            throw new DistBuildException("unknown flavor '" + flavor + "' (expected stock, patched or both)");
        }
        if (!List.of("full", "ci", "false").contains(options.get("--upstream-tests"))) {
            throw new DistBuildException("--upstream-tests must be full (or true), ci or false, got '"
                + options.get("--upstream-tests") + "'");
        }
        if (!List.of("true", "false").contains(options.get("--compile-tests"))) {
            throw new DistBuildException("--compile-tests must be true or false, got '" + options.get("--compile-tests") + "'");
        }
        if (!options.get("--upstream-tests").equals("false") && !flavor.equals("both")) {
            throw new DistBuildException("upstream's tests compare the stock and the patched tree: they need --flavor both");
        }
        return options;
    }

    private Path path(String option) {
        return Path.of(options.get(option)).toAbsolutePath().normalize();
    }

    private void build() {
        String release = line.release();
        String flavor = options.get("--flavor");
        String testMode = options.get("--upstream-tests");
        if (testMode.equals("full") && line.tree().assembled()) {
            // the listed classes are all the tests such a tree has; a targeted run also leaves out the stock.failure
            // methods, which surefire 2.19.1 cannot exclude from a full run (and whose failure would stop the module)
            System.out.println("hotpath: the " + release + " tree is assembled: its upstream tests are the skeleton's classes"
                + " upstream.tests.ci.* lists, run as listed");
            testMode = "ci";
        }
        boolean upstreamTests = !testMode.equals("false");
        Path target = path("--target");
        Path work = target.resolve("upstream").resolve(release);
        PatchSeries series = PatchSeries.read(line.dir());
        if (series.patches().isEmpty()) {
            throw new DistBuildException("no *.patch files in " + line.dir() + ": a patched distribution would equal stock");
        }
        List<String> trees = flavor.equals("both") ? List.of("stock", "patched") : List.of(flavor);
        // a private repository per tree: the trees install the same coordinates (org.apache.rocketmq:*:<release>), and
        // each tree's tests and runtime classpath must resolve its own build, also while the other tree builds
        Map<String, UpstreamMavenBuild> mavens = new LinkedHashMap<>();
        for (String tree : trees) {
            mavens.put(tree, new UpstreamMavenBuild(path("--maven-home"), line.buildProperties(), work.resolve("m2-" + tree),
                path("--user-repository"), work.resolve("logs")));
        }
        Set<String> modules = new LinkedHashSet<>(UpstreamLib.SERVERS);
        modules.addAll(series.modules());
        TestSelection selection = upstreamTests ? TestSelection.of(line, testMode.equals("ci")) : null;
        if (upstreamTests) {
            modules.addAll(selection.modules());
        }
        // upstream's tree as one archive, whether Central has it (a source release) or it is assembled from Central's pieces
        SourceReleaseAssembly.obtain(line, new UpstreamMavenBuild(path("--maven-home"), Map.of(), work.resolve("m2-fetch"),
            path("--user-repository"), work.resolve("logs")), work, path("--source-release"));
        Path excludes = writeExcludes(work);
        DistAssembler assembler = new DistAssembler(path("--dist-template"), target, release, options.get("--store-home"));

        // test sources: compiled by the test run when one follows, else by the install unless --compile-tests false
        boolean skipTestCompile = selection != null || options.get("--compile-tests").equals("false");
        Map<String, BuiltTree> built = buildConcurrently(trees, series, mavens, List.copyOf(modules), skipTestCompile, work);
        Map<String, Map<String, Map<String, SurefireReports.Outcome>>> outcomes = new LinkedHashMap<>();
        Map<String, Long> testSeconds = new LinkedHashMap<>();
        Map<String, Map<String, List<String>>> listed = new LinkedHashMap<>();
        Map<String, String> patchedFailureMessages = new LinkedHashMap<>();
        if (selection != null) {
            testSeconds.putAll(runTests(trees, built, mavens, selection, excludes));
        }
        for (String tree : trees) {
            outcomes.put(tree, readAndAssemble(tree, built.get(tree), mavens.get(tree), selection, work, assembler, listed, series));
            if (tree.equals("patched") && selection != null) {
                // the CI log is all one sees of a failure on another machine: carry surefire's reason into the report
                for (String module : selection.modules()) {
                    SurefireReports.failureMessages(built.get(tree).source().root().resolve(module))
                        .forEach((test, message) -> patchedFailureMessages.put(module + ": " + test, message));
                }
            }
        }
        if (upstreamTests) {
            UpstreamTestReport.Listed listedClasses = selection.targeted()
                ? new UpstreamTestReport.Listed(listed.get("stock"), listed.get("patched")) : UpstreamTestReport.Listed.NONE;
            UpstreamTestReport report = UpstreamTestReport.compare(release, outcomes.get("stock"), outcomes.get("patched"),
                selection.leftOut(line), line.knownFlaky(), listedClasses).withSeconds(testSeconds)
                .withFailureMessages(patchedFailureMessages).withCascadeReruns(cascadeReruns)
                .withTestsOf(line.tree().archiveVersion()).withStockScope(stockScope());
            report.write(work);
            testReport = work.resolve("upstream-tests.md");
            System.out.println(report.markdown());
            System.out.println("hotpath: upstream test report: " + work.resolve("upstream-tests.md"));
            if (!report.passed()) {
                throw new DistBuildException((report.newFailures().size() + report.missingReports().size())
                    + " upstream test verdict failure(s) (tests that do not pass on the patched tree, or reports missing), the first: "
                    + report.firstFailure() + " (all in " + work.resolve("upstream-tests.md") + ")");
            }
        }
    }

    /** What the report says of the stock tree's run: null when it ran everything the patched tree ran. */
    private String stockScope() {
        if (stockOnDemand == null) {
            return null;
        }
        List<String> classes = stockOnDemand.values().stream().flatMap(List::stream).toList();
        return "asked only about the listed classes that did not pass on the patched tree" + (classes.isEmpty()
            ? " (none: every one passed there, so no test can be a new failure)" : ": " + String.join(", ", classes));
    }

    /** A tree unpacked (and patched) and installed by upstream's build, with what BUILD-INFO.txt says of it so far. */
    private record BuiltTree(UpstreamTree source, List<String> buildInfo) {
    }

    /**
     * Unpacks, patches and builds the trees at the same time, one thread each: a tree's build is mostly one javac at a
     * time, so two trees on 2 cores take little more than one. The first failure stops the other build.
     */
    private Map<String, BuiltTree> buildConcurrently(List<String> trees, PatchSeries series, Map<String, UpstreamMavenBuild> mavens,
                                                     List<String> modules, boolean skipTestCompile, Path work) {
        ExecutorService pool = Executors.newFixedThreadPool(trees.size(), runnable -> {
            Thread thread = new Thread(runnable, "upstream-build");
            thread.setDaemon(true);
            return thread;
        });
        Map<String, Future<BuiltTree>> futures = new LinkedHashMap<>();
        try {
            for (String tree : trees) {
                futures.put(tree, pool.submit(() -> buildTree(tree, series, mavens.get(tree), modules, skipTestCompile, work)));
            }
            Map<String, BuiltTree> built = new LinkedHashMap<>();
            for (Map.Entry<String, Future<BuiltTree>> e : futures.entrySet()) {
                built.put(e.getKey(), e.getValue().get());
            }
            return built;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause
                : new DistBuildException("building the trees failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistBuildException("interrupted while building the trees");
        } finally {
            // interrupting a build's thread stops its Maven (UpstreamMavenBuild stops the process when interrupted)
            futures.values().forEach(f -> f.cancel(true));
            pool.shutdownNow();
        }
    }

    /** One tree: unpack the source release (and apply the patches to the patched tree), build it with upstream's build. */
    private BuiltTree buildTree(String tree, PatchSeries series, UpstreamMavenBuild maven, List<String> modules,
                                boolean skipTestCompile, Path work) {
        UpstreamTree source = UpstreamTree.unpack(path("--source-release"), line.release(), work.resolve(tree));
        List<String> buildInfo = new ArrayList<>();
        buildInfo.add("upstream.source=" + line.tree().archive() + " (Maven Central), built with upstream's Maven build");
        line.tree().modules().forEach(m -> buildInfo.add("upstream.source.module." + m.dir() + "=" + m.sources() + " + " + m.pom()));
        line.tree().deviations().forEach((name, why) -> buildInfo.add("upstream.source.deviation." + name + "=" + why));
        if (tree.equals("patched")) {
            int n = 0;
            for (PatchSeries.Patch patch : series.patches()) {
                source.apply(patch);
                n++;
                buildInfo.add("patch." + n + "=" + patch.name());
                buildInfo.add("patch." + n + ".sha256=" + patch.sha256());
                System.out.println("hotpath: applied " + patch.name() + " (" + patch.paths().size() + " files, modules "
                    + patch.modules() + ")");
            }
            if (line.tree().testEdits() != null) {
                source.applyTestEdits(line.dir().resolve(line.tree().testEdits()));
                buildInfo.add("upstream.tests.edits=" + line.tree().testEdits() + " (the skeleton's tests, as a patch would edit"
                    + " the release's own; not shipped)");
                System.out.println("hotpath: applied " + line.tree().testEdits() + " to the skeleton's tests");
            }
        }
        maven.install(source.root(), tree, modules, skipTestCompile, tree.equals("patched") ? List.copyOf(series.modules()) : List.of());
        return new BuiltTree(source, buildInfo);
    }

    /**
     * Upstream's tests on each tree, one tree after the other; returns each tree's seconds. Not at the same time: the
     * trees' tests bind the same fixed ports, and upstream's timing-based tests miss their sleeps when the machine is
     * busy (4.9.8's DLedgerCommitlogTest#testIPv6HostMsgCommittedPos failed on both trees, 2026-11-26, while another
     * build ran, and upstream's skipAfterFailureCount=1 then skipped the rest of the store module).
     *
     * <p>A targeted run starts with the patched tree and asks the stock tree only about the listed classes that did not
     * pass there ({@link #stockOnDemand}): the verdict only ever compares a test that does not pass on patched with stock,
     * so a class that passed on patched needs no stock run (5.5.1's listed classes: 274 s on stock in CI, 2026-11-30).
     * A full run runs both trees whole: its stock failures are many, and the report lists them.
     */
    private Map<String, Long> runTests(List<String> trees, Map<String, BuiltTree> built, Map<String, UpstreamMavenBuild> mavens,
                                       TestSelection selection, Path excludes) {
        Map<String, Long> seconds = new LinkedHashMap<>();
        if (!selection.targeted()) {
            for (String tree : trees) {
                seconds.put(tree, testTree(tree, built, mavens, selection, excludes));
            }
            return seconds;
        }
        seconds.put("patched", testTree("patched", built, mavens, selection, excludes));
        Path patchedRoot = built.get("patched").source().root();
        stockOnDemand = new LinkedHashMap<>();
        selection.presentIn(built.get("stock").source().root(), "stock").forEach((module, classes) -> {
            Map<String, SurefireReports.Outcome> onPatched = SurefireReports.read(patchedRoot.resolve(module));
            stockOnDemand.put(module, classes.stream().filter(c -> !passedAtFirstTry(onPatched, c)).toList());
        });
        TestSelection stockSelection = selection.only(stockOnDemand);
        if (stockSelection.classes().isEmpty()) {
            System.out.println("hotpath: upstream's tests: every listed class passed on the patched tree, so none needs the stock"
                + " tree's answer");
            seconds.put("stock", 0L);
            return seconds;
        }
        System.out.println("hotpath: upstream's tests: the stock tree runs the listed classes that did not pass on patched: "
            + stockSelection.classes());
        seconds.put("stock", testTree("stock", built, mavens, stockSelection, excludes));
        return seconds;
    }

    /** Upstream's tests of {@code selection} on one tree, then the skip cascade's reruns; returns the seconds both took. */
    private long testTree(String tree, Map<String, BuiltTree> built, Map<String, UpstreamMavenBuild> mavens, TestSelection selection,
                          Path excludes) {
        Path root = built.get(tree).source().root();
        long spent = mavens.get(tree).test(root, tree, selection.modules(), excludes, selection.surefireTests());
        return spent + rerunSkipCascade(tree, root, mavens.get(tree), selection, excludes);
    }

    /** Whether {@code testClass} ran and every test of it passed at the first try (a rerun pass needs stock's answer too). */
    static boolean passedAtFirstTry(Map<String, SurefireReports.Outcome> outcomes, String testClass) {
        List<SurefireReports.Outcome> ran = SurefireReports.ofClass(outcomes, testClass);
        return !ran.isEmpty() && ran.stream().allMatch(o -> o == SurefireReports.Outcome.PASSED);
    }

    /**
     * Runs again, alone, the classes {@link SkipCascade} finds skipped after a module's first failure on this tree,
     * until none is left or a pass leaves the same ones skipped (a class that fails on its own stops the classes after
     * it again); each pass is listed in the report. Returns the seconds the passes took.
     */
    private long rerunSkipCascade(String tree, Path root, UpstreamMavenBuild maven, TestSelection selection, Path excludes) {
        long spent = 0;
        Map<String, List<String>> previous = Map.of();
        for (int pass = 1; pass <= MAX_CASCADE_PASSES; pass++) {
            Map<String, List<String>> skipped = new LinkedHashMap<>();
            for (String module : selection.modules()) {
                List<String> classes = SkipCascade.skippedAfterFailure(SurefireReports.read(root.resolve(module)));
                if (!classes.isEmpty()) {
                    skipped.put(module, classes);
                }
            }
            if (skipped.isEmpty() || skipped.equals(previous)) {
                break;
            }
            skipped.forEach((module, classes) -> cascadeReruns.add(tree + ": " + module + ": " + String.join(", ", classes)
                + " skipped after a failure (upstream's skipAfterFailureCount=1), run again alone"));
            System.out.println("hotpath: " + tree + " tree: " + skipped + " were skipped after a failure"
                + " (upstream's skipAfterFailureCount=1): running them again, alone");
            List<String> tests = new ArrayList<>();
            skipped.values().forEach(tests::addAll);
            // the descriptor's method exclusions still apply to a class run again
            selection.surefireTests().stream().filter(pattern -> pattern.startsWith("!")).forEach(tests::add);
            spent += maven.test(root, tree, List.copyOf(skipped.keySet()), excludes, tests);
            previous = skipped;
        }
        return spent;
    }

    /**
     * One built tree: the outcomes of upstream's tests that ran on it (empty without tests), then its distribution
     * assembled.
     */
    private Map<String, Map<String, SurefireReports.Outcome>> readAndAssemble(String tree, BuiltTree built, UpstreamMavenBuild maven,
                                                                            TestSelection selection, Path work, DistAssembler assembler,
                                                                            Map<String, Map<String, List<String>>> listed,
                                                                            PatchSeries series) {
        String release = line.release();
        UpstreamTree source = built.source();
        List<String> buildInfo = new ArrayList<>(built.buildInfo());
        Map<String, Map<String, SurefireReports.Outcome>> outcomes = new LinkedHashMap<>();
        if (selection != null) {
            listed.put(tree, tree.equals("stock") && stockOnDemand != null ? stockOnDemand : selection.presentIn(source.root(), tree));
            for (String module : selection.modules()) {
                outcomes.put(module, SurefireReports.read(source.root().resolve(module)));
            }
        }
        Path libDir = work.resolve(tree + "-lib");
        maven.copyRuntimeClasspath(source.root(), tree, UpstreamLib.SERVERS, libDir);
        UpstreamLib lib = UpstreamLib.ofTree(source.root(), libDir, release);
        int n = 0;
        for (String module : series.modules()) {
            // the jars the patches change, by name and digest; lib.moduleJar fails if the servers do not run the module
            Path jar = lib.moduleJar(module);
            n++;
            buildInfo.add("rebuilt." + n + "=lib/" + jar.getFileName());
            buildInfo.add("rebuilt." + n + ".sha256=" + Digests.sha256(jar));
        }
        Path dist = assembler.assemble(tree, lib, buildInfo);
        assembled.put(tree, dist);
        System.out.println("hotpath: " + tree + " distribution: " + (tree.equals("stock") ? "  " : "") + dist);
        return outcomes;
    }

    /**
     * Surefire excludes for the tests the line's descriptor lists as failing on the stock tree here:
     * upstream's surefire stops a module at its first failure ({@code skipAfterFailureCount=1}), so a
     * known stock failure left in would hide every test after it, on both trees.
     */
    private Path writeExcludes(Path work) {
        Path file = work.resolve("stock-failures.excludes");
        StringBuilder text = new StringBuilder();
        // whole classes only: surefire 2.19.1 refuses a method filter in an excludes file (see TestSelection)
        line.stockFailures().keySet().stream().filter(test -> !test.contains("#"))
            .forEach(test -> text.append("**/").append(test.replace('.', '/')).append(".java\n"));
        try {
            Files.createDirectories(work);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot write " + file + ": " + e.getMessage());
        }
        return file;
    }
}
