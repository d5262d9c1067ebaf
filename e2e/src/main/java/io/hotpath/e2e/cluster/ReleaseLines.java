package io.hotpath.e2e.cluster;

import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The release lines of this checkout: a line is a folder {@code patches/<release>/} with a descriptor
 * {@link #DESCRIPTOR} that says {@code release=<release>}. The smoke, the campaign and the profiler pick their
 * broker distributions ({@code broker-dist/target/rocketmq-<release>-<flavor>/}) by line: {@code --line}, or by
 * default the newest line, versions compared numerically (4.9.10 is newer than 4.9.8).
 */
public final class ReleaseLines {

    public static final String DESCRIPTOR = "line.properties";
    /** Numeric, part by part; a missing part counts as 0, so 4.9 and 4.9.0 are the same release. */
    public static final Comparator<String> VERSION_ORDER = ReleaseLines::compareVersions;

    private ReleaseLines() {
    }

    /** Every release that has a descriptor, oldest first. */
    public static List<String> list(Path projectRoot) {
        Path patches = projectRoot.resolve("patches");
        if (!Files.isDirectory(patches)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(patches)) {
            return dirs.filter(dir -> Files.isRegularFile(dir.resolve(DESCRIPTOR)))
                    .map(dir -> dir.getFileName().toString())
                    .filter(release -> release.matches("\\d+(\\.\\d+)*"))
                    .sorted(VERSION_ORDER).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + patches, e);
        }
    }

    /** The newest line; fails with one line when the checkout has none. */
    public static String newest(Path projectRoot) {
        List<String> lines = list(projectRoot);
        if (lines.isEmpty()) {
            throw new UsageException("no release line in " + projectRoot.resolve("patches")
                    + " (a line is patches/<release>/" + DESCRIPTOR + " with release=<release>)");
        }
        return lines.get(lines.size() - 1);
    }

    /**
     * {@code requested} when it is a known line, the newest line when it is null; an unknown line is one
     * line naming the known ones. The descriptor must name its own folder.
     */
    public static String resolve(String requested, Path projectRoot) {
        String line = requested == null ? newest(projectRoot) : requested;
        List<String> known = list(projectRoot);
        if (!known.contains(line)) {
            throw new UsageException("unknown release line '" + line + "'; known lines: "
                    + (known.isEmpty() ? "none" : String.join(", ", known)) + " (patches/<release>/" + DESCRIPTOR + ")");
        }
        Path descriptor = projectRoot.resolve("patches").resolve(line).resolve(DESCRIPTOR);
        String declared = descriptor(descriptor).getProperty("release");
        if (!line.equals(declared)) {
            throw new UsageException(descriptor + " says release=" + declared + ", not " + line);
        }
        return line;
    }

    /** Where bin/hotpath build-broker puts the {@code flavor} distribution of {@code release}. */
    public static Path distributionHome(Path projectRoot, String release, String flavor) {
        return projectRoot.resolve("broker-dist/target/rocketmq-" + release + "-" + flavor).normalize();
    }

    static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            long u = i < x.length ? Long.parseLong(x[i]) : 0;
            long v = i < y.length ? Long.parseLong(y[i]) : 0;
            if (u != v) {
                return Long.compare(u, v);
            }
        }
        return 0;
    }

    private static Properties descriptor(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return properties;
    }
}
