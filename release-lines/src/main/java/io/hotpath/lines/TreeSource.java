package io.hotpath.lines;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Where a line's upstream source tree comes from, as its descriptor says.
 *
 * <p>Either upstream's source-release archive of the release itself ({@code source.release=}, every line up to 5.3.3),
 * or, for a release Maven Central has no such archive of, a tree assembled from what Central does have
 * ({@code tree.skeleton=} and {@code tree.module.<dir>=}): each listed module's published pom (its dependency list)
 * and {@code -sources} jar (its main sources and resources), laid out in a skeleton archive of an older release that
 * gives what no jar ships: the root pom's build (plugins, checkstyle, SpotBugs), {@code style/}, and each module
 * pom's build section; and, since no jar ships tests either, the skeleton's own test classes a module lists
 * ({@code tree.tests.<dir>=}: the classes that compile against the release, their helpers included, with the module's
 * test resources). Such a tree is not the release's own: every way it differs is written in the descriptor
 * ({@code tree.deviation.<name>=}), and a tree with no deviation listed is refused.
 *
 * @param archive    Maven coordinates of the source-release archive: the release's own, or the skeleton's
 * @param modules    the modules assembled from Central, in the descriptor's order; empty for a real source release
 * @param edits      a diff (file in the line folder) applied to the assembled tree before anything else, or null:
 *                   what the assembled tree needs to build at all (both trees get it; the patches come after)
 * @param deviations name -> how the tree differs from the release's own source, and why
 * @param tests      module folder -> the skeleton's test classes (fully qualified) laid into that module; empty for a
 *                   real source release (its own tests are all there)
 * @param testEdits  a diff (file in the line folder) applied to the patched tree's skeleton tests after the patches, or
 *                   null ({@code tree.test.edits=}): where a skeleton test asserts what a patch changes (a stored
 *                   record's length), the edit a patch would carry for the release's own test. Not part of the shipped
 *                   patches: the release's own tests are on no Central artifact, so a hunk against the skeleton's copy
 *                   might not apply to a user's tree
 * @param untested   edited upstream main file ({@code <module>/src/main/java/...java}) -> why no skeleton test of it can
 *                   run on this tree ({@code tree.untested.<file>=})
 */
public record TreeSource(String archive, List<CentralModule> modules, String edits, Map<String, String> deviations,
                         Map<String, List<String>> tests, String testEdits, Map<String, String> untested) {

    /**
     * One module of an assembled tree.
     *
     * @param dir        its folder in the tree (upstream's: {@code tieredstore} for {@code rocketmq-tiered-store})
     * @param artifactId its artifact on Maven Central
     * @param version    the version its pom and sources come from
     */
    public record CentralModule(String dir, String artifactId, String version) {

        public String pom() {
            return "org.apache.rocketmq:" + artifactId + ":" + version + ":pom";
        }

        public String sources() {
            return "org.apache.rocketmq:" + artifactId + ":" + version + ":jar:sources";
        }
    }

    public boolean assembled() {
        return !modules.isEmpty();
    }

    /**
     * The version of {@link #archive}: the line's own release for a real source release, the skeleton's for an assembled
     * tree. So also the release whose unit tests the tree has (Central publishes no tests; an assembled tree's
     * {@code tree.tests.<dir>} are the skeleton's classes).
     */
    public String archiveVersion() {
        return archive.split(":")[2];
    }

    /** What a build fetches from Maven Central to have the tree: the archive, and each module's pom and sources. */
    public List<String> artifacts() {
        List<String> all = new ArrayList<>(List.of(archive));
        for (CentralModule m : modules) {
            all.add(m.pom());
            all.add(m.sources());
        }
        return all;
    }

    static TreeSource read(Properties p, Path file, String release) {
        String sourceRelease = p.getProperty("source.release");
        String skeleton = p.getProperty("tree.skeleton");
        if ((sourceRelease == null) == (skeleton == null)) {
            throw new ReleaseLineException(file + ": name the tree's source with exactly one of source.release (upstream's"
                + " source-release archive of the release) and tree.skeleton (a tree assembled from Maven Central)");
        }
        if (sourceRelease != null) {
            String expected = archiveOf(release);
            if (!sourceRelease.strip().equals(expected)) {
                throw new ReleaseLineException(file + ": source.release must be " + expected + ", got " + sourceRelease.strip());
            }
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith("tree.")) {
                    throw new ReleaseLineException(file + ": " + key + " describes an assembled tree, but the line builds"
                        + " upstream's source release (source.release)");
                }
            }
            return new TreeSource(expected, List.of(), null, Map.of(), Map.of(), null, Map.of());
        }
        String archive = skeleton.strip();
        if (!archive.matches("org\\.apache\\.rocketmq:rocketmq-all:[0-9][0-9A-Za-z.-]*:zip:source-release")) {
            throw new ReleaseLineException(file + ": tree.skeleton must be org.apache.rocketmq:rocketmq-all:<release>:zip:source-release,"
                + " got " + archive);
        }
        List<CentralModule> modules = new ArrayList<>();
        Map<String, String> deviations = new TreeMap<>();
        Map<String, List<String>> tests = new TreeMap<>();
        Map<String, String> untested = new TreeMap<>();
        // a properties file keeps no order: tree.modules gives the root pom's <modules>
        String order = p.getProperty("tree.modules");
        if (order == null || order.isBlank()) {
            throw new ReleaseLineException(file + ": an assembled tree needs tree.modules (its module folders)");
        }
        List<String> dirs = List.of(order.strip().split("[\\s,]+"));
        for (String dir : dirs) {
            String value = p.getProperty("tree.module." + dir);
            if (value == null || !value.strip().matches("rocketmq-[a-z-]+:[0-9][0-9A-Za-z.-]*")) {
                throw new ReleaseLineException(file + ": tree.module." + dir + " must be <artifactId>:<version>"
                    + " (e.g. rocketmq-common:" + release + "), got " + value);
            }
            String[] parts = value.strip().split(":");
            modules.add(new CentralModule(dir, parts[0], parts[1]));
        }
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("tree.module.") && !dirs.contains(key.substring("tree.module.".length()))) {
                throw new ReleaseLineException(file + ": " + key + " names a module that tree.modules does not list");
            }
            if (key.startsWith("tree.deviation.")) {
                deviations.put(key.substring("tree.deviation.".length()), p.getProperty(key).strip());
            }
            if (key.startsWith("tree.tests.")) {
                String dir = key.substring("tree.tests.".length());
                if (!dirs.contains(dir)) {
                    throw new ReleaseLineException(file + ": " + key + " names a module that tree.modules does not list");
                }
                List<String> classes = List.of(p.getProperty(key).strip().split("\\s+"));
                for (String c : classes) {
                    if (!c.matches("([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_]*")) {
                        throw new ReleaseLineException(file + ": " + key + " lists test classes by fully qualified name, got '" + c + "'");
                    }
                }
                tests.put(dir, classes);
            }
            if (key.startsWith("tree.untested.")) {
                String edited = key.substring("tree.untested.".length());
                if (!edited.matches("[a-z][a-z0-9-]*/src/main/java/.+\\.java") || p.getProperty(key).isBlank()) {
                    throw new ReleaseLineException(file + ": " + key + " must name <module>/src/main/java/<class>.java and say why"
                        + " no test of it runs");
                }
                untested.put(edited, p.getProperty(key).strip());
            }
        }
        if (deviations.isEmpty()) {
            throw new ReleaseLineException(file + ": an assembled tree differs from the release's own source: list how"
                + " (tree.deviation.<name>=...)");
        }
        String edits = lineFile(p, file, "tree.edits");
        String testEdits = lineFile(p, file, "tree.test.edits");
        if (testEdits != null && tests.isEmpty()) {
            throw new ReleaseLineException(file + ": tree.test.edits edits skeleton tests, but no tree.tests.<dir> lists any");
        }
        return new TreeSource(archive, List.copyOf(modules), edits, deviations, Collections.unmodifiableMap(tests), testEdits,
            Collections.unmodifiableMap(untested));
    }

    /** A diff file of the line folder named by {@code key}, or null; never a shipped {@code *.patch}. */
    private static String lineFile(Properties p, Path file, String key) {
        String name = p.getProperty(key);
        if (name != null && (name.isBlank() || name.contains("/") || name.strip().endsWith(".patch"))) {
            throw new ReleaseLineException(file + ": " + key + " must name a file of the line folder that is not a *.patch"
                + " (those are the shipped patches), got " + name);
        }
        return name == null ? null : name.strip();
    }

    static String archiveOf(String release) {
        return "org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release";
    }
}
