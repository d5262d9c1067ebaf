package io.hotpath.dist;

import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Regenerates a line's patches, so that a patch and the module code it carries can never drift
 * (broker-dist's {@code PatchFreshnessTest} regenerates and compares; {@code bin/hotpath patches regenerate}
 * writes the result).
 *
 * <p>One generator for every patch of every line, driven by data:
 * <ul>
 *   <li>the patch file itself holds its message and its edits of upstream files (call sites, body
 *       swaps, upstream test updates), as reviewed diffs against upstream's real source tree;</li>
 *   <li>the line's descriptor says which files each patch carries from our modules
 *       ({@code carries.<patch>=<upstream module> <- <our module> : <files>});</li>
 *   <li>upstream's text comes from the line's source release, never from string literals here.</li>
 * </ul>
 * Each patch is rebuilt on top of the ones before it: apply the committed patch to the tree, copy the
 * carried files from our modules over what it added, commit, {@code git format-patch}, and keep the
 * committed message (everything before the {@code ---} line).
 *
 * <p>To change an upstream edit, edit the patched tree and refresh the patch's diff from it; to carry a
 * new file, list it in the descriptor and regenerate.
 */
public final class PatchGenerator {

    private static final Pattern ADDED_FILE = Pattern.compile("^diff --git a/(\\S+) b/\\S+\nnew file mode ", Pattern.MULTILINE);

    private PatchGenerator() {
    }

    /**
     * Patch file name -> regenerated text, for every patch of {@code line}, in series order.
     * {@code workDir} is emptied and used for the tree.
     */
    public static Map<String, String> generate(ReleaseLine line, Path sourceRelease, Path projectRoot, Path workDir) {
        UpstreamTree tree = UpstreamTree.unpack(sourceRelease, line.release(), workDir);
        Map<String, String> generated = new LinkedHashMap<>();
        for (PatchSeries.Patch patch : PatchSeries.read(line.dir()).patches()) {
            String committed = read(patch.file());
            tree.apply(patch);
            ReleaseLine.Carried carried = line.carries().get(patch.name());
            List<String> carriedPaths = carried == null ? List.of()
                : carried.files().stream().map(carried::upstreamPath).toList();
            for (String added : addedFiles(committed)) {
                if (added.contains("/src/main/java/io/hotpath/") && !carriedPaths.contains(added)) {
                    throw new DistBuildException(patch.name() + " adds " + added + ", which " + ReleaseLine.DESCRIPTOR
                        + " does not list under carries." + patch.name() + ": list it, or drop it from the patch");
                }
            }
            if (carried != null) {
                for (String file : carried.files()) {
                    copy(carried.ourSource(projectRoot, file), tree.root().resolve(carried.upstreamPath(file)));
                }
            }
            tree.commitAll(patch.name());
            String formatted = Git.check(tree.git().run("format-patch", "-1", "--stdout", "--zero-commit", "--no-signature",
                "--no-numbered", "--stat=80", "--abbrev=7", "HEAD"), "git format-patch").stdout();
            generated.put(patch.name(), messagePart(committed) + diffPart(formatted));
        }
        return generated;
    }

    static List<String> addedFiles(String patch) {
        Matcher m = ADDED_FILE.matcher(patch);
        List<String> added = new java.util.ArrayList<>();
        while (m.find()) {
            added.add(m.group(1));
        }
        return added;
    }

    /** Everything up to, not including, the line "---" that ends a format-patch message. */
    static String messagePart(String patch) {
        return patch.substring(0, separator(patch));
    }

    /** From the "---" line on: diffstat and diff. */
    static String diffPart(String patch) {
        return patch.substring(separator(patch));
    }

    private static int separator(String patch) {
        int at = patch.startsWith("---\n") ? 0 : patch.indexOf("\n---\n");
        if (at < 0) {
            throw new DistBuildException("not a git format-patch file: no '---' line after the message");
        }
        return at == 0 ? 0 : at + 1;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static void copy(Path from, Path to) {
        if (!Files.isRegularFile(from)) {
            throw new DistBuildException("carried file " + from + " does not exist");
        }
        FileTrees.copyFile(from, to);
    }

    /**
     * {@code --line DIR --source-release ZIP --project-root DIR --work DIR}: rewrites every patch of the
     * line that changed and says which.
     */
    public static void main(String[] args) {
        try {
            Map<String, String> options = Options.parse(args, List.of(LineOption.LINE, "--source-release", "--project-root", "--work"),
                "usage: PatchGenerator " + LineOption.LINE + " DIR --source-release ZIP --project-root DIR --work DIR");
            ReleaseLine line = LineOption.folder(options.get(LineOption.LINE));
            Map<String, String> patches = generate(line, Path.of(options.get("--source-release")),
                Path.of(options.get("--project-root")), Path.of(options.get("--work")));
            for (Map.Entry<String, String> e : patches.entrySet()) {
                Path file = line.dir().resolve(e.getKey());
                boolean same = e.getValue().equals(read(file));
                if (!same) {
                    Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
                }
                System.out.println("hotpath: " + (same ? "unchanged " : "wrote ") + file);
            }
        } catch (DistBuildException | ReleaseLineException e) {
            System.err.println("hotpath: error: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("hotpath: error: " + e);
            System.exit(2);
        }
    }
}
