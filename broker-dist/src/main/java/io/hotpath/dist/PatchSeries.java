package io.hotpath.dist;

import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import java.io.IOException;
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

/**
 * A line's patches in the order {@code patches/<release>/series} gives (quilt's format: one file name per line,
 * {@code #} comments), each with its upstream status and the upstream modules it touches. The series must name every
 * {@code *.patch} file of the folder once and nothing else: a patch left out of it would silently not ship.
 *
 * <p>Each patch's message carries its upstream status as a Debian DEP-3 {@code Forwarded:} line (the URL where it was
 * sent upstream, or {@code no}), next to an {@code Upstream-Counterpart:} line: the apache/rocketmq issue or pull
 * request that proposes the same idea or did it in a later release, or {@code none found}.
 *
 * <p>A patch may change the sources, resources and tests ({@code <module>/src/{main,test}/{java,resources}})
 * of modules whose jar is on the broker's classpath; never upstream's poms or build configuration, so the
 * patched tree builds with upstream's own build, as it is.
 */
public final class PatchSeries {

    private static final Pattern DIFF_HEADER = Pattern.compile("^diff --git a/(\\S+) b/(\\S+)$", Pattern.MULTILINE);
    private static final Pattern PATCHABLE = Pattern.compile("^([a-z][a-z0-9-]*)/src/(main|test)/(java|resources)/.+");

    private static final Pattern FORWARDED = Pattern.compile("^Forwarded: (\\S.*)$", Pattern.MULTILINE);

    /**
     * One patch file: its name, where it is, its sha256, the repository paths it changes and its DEP-3
     * {@code Forwarded:} value.
     */
    public record Patch(String name, Path file, String sha256, List<String> paths, Set<String> modules, String forwarded) {
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
        try {
            files = ReleaseLine.series(dir);
        } catch (ReleaseLineException e) {
            throw new DistBuildException(e.getMessage());
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
        int end = text.indexOf("\n---\n");
        Matcher forwarded = FORWARDED.matcher(end < 0 ? text : text.substring(0, end));
        if (!forwarded.find()) {
            throw new DistBuildException("patch " + name + " has no 'Forwarded: <where it was sent upstream, or no>' line"
                + " in its message (DEP-3)");
        }
        return new Patch(name, file, Digests.sha256(file), List.copyOf(paths), Collections.unmodifiableSet(modules),
            forwarded.group(1).strip());
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
