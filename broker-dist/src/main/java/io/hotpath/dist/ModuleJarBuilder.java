package io.hotpath.dist;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles one patched upstream module, all of its sources, and jars it as a drop-in for the
 * stock {@code rocketmq-<module>-<version>.jar}.
 *
 * <p>{@code javac --release 8}: the broker must still run on Java 8, and --release (unlike
 * -source/-target) also checks that only Java 8 APIs are used. The classpath is the module's own
 * recorded dependencies ({@link UpstreamLib#moduleClasspath}), plus, for modules that import JDK
 * internals that --release 8 does not describe (rocketmq-store's sun.nio.ch.DirectBuffer), those
 * class files at compile time only ({@link JdkInternals}).
 *
 * <p>The jar keeps the stock jar's generated META-INF files (LICENSE, NOTICE, DEPENDENCIES, maven
 * pom) and manifest, adds {@code Hotpath-Patches} to the manifest, and is reproducible: sorted
 * entries with one fixed timestamp, so the same sources and patches give the same sha256.
 * It must contain every entry of the stock jar: a class that did not come out of the sources jar
 * would otherwise only be missed at run time.
 */
public final class ModuleJarBuilder {

    /** Timestamp of every entry: the rocketmq-all 4.9.0 release day, stable across builds. */
    private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2021, 6, 10, 0, 0);

    private final UpstreamLib lib;
    private final Path workDir;

    public ModuleJarBuilder(UpstreamLib lib, Path workDir) {
        this.lib = lib;
        this.workDir = workDir;
    }

    /** Compiles and jars {@code module} from the tree; returns the rebuilt jar. */
    public Path build(UpstreamSourceTree tree, String module, List<PatchSeries.Patch> patches) {
        return build(tree, module, patches, java.util.Map.of());
    }

    /**
     * As {@link #build(UpstreamSourceTree, String, List)}, compiling against {@code rebuilt} (lib/ jar
     * name -> rebuilt jar) in place of those stock jars: a patched module that calls what a patch added
     * to another patched module (broker -> store) must see the patched dependency.
     */
    public Path build(UpstreamSourceTree tree, String module, List<PatchSeries.Patch> patches, java.util.Map<String, Path> rebuilt) {
        Path moduleWork = workDir.resolve(module);
        FileTrees.deleteRecursively(moduleWork);
        Path classes = moduleWork.resolve("classes");
        try {
            Files.createDirectories(classes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Path> classpath = new ArrayList<>();
        for (Path jar : lib.moduleClasspath(module)) {
            classpath.add(rebuilt.getOrDefault(jar.getFileName().toString(), jar));
        }
        Path jdkInternals = moduleWork.resolve("jdk-internals");
        if (JdkInternals.extractImportedBy(tree.javaSources(module), jdkInternals)) {
            classpath.add(jdkInternals);
        }
        compile(tree.javaSources(module), classpath, classes, moduleWork.resolve("javac.log"), module);
        Path stockJar = lib.moduleJar(module);
        Path jar = moduleWork.resolve(stockJar.getFileName());
        writeJar(stockJar, classes, tree.resources(module), jar, patches);
        verifyContainsEveryStockEntry(stockJar, jar);
        return jar;
    }

    private static void compile(Path sources, List<Path> classpath, Path classes, Path log, String module) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new DistBuildException("no Java compiler in " + System.getProperty("java.home") + " (a JDK, not a JRE, is needed)");
        }
        List<Path> files;
        try (var walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> options = List.of(
            "--release", "8",
            "-encoding", "UTF-8",
            "-g",               // like upstream's Maven build (debug=true): line numbers in broker stack traces
            "-proc:none",       // upstream runs no annotation processors
            "-nowarn", "-Xlint:none", "-XDsuppressNotes",
            "-implicit:none",
            "-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)),
            "-d", classes.toString());
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean ok;
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            ok = javac.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files)).call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> errors = new ArrayList<>();
        try (Writer out = Files.newBufferedWriter(log)) {
            out.write("javac " + String.join(" ", options) + " <" + files.size() + " files under " + sources + ">\n");
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                String where = d.getSource() == null ? "" : sources.relativize(Path.of(d.getSource().toUri())) + ":" + d.getLineNumber() + ": ";
                String line = d.getKind().toString().toLowerCase(Locale.ROOT) + ": " + where + d.getMessage(Locale.ROOT);
                out.write(line + "\n");
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    errors.add(where + d.getMessage(Locale.ROOT).lines().findFirst().orElse(""));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!ok) {
            throw new DistBuildException("javac --release 8 failed for patched rocketmq-" + module + " (" + errors.size()
                + " errors), first: " + (errors.isEmpty() ? "?" : errors.get(0)) + " (all in " + log + ")");
        }
    }

    private static void writeJar(Path stockJar, Path classes, Path resources, Path jar, List<PatchSeries.Patch> patches) {
        // name -> file, sorted: compiled classes, then the patched tree's resources, then the stock
        // jar's generated META-INF entries (read below)
        Map<String, Path> files = new TreeMap<>();
        FileTrees.relativeFiles(classes).forEach(n -> files.put(n, classes.resolve(n)));
        if (Files.isDirectory(resources)) {
            FileTrees.relativeFiles(resources).forEach(n -> files.put(n, resources.resolve(n)));
        }
        try (JarFile stock = new JarFile(stockJar.toFile());
             OutputStream os = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(os)) {
            Manifest manifest = new Manifest(stock.getManifest());
            manifest.getMainAttributes().put(new Attributes.Name("Hotpath-Patches"),
                patches.stream().map(PatchSeries.Patch::name).collect(Collectors.joining(" ")));
            Map<String, byte[]> generated = new TreeMap<>();
            for (Enumeration<? extends ZipEntry> e = stock.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                if (!entry.isDirectory() && !entry.getName().equals(JarFile.MANIFEST_NAME)
                    && UpstreamSourceTree.isGeneratedByReleaseBuild(entry.getName())) {
                    generated.put(entry.getName(), stock.getInputStream(entry).readAllBytes());
                }
            }
            Set<String> names = new TreeSet<>(files.keySet());
            names.addAll(generated.keySet());
            Set<String> dirs = new TreeSet<>();
            for (String name : names) {
                for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
                    dirs.add(name.substring(0, i + 1));
                }
            }
            // META-INF/ and the manifest first, as every jar tool writes them (JarInputStream expects it)
            putEntry(out, "META-INF/", null);
            java.io.ByteArrayOutputStream manifestBytes = new java.io.ByteArrayOutputStream();
            manifest.write(manifestBytes);
            putEntry(out, JarFile.MANIFEST_NAME, manifestBytes.toByteArray());
            dirs.remove("META-INF/");
            for (String dir : dirs) {
                putEntry(out, dir, null);
            }
            for (String name : names) {
                byte[] content = files.containsKey(name) ? Files.readAllBytes(files.get(name)) : generated.get(name);
                putEntry(out, name, content);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void putEntry(JarOutputStream out, String name, byte[] content) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setTimeLocal(ENTRY_TIME);
        out.putNextEntry(entry);
        if (content != null) {
            out.write(content);
        }
        out.closeEntry();
    }

    private static void verifyContainsEveryStockEntry(Path stockJar, Path rebuiltJar) {
        Set<String> missing = new TreeSet<>(entryNames(stockJar));
        missing.removeAll(entryNames(rebuiltJar));
        if (!missing.isEmpty()) {
            throw new DistBuildException("rebuilt " + rebuiltJar.getFileName() + " lacks " + missing.size()
                + " entries of the stock jar, e.g. " + missing.iterator().next()
                + " (not built from the sources jar, or deleted by a patch)");
        }
    }

    private static Set<String> entryNames(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().map(ZipEntry::getName).collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
