package io.hotpath.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Upstream classes that no Maven repository has as a jar (rocketmq-broker and rocketmq-filter 4.9.8), compiled from
 * Maven Central's source-release zip: the named modules' {@code src/main/java} unpacked verbatim, and javac compiles,
 * through {@code -sourcepath}, only the root classes and what they reference, against the given class path, with
 * {@code -source/-target 1.8} as upstream's build does. Nothing of ours is in these classes.
 */
public final class SourceReleaseClasses {

    private SourceReleaseClasses() {
    }

    /**
     * Compiles into {@code root}/classes (deleting what {@code root} held) and returns that directory.
     *
     * @param top the zip's top folder, e.g. {@code rocketmq-all-4.9.8/}
     * @param roots class files to start from, e.g. {@code org/apache/rocketmq/broker/BrokerController}, in {@code modules.get(0)}
     */
    public static Path compile(Path zip, String top, List<String> modules, List<String> roots, List<Path> classpath, Path root) {
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException(zip + " is missing: the module's build copies it from Maven Central (generate-test-resources)");
        }
        Path sources = root.resolve("src");
        Path out = root.resolve("classes");
        try {
            deleteTree(root);
            List<String> sourcepath = unpack(zip, top, modules, sources);
            Files.createDirectories(out);
            List<String> files = roots.stream()
                .map(type -> sources.resolve(modules.get(0) + "/src/main/java/" + type + ".java").toString()).toList();
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            StringWriter diagnostics = new StringWriter();
            try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, null)) {
                boolean ok = javac.getTask(diagnostics, fileManager, null,
                    List.of("-d", out.toString(), "-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
                        "-sourcepath", String.join(File.pathSeparator, sourcepath), "-source", "1.8", "-target", "1.8",
                        "-proc:none", "-encoding", "UTF-8", "-nowarn", "-Xlint:-options"),
                    null, fileManager.getJavaFileObjectsFromStrings(files)).call();
                if (!ok) {
                    throw new IllegalStateException(modules + " do not compile from " + zip + ":\n" + diagnostics);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each module's {@code src/main/java}, as it is in the zip; returns the source roots. */
    private static List<String> unpack(Path zip, String top, List<String> modules, Path into) throws IOException {
        List<String> roots = new ArrayList<>();
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            for (String module : modules) {
                String prefix = top + module + "/src/main/java/";
                roots.add(into.resolve(module + "/src/main/java").toString());
                for (ZipEntry entry : archive.stream().filter(e -> e.getName().startsWith(prefix) && !e.isDirectory()).toList()) {
                    Path file = into.resolve(entry.getName().substring(top.length()));
                    Files.createDirectories(file.getParent());
                    try (InputStream in = archive.getInputStream(entry)) {
                        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        return roots;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
