package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Recursive delete, copy and listing; the JDK has none of them. */
final class FileTrees {

    private FileTrees() {
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Regular files under {@code root}, as sorted '/'-separated relative paths. */
    static List<String> relativeFiles(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            List<String> files = new ArrayList<>();
            walk.filter(Files::isRegularFile).forEach(p -> files.add(root.relativize(p).toString().replace('\\', '/')));
            files.sort(null);
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Same relative files, same bytes, same executable bits. */
    static boolean sameFiles(Path a, Path b) {
        List<String> files = relativeFiles(a);
        if (!files.equals(relativeFiles(b))) {
            return false;
        }
        try {
            for (String name : files) {
                Path x = a.resolve(name);
                Path y = b.resolve(name);
                if (Files.isExecutable(x) != Files.isExecutable(y) || Files.mismatch(x, y) != -1) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void copyFile(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
