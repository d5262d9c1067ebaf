package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A distribution's lib/: the servers (rocketmq-namesrv, rocketmq-broker, rocketmq-tools) and their runtime
 * classpath as upstream's own build of one tree made and resolved them ({@link UpstreamMavenBuild}), checked
 * against what that build recorded.
 *
 * <p>Why from the tree and not from Maven Central: the distribution must be what a user's build of the
 * (patched) source release makes, and Central does not even have every server of every release (there is
 * no rocketmq-broker, rocketmq-namesrv or rocketmq-filter 4.9.8 jar on Central).
 *
 * <p>Every Apache RocketMQ jar carries {@code META-INF/DEPENDENCIES} (written by the Apache parent pom's
 * remote-resources step): the transitive dependencies of that module, with versions, as its build resolved
 * them. lib/ must be exactly the servers plus their recorded dependencies.
 */
public final class UpstreamLib {

    /** Server modules whose runtime classpath makes up lib/. */
    public static final List<String> SERVERS = List.of("namesrv", "broker", "tools");

    // "  - Netty/All-in-One (http://netty.io/netty-all/) io.netty:netty-all:jar:4.0.42.Final"
    private static final Pattern DEPENDENCY_LINE = Pattern.compile("^\\s+- .* (\\S+:\\S+)$");

    private final Path dir;
    private final String version;

    private UpstreamLib(Path dir, String version) {
        this.dir = dir;
        this.version = version;
    }

    public static UpstreamLib at(Path dir, String version) {
        if (!Files.isDirectory(dir)) {
            throw new DistBuildException("upstream classpath " + dir + " is missing (Maven's copy-dependencies did not run)");
        }
        return new UpstreamLib(dir, version);
    }

    /**
     * {@code dir}, where {@link UpstreamMavenBuild#copyRuntimeClasspath} put the servers' classpath, completed with
     * the servers' own jars from {@code tree}'s build and verified against their recorded dependencies.
     */
    public static UpstreamLib ofTree(Path tree, Path dir, String version) {
        UpstreamLib lib = at(dir, version);
        for (String server : SERVERS) {
            Path jar = tree.resolve(server).resolve("target").resolve(moduleJarName(server, version));
            if (!Files.isRegularFile(jar)) {
                throw new DistBuildException("upstream's build of " + tree + " made no " + server + "/target/" + jar.getFileName());
            }
            try {
                Files.copy(jar, dir.resolve(jar.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new DistBuildException("cannot copy " + jar + " into " + dir + ": " + e.getMessage());
            }
        }
        lib.verifyIsRecordedServerClasspath();
        return lib;
    }

    public Path dir() {
        return dir;
    }

    /** File names of all jars, sorted. */
    public List<String> jarNames() {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String moduleJarName(String module, String version) {
        return "rocketmq-" + module + "-" + version + ".jar";
    }

    /** The stock jar of an upstream module directory ({@code common} -> rocketmq-common-&lt;release&gt;.jar). */
    public Path moduleJar(String module) {
        Path jar = dir.resolve(moduleJarName(module, version));
        if (!Files.isRegularFile(jar)) {
            throw new DistBuildException("upstream module '" + module + "' has no " + jar.getFileName()
                + " on the broker classpath; a patch can only change modules the servers run");
        }
        return jar;
    }

    /** Fails unless lib/ holds exactly the servers and the dependencies their jars record. */
    public void verifyIsRecordedServerClasspath() {
        Set<String> expected = new TreeSet<>();
        for (String server : SERVERS) {
            Path jar = moduleJar(server);
            expected.add(jar.getFileName().toString());
            expected.addAll(recordedDependencies(jar));
        }
        Set<String> actual = new TreeSet<>(jarNames());
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        Set<String> unexpected = new TreeSet<>(actual);
        unexpected.removeAll(expected);
        if (!missing.isEmpty() || !unexpected.isEmpty()) {
            throw new DistBuildException("the resolved classpath in " + dir + " is not the one upstream " + version
                + " recorded in META-INF/DEPENDENCIES: missing " + missing + ", unexpected " + unexpected);
        }
    }

    /** The jars {@code <artifactId>-<version>-<classifier>.jar} in lib/, sorted. */
    private List<String> classifiedJars(String artifactId, String version) {
        String prefix = artifactId + "-" + version + "-";
        return jarNames().stream().filter(n -> n.startsWith(prefix)).toList();
    }

    /** Jar file names (artifactId-version.jar) listed in the jar's META-INF/DEPENDENCIES; each must be in lib/. */
    private List<String> recordedDependencies(Path jar) {
        String text;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry("META-INF/DEPENDENCIES");
            if (entry == null) {
                throw new DistBuildException(jar.getFileName() + " has no META-INF/DEPENDENCIES to take its classpath from");
            }
            text = new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot read " + jar + ": " + e.getMessage());
        }
        List<String> jars = new ArrayList<>();
        for (String line : text.split("\r?\n")) {
            Matcher m = DEPENDENCY_LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            // groupId:artifactId:type[:classifier]:version
            String[] gav = m.group(1).split(":");
            if (gav.length < 4) {
                continue;
            }
            String jarName = gav[1] + "-" + gav[gav.length - 1] + (gav.length == 5 ? "-" + gav[3] : "") + ".jar";
            if (Files.isRegularFile(dir.resolve(jarName))) {
                jars.add(jarName);
                continue;
            }
            // the file lists a dependency with a classifier without it (5.x's netty natives: one line per
            // osx-x86_64, osx-aarch_64, ...), so such a line stands for every classified jar of that version
            List<String> classified = gav.length == 4 ? classifiedJars(gav[1], gav[3]) : List.of();
            if (classified.isEmpty()) {
                throw new DistBuildException(jar.getFileName() + " records " + m.group(1) + " but " + dir
                    + " has no " + jarName + " (dependency mediation picked another version?)");
            }
            jars.addAll(classified);
        }
        if (jars.isEmpty() && text.contains(":jar:")) {
            throw new DistBuildException("could not parse META-INF/DEPENDENCIES of " + jar.getFileName());
        }
        return jars;
    }
}
