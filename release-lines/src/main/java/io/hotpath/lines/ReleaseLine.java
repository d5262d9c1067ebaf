package io.hotpath.lines;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One release line: {@code patches/<release>/} with its patch files and its descriptor
 * {@code line.properties}. Everything the tooling knows about a release comes from here, so that
 * adding a line is a folder and a descriptor, not a change to the tools. Every tool reads lines through
 * this class: broker-dist (builds and patches a line), e2e and profiling (run a line's distributions).
 *
 * @param release             the upstream release the patches apply to
 * @param dir                 {@code patches/<release>/}
 * @param tree                where upstream's source tree comes from: the release's source-release archive, or a tree
 *                            assembled from Maven Central's poms and {@code -sources} jars (with its deviations)
 * @param oracleVersion       the version of the org.apache.rocketmq jars the line's suites compare with
 * @param testedModules       upstream modules whose own unit tests run on the stock and patched trees
 * @param stockFailures       upstream tests (class name) that fail on the stock tree here, with the reason;
 *                            broker-dist leaves them out of both upstream test runs
 * @param carries             patch file name -> what it carries from our modules
 * @param buildProperties     {@code -D} properties every run of upstream's Maven build on this line's trees gets
 *                            ({@code upstream.build.property.<name>=<value>}), each with its reason in the descriptor:
 *                            what it takes to build the release with this environment's JDK
 * @param complete            false while the line ships only some of its patches ({@code complete=false}):
 *                            it is built and tested, but a command that runs one line by default runs the
 *                            newest complete one, and the end-to-end checks (which assert every patch) refuse it
 * @param ciTests             module -> the upstream test classes (fully qualified) CI runs of it on both trees
 *                            ({@code upstream.tests.ci.<module>}): those that exercise what the patches change
 * @param testsOfEditedFiles  upstream main file a patch edits ({@code <module>/src/main/java/...java}) -> the listed
 *                            test classes that exercise it ({@code upstream.tests.exercising.<file>})
 * @param knownFlaky          upstream test ({@code Class} or {@code Class#method}) -> why it may pass only when
 *                            surefire reruns it ({@code upstream.tests.known.flaky.<test>}); a rerun-only pass on the
 *                            patched tree fails the verdict unless the test is listed here or needed a rerun on stock too
 * @param upstreamTestsOutsideCi why CI does not run this line's upstream tests (they run in build-broker), when it does not
 *                            ({@code upstream.tests.outside.ci}): CI's hour has room for the default line's and the
 *                            newest lines', not for every line's
 */
public record ReleaseLine(String release, Path dir, TreeSource tree, String oracleVersion,
                          List<String> testedModules, Map<String, String> stockFailures,
                          Map<String, Carried> carries, Map<String, String> buildProperties, boolean complete,
                          Map<String, List<String>> ciTests, Map<String, List<String>> testsOfEditedFiles,
                          Map<String, String> knownFlaky, Optional<String> upstreamTestsOutsideCi) {

    public static final String DESCRIPTOR = "line.properties";

    /**
     * Files a patch adds to an upstream module, copied byte for byte from one of our modules:
     * {@code <upstreamModule>/src/main/java/<file>} is {@code <ourModule>/src/main/java/<file>}.
     */
    public record Carried(String upstreamModule, String ourModule, List<String> files) {

        public String upstreamPath(String file) {
            return upstreamModule + "/src/main/java/" + file;
        }

        public Path ourSource(Path projectRoot, String file) {
            return projectRoot.resolve(ourModule).resolve("src/main/java").resolve(file);
        }
    }

    /** Reads {@code dir/line.properties}; the folder name must be the release it declares. */
    public static ReleaseLine load(Path dir) {
        Path file = dir.resolve(DESCRIPTOR);
        if (!Files.isRegularFile(file)) {
            throw new ReleaseLineException("no release line at " + dir + " (" + DESCRIPTOR + " missing)");
        }
        Properties p = new Properties() {
            // Properties keeps the last of two equal keys without a word: a second entry would hide the first
            @Override
            public synchronized Object put(Object key, Object value) {
                if (containsKey(key)) {
                    throw new ReleaseLineException(file + ": " + key + " is set twice");
                }
                return super.put(key, value);
            }
        };
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (IOException e) {
            throw new ReleaseLineException("cannot read " + file + ": " + e.getMessage());
        }
        String release = required(p, file, "release");
        if (!dir.getFileName().toString().equals(release)) {
            throw new ReleaseLineException(file + " declares release=" + release + " but lives in folder "
                + dir.getFileName() + "; the folder must be named after the release");
        }
        TreeSource tree = TreeSource.read(p, file, release);
        String oracle = required(p, file, "oracle");
        if (!oracle.startsWith("org.apache.rocketmq:")) {
            throw new ReleaseLineException(file + ": oracle must be org.apache.rocketmq:<version>, got " + oracle);
        }
        // an assembled tree has only the tests it takes from its skeleton (Central publishes no test sources) and those its
        // patches add: every module the descriptor lists skeleton test classes for is tested, and a tested module without
        // them runs only what a patch adds, which upstream.tests.ci.<module> must then name (checked below)
        String testedList = tree.assembled() ? p.getProperty("upstream.tests.modules", "") : required(p, file, "upstream.tests.modules");
        List<String> tested = Arrays.stream(testedList.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        if (tree.assembled() && !tested.containsAll(tree.tests().keySet())) {
            throw new ReleaseLineException(file + ": an assembled tree's upstream.tests.modules must list every module tree.tests.<dir>"
                + " gives test classes for: " + tested + " vs " + tree.tests().keySet());
        }
        for (String module : tested) {
            if (tree.assembled() && !tree.tests().containsKey(module) && p.getProperty("upstream.tests.ci." + module) == null) {
                throw new ReleaseLineException(file + ": upstream.tests.modules lists " + module + ", which has no skeleton tests"
                    + " (tree.tests." + module + "): upstream.tests.ci." + module + " must name the tests a patch adds there");
            }
        }

        Map<String, String> stockFailures = new TreeMap<>();
        Map<String, Carried> carries = new LinkedHashMap<>();
        Map<String, String> buildProperties = new TreeMap<>();
        Map<String, List<String>> ciTests = new LinkedHashMap<>();
        Map<String, List<String>> testsOfEditedFiles = new TreeMap<>();
        Map<String, String> knownFlaky = new TreeMap<>();
        for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
            if (key.startsWith("upstream.build.property.")) {
                buildProperties.put(key.substring("upstream.build.property.".length()), p.getProperty(key).strip());
            } else if (key.startsWith("stock.failure.")) {
                stockFailures.put(key.substring("stock.failure.".length()), p.getProperty(key).strip());
            } else if (key.startsWith("carries.")) {
                carries.put(key.substring("carries.".length()), parseCarried(file, key, p.getProperty(key)));
            } else if (key.startsWith("upstream.tests.exercising.")) {
                testsOfEditedFiles.put(key.substring("upstream.tests.exercising.".length()), classes(file, key, p.getProperty(key)));
            } else if (key.startsWith("upstream.tests.known.flaky.")) {
                knownFlaky.put(key.substring("upstream.tests.known.flaky.".length()), required(p, file, key));
            }
        }
        // in the order of upstream.tests.modules, which is the order upstream's reactor tests them in
        for (String module : tested) {
            String key = "upstream.tests.ci." + module;
            if (p.getProperty(key) != null) {
                ciTests.put(module, classes(file, key, p.getProperty(key)));
            }
        }
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("upstream.tests.ci.") && !ciTests.containsKey(key.substring("upstream.tests.ci.".length()))) {
                throw new ReleaseLineException(file + ": " + key + " names a module that upstream.tests.modules does not list");
            }
        }
        String complete = p.getProperty("complete", "true").strip();
        if (!complete.equals("true") && !complete.equals("false")) {
            throw new ReleaseLineException(file + ": complete must be true or false, got " + complete);
        }
        return new ReleaseLine(release, dir, tree, oracle.substring("org.apache.rocketmq:".length()),
            tested, stockFailures, carries, buildProperties, Boolean.parseBoolean(complete), ciTests, testsOfEditedFiles,
            knownFlaky, Optional.ofNullable(p.getProperty("upstream.tests.outside.ci")).map(String::strip));
    }

    /** Fully qualified test class names, separated by spaces or commas. */
    private static List<String> classes(Path file, String key, String value) {
        List<String> classes = Arrays.stream(value.split("[\\s,]+")).filter(s -> !s.isEmpty()).toList();
        if (classes.isEmpty()) {
            throw new ReleaseLineException(file + ": " + key + " names no test class");
        }
        for (String c : classes) {
            if (!c.matches("([a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_]*")) {
                throw new ReleaseLineException(file + ": " + key + ": '" + c + "' is not a fully qualified class name");
            }
        }
        return classes;
    }

    /** {@code <upstream module> <- <our module> : <file> <file> ...} */
    private static Carried parseCarried(Path file, String key, String value) {
        int arrow = value.indexOf("<-");
        int colon = value.indexOf(':');
        if (arrow < 0 || colon < arrow) {
            throw new ReleaseLineException(file + ": " + key + " must read '<upstream module> <- <our module> : <files>'");
        }
        List<String> files = Arrays.stream(value.substring(colon + 1).strip().split("\\s+"))
            .filter(s -> !s.isEmpty()).toList();
        if (files.isEmpty()) {
            throw new ReleaseLineException(file + ": " + key + " names no file");
        }
        return new Carried(value.substring(0, arrow).strip(), value.substring(arrow + 2, colon).strip(), files);
    }

    private static String required(Properties p, Path file, String key) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new ReleaseLineException(file + ": missing " + key);
        }
        return value.strip();
    }

    /** The file that orders a line's patches. */
    public static final String SERIES = "series";

    /**
     * The line's patch files in the order they apply, as its {@code series} file lists them (quilt's format: one file
     * name per line, {@code #} comments). The series must name every {@code *.patch} file of the folder once and nothing
     * else: a patch left out of it would silently not ship.
     */
    public List<Path> patchFiles() {
        return series(dir);
    }

    /** {@link #patchFiles} of a folder that need not hold a descriptor. */
    public static List<Path> series(Path dir) {
        Path series = dir.resolve(SERIES);
        if (!Files.isRegularFile(series)) {
            throw new ReleaseLineException(series + " is missing: it lists the line's patches in the order they apply");
        }
        List<String> lines;
        List<String> present;
        try (Stream<Path> list = Files.list(dir)) {
            lines = Files.readAllLines(series, StandardCharsets.UTF_8);
            present = list.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".patch")).sorted().toList();
        } catch (IOException e) {
            throw new ReleaseLineException("cannot read " + series + ": " + e.getMessage());
        }
        List<String> names = new ArrayList<>();
        for (String line : lines) {
            String name = (line.indexOf('#') >= 0 ? line.substring(0, line.indexOf('#')) : line).strip();
            if (name.isEmpty()) {
                continue;
            }
            if (!name.endsWith(".patch") || name.contains("/") || name.contains(" ")) {
                throw new ReleaseLineException(series + ": '" + name + "' is not a patch file name of this folder");
            }
            if (names.contains(name)) {
                throw new ReleaseLineException(series + " lists " + name + " twice");
            }
            if (!present.contains(name)) {
                throw new ReleaseLineException(series + " names " + name + ", which is not in " + dir);
            }
            names.add(name);
        }
        for (String name : present) {
            if (!names.contains(name)) {
                throw new ReleaseLineException(dir.resolve(name) + " is not in " + series
                    + ": add it there (the series is the order the patches are applied in)");
            }
        }
        if (names.isEmpty()) {
            throw new ReleaseLineException(series + " lists no patch");
        }
        return names.stream().map(dir::resolve).toList();
    }

    /** Every line under {@code patchesRoot}, oldest release first. */
    public static List<ReleaseLine> all(Path patchesRoot) {
        List<ReleaseLine> lines = new ArrayList<>();
        if (!Files.isDirectory(patchesRoot)) {
            return lines;
        }
        try (Stream<Path> dirs = Files.list(patchesRoot)) {
            for (Path dir : dirs.filter(d -> Files.isRegularFile(d.resolve(DESCRIPTOR))).toList()) {
                lines.add(load(dir));
            }
        } catch (IOException e) {
            throw new ReleaseLineException("cannot list release lines in " + patchesRoot + ": " + e.getMessage());
        }
        lines.sort(Comparator.comparing(ReleaseLine::release, ReleaseLine::compareVersions));
        return lines;
    }

    /**
     * The newest complete line under {@code patchesRoot}: what a command runs when it is not told which. A partial
     * line ({@code complete=false}) is never the default: its patches do not yet make the broker the other lines make.
     */
    public static ReleaseLine newest(Path patchesRoot) {
        List<ReleaseLine> lines = all(patchesRoot);
        if (lines.isEmpty()) {
            throw new ReleaseLineException("no release line in " + patchesRoot + " (a line is <release>/" + DESCRIPTOR + ")");
        }
        List<ReleaseLine> complete = lines.stream().filter(ReleaseLine::complete).toList();
        if (complete.isEmpty()) {
            throw new ReleaseLineException("no complete release line in " + patchesRoot + " (every line says complete=false)");
        }
        return complete.get(complete.size() - 1);
    }

    /**
     * The line named {@code release} (partial or not), or the newest complete one when it is null; an unknown line names
     * the known ones. A command's {@code --line} goes through {@link LineOption}, which adds whether it takes a partial line.
     */
    public static ReleaseLine resolve(String release, Path patchesRoot) {
        if (release == null) {
            return newest(patchesRoot);
        }
        if (!Files.isRegularFile(patchesRoot.resolve(release).resolve(DESCRIPTOR))) {
            throw new ReleaseLineException("unknown release line '" + release + "'; known lines: "
                + String.join(", ", all(patchesRoot).stream().map(ReleaseLine::release).toList())
                + " (patches/<release>/" + DESCRIPTOR + ")");
        }
        return load(patchesRoot.resolve(release));
    }

    /** Numeric, part by part: 4.9.10 after 4.9.8, 5.3.3 after 4.9.8; a missing part counts as 0. */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String u = i < x.length ? x[i] : "0";
            String v = i < y.length ? y[i] : "0";
            int c = u.matches("\\d+") && v.matches("\\d+") ? Long.compare(Long.parseLong(u), Long.parseLong(v)) : u.compareTo(v);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
