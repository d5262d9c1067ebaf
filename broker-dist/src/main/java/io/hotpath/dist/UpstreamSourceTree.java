package io.hotpath.dist;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The part of the upstream repository the patches touch, rebuilt from {@code -sources} jars:
 * {@code rocketmq-all-<version>/<module>/src/main/java/...} and {@code .../src/main/resources/...},
 * the paths of the upstream git tag, so that patches made against the tag apply here unchanged.
 *
 * <p>The tree is its own git repository: {@code git apply} run inside our repository would take
 * paths relative to our root and silently skip every file outside the current directory.
 */
public final class UpstreamSourceTree {

    /**
     * Entries a sources jar carries that the release build generated (Apache remote-resources and
     * maven-archiver), not files of src/main/resources; the rebuilt jar takes them from the stock jar.
     */
    private static final Set<String> GENERATED_META_INF = Set.of(
        "META-INF/MANIFEST.MF", "META-INF/LICENSE", "META-INF/NOTICE", "META-INF/DEPENDENCIES");

    private final Path root;

    private UpstreamSourceTree(Path root) {
        this.root = root;
    }

    /** A fresh, empty tree at {@code root} (anything there before is deleted). */
    public static UpstreamSourceTree create(Path root) {
        FileTrees.deleteRecursively(root);
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        UpstreamSourceTree tree = new UpstreamSourceTree(root);
        new Git(root).init();
        return tree;
    }

    public Path root() {
        return root;
    }

    public Path javaSources(String module) {
        return root.resolve(module).resolve("src/main/java");
    }

    public Path resources(String module) {
        return root.resolve(module).resolve("src/main/resources");
    }

    static boolean isGeneratedByReleaseBuild(String entryName) {
        return GENERATED_META_INF.contains(entryName) || entryName.startsWith("META-INF/maven/");
    }

    /** Unpacks a module's sources jar: .java files to src/main/java, everything else to src/main/resources. */
    public void addModule(String module, Path sourcesJar) {
        if (!Files.isRegularFile(sourcesJar)) {
            throw new DistBuildException("no sources jar " + sourcesJar.getFileName() + " for patched module '" + module
                + "' in " + sourcesJar.getParent());
        }
        try (ZipFile zip = new ZipFile(sourcesJar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || isGeneratedByReleaseBuild(name)) {
                    continue;
                }
                Path base = name.endsWith(".java") ? javaSources(module) : resources(module);
                Path target = base.resolve(name).normalize();
                if (!target.startsWith(base)) {
                    throw new DistBuildException(sourcesJar.getFileName() + " has an entry outside its tree: " + name);
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, target);
                }
            }
        } catch (IOException e) {
            throw new DistBuildException("cannot unpack " + sourcesJar + ": " + e.getMessage());
        }
    }

    /** Applies one patch with {@code git apply}; all or nothing, as git apply is. */
    public void apply(PatchSeries.Patch patch) {
        Git.Result result = new Git(root).run("apply", "--verbose", "--whitespace=nowarn",
            patch.file().toAbsolutePath().toString());
        if (result.exitCode() != 0) {
            throw new DistBuildException("patch " + patch.name() + " does not apply to " + root.getFileName() + ": "
                + result.applyErrorLine());
        }
    }
}
