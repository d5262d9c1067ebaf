package io.hotpath.lines;

import java.nio.file.Path;
import java.util.ArrayList;
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
 * pom's build section. Such a tree is not the release's own: every way it differs is written in the descriptor
 * ({@code tree.deviation.<name>=}), and a tree with no deviation listed is refused.
 *
 * @param archive    Maven coordinates of the source-release archive: the release's own, or the skeleton's
 * @param modules    the modules assembled from Central, in the descriptor's order; empty for a real source release
 * @param edits      a diff (file in the line folder) applied to the assembled tree before anything else, or null:
 *                   what the assembled tree needs to build at all (both trees get it; the patches come after)
 * @param deviations name -> how the tree differs from the release's own source, and why
 */
public record TreeSource(String archive, List<CentralModule> modules, String edits, Map<String, String> deviations) {

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
            return new TreeSource(expected, List.of(), null, Map.of());
        }
        String archive = skeleton.strip();
        if (!archive.matches("org\\.apache\\.rocketmq:rocketmq-all:[0-9][0-9A-Za-z.-]*:zip:source-release")) {
            throw new ReleaseLineException(file + ": tree.skeleton must be org.apache.rocketmq:rocketmq-all:<release>:zip:source-release,"
                + " got " + archive);
        }
        List<CentralModule> modules = new ArrayList<>();
        Map<String, String> deviations = new TreeMap<>();
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
        }
        if (deviations.isEmpty()) {
            throw new ReleaseLineException(file + ": an assembled tree differs from the release's own source: list how"
                + " (tree.deviation.<name>=...)");
        }
        String edits = p.getProperty("tree.edits");
        if (edits != null && (edits.isBlank() || edits.contains("/") || edits.strip().endsWith(".patch"))) {
            throw new ReleaseLineException(file + ": tree.edits must name a file of the line folder that is not a *.patch"
                + " (those are the shipped patches), got " + edits);
        }
        return new TreeSource(archive, List.copyOf(modules), edits == null ? null : edits.strip(), deviations);
    }

    static String archiveOf(String release) {
        return "org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release";
    }
}
