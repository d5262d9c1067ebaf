package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code patches/<release>/*.patch} files, in name order, and which upstream modules they touch.
 *
 * <p>A patch may change the sources, resources and tests ({@code <module>/src/{main,test}/{java,resources}})
 * of modules whose jar is on the broker's classpath; never upstream's poms or build configuration, so the
 * patched tree builds with upstream's own build, as it is.
 */
public final class PatchSeries {

    private static final Pattern DIFF_HEADER = Pattern.compile("^diff --git a/(\\S+) b/(\\S+)$", Pattern.MULTILINE);
    private static final Pattern PATCHABLE = Pattern.compile("^([a-z][a-z0-9-]*)/src/(main|test)/(java|resources)/.+");

    /** One patch file: its name, where it is, its sha256 and the repository paths it changes. */
    public record Patch(String name, Path file, String sha256, List<String> paths, Set<String> modules) {
    }

    private final List<Patch> patches;

    private PatchSeries(List<Patch> patches) {
        this.patches = patches;
    }

    public static PatchSeries read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new DistBuildException("patch directory " + dir + " does not exist");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Patch> patches = new ArrayList<>();
        for (Path file : files) {
            patches.add(parse(file));
        }
        return new PatchSeries(Collections.unmodifiableList(patches));
    }

    static Patch parse(Path file) {
        String name = file.getFileName().toString();
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot read patch " + name + ": " + e.getMessage());
        }
        List<String> paths = new ArrayList<>();
        Set<String> modules = new LinkedHashSet<>();
        Matcher m = DIFF_HEADER.matcher(text);
        while (m.find()) {
            for (String path : new String[] {m.group(1), m.group(2)}) {
                Matcher patchable = PATCHABLE.matcher(path);
                if (!patchable.matches()) {
                    throw new DistBuildException("patch " + name + " changes " + path
                        + ": only <module>/src/{main,test}/{java,resources} can be patched");
                }
                if (!paths.contains(path)) {
                    paths.add(path);
                }
                modules.add(patchable.group(1));
            }
        }
        if (paths.isEmpty()) {
            throw new DistBuildException("patch " + name + " contains no 'diff --git' section");
        }
        return new Patch(name, file, Digests.sha256(file), List.copyOf(paths), Collections.unmodifiableSet(modules));
    }

    public List<Patch> patches() {
        return patches;
    }

    /** Upstream module directories (common, store, ...) touched by any patch, in first-touched order. */
    public Set<String> modules() {
        Set<String> modules = new LinkedHashSet<>();
        patches.forEach(p -> modules.addAll(p.modules()));
        return modules;
    }
}
