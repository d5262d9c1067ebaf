package io.hotpath.sourcecheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** Upstream's Java sources, read from the archives Maven copied from Central (source releases, -sources jars). */
final class UpstreamSources {

    private UpstreamSources() {
    }

    /** The archives under {@code dir}: the *.zip source releases and *-sources.jar files. */
    static List<Path> archives(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith("-source-release.zip") || p.toString().endsWith("-sources.jar"))
                .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls {@code visit} with "archive!path" and the text of each .java file in {@code archive}. */
    static int forEachJavaFile(Path archive, BiConsumer<String, String> visit) {
        int count = 0;
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            List<ZipEntry> entries = new ArrayList<>();
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements();) {
                ZipEntry entry = e.nextElement();
                if (!entry.isDirectory() && entry.getName().endsWith(".java")) {
                    entries.add(entry);
                }
            }
            for (ZipEntry entry : entries) {
                try (InputStream in = zip.getInputStream(entry)) {
                    visit.accept(archive.getFileName() + "!" + entry.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    count++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(archive.toString(), e);
        }
        return count;
    }
}
