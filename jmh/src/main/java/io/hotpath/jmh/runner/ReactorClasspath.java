package io.hotpath.jmh.runner;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the benchmarks would measure this tree's sources. {@code mvn -pl jmh verify} builds every io.hotpath module
 * the benchmarks measure in the same reactor ({@code -am}, {@code .mvn/maven.config}), so their classes come from
 * {@code <module>/target/}. A jar from a Maven repository ({@code .../io/hotpath/<artifactId>/<version>/}) was built
 * from whatever sources were there when someone installed it, and nothing says they match today's: a run started
 * where the reactor does not reach (e.g. {@code cd jmh && mvn verify}) would quote stale code, so the runner refuses.
 */
final class ReactorClasspath {

    private ReactorClasspath() {
    }

    /**
     * The entries of {@code classPath} that are io.hotpath artifacts from a Maven repository, in order.
     *
     * @param classPath   a class path ({@link File#pathSeparator} between entries)
     * @param projectRoot the checkout's root; its own path is never read as a repository's ({@code /x/io/hotpath/...})
     */
    static List<String> repositoryCopies(String classPath, Path projectRoot) {
        Path root = projectRoot.toAbsolutePath().normalize();
        List<String> copies = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path path = Paths.get(entry).toAbsolutePath().normalize();
            Path inside = path.startsWith(root) ? root.relativize(path) : path;
            for (int i = 0; i + 1 < inside.getNameCount(); i++) {
                if (inside.getName(i).toString().equals("io") && inside.getName(i + 1).toString().equals("hotpath")) {
                    copies.add(entry);
                    break;
                }
            }
        }
        return copies;
    }
}
