package io.hotpath.dist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Upstream's real source tree of a release, unpacked from Maven Central's
 * {@code rocketmq-all-<release>-source-release.zip}: every module, its poms, its tests, its checkstyle
 * configuration — what a user who keeps their own broker build starts from.
 *
 * <p>The tree is its own git repository with the release as its first commit: {@code git apply} run
 * inside our repository would take paths relative to our root and silently skip every file outside
 * the current directory, and the patch generator diffs against that commit.
 */
public final class UpstreamTree {

    /** Fixed identity and date: nothing generated from the tree depends on who ran it, or when. */
    static final Map<String, String> IDENTITY = Map.of(
        "GIT_AUTHOR_NAME", "rocketmq-hotpath maintainers",
        "GIT_AUTHOR_EMAIL", "maintainers@users.noreply.a-seed-ca7d3a66.example",
        "GIT_COMMITTER_NAME", "rocketmq-hotpath maintainers",
        "GIT_COMMITTER_EMAIL", "maintainers@users.noreply.a-seed-ca7d3a66.example",
        "GIT_AUTHOR_DATE", "2021-06-10T00:00:00Z",
        "GIT_COMMITTER_DATE", "2021-06-10T00:00:00Z");

    private final Path root;
    private final Git git;

    private UpstreamTree(Path root) {
        this.root = root;
        this.git = new Git(root, IDENTITY);
    }

    /** Where {@link #unpack} puts the tree's root inside {@code dir}. */
    public static Path rootIn(Path dir, String release) {
        return dir.resolve("rocketmq-all-" + release);
    }

    /**
     * Unpacks {@code sourceRelease} into {@code dir} (anything there before is deleted) and commits it.
     * The archive's single top folder ({@code rocketmq-all-<release>/}) becomes the tree's root.
     */
    public static UpstreamTree unpack(Path sourceRelease, String release, Path dir) {
        if (!Files.isRegularFile(sourceRelease)) {
            throw new DistBuildException("upstream source release " + sourceRelease + " is missing");
        }
        FileTrees.deleteRecursively(dir);
        String top = "rocketmq-all-" + release + "/";
        Path root = rootIn(dir, release);
        try (ZipFile zip = new ZipFile(sourceRelease.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                if (!entry.getName().startsWith(top)) {
                    throw new DistBuildException(sourceRelease.getFileName() + " has an entry outside " + top + ": "
                        + entry.getName());
                }
                Path target = dir.resolve(entry.getName()).normalize();
                if (!target.startsWith(root)) {
                    throw new DistBuildException(sourceRelease.getFileName() + " has an entry outside its tree: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, target);
                }
            }
        } catch (IOException e) {
            throw new DistBuildException("cannot unpack " + sourceRelease + ": " + e.getMessage());
        }
        if (!Files.isRegularFile(root.resolve("pom.xml"))) {
            throw new DistBuildException(sourceRelease.getFileName() + " holds no " + top + "pom.xml");
        }
        UpstreamTree tree = new UpstreamTree(root);
        tree.git.init();
        tree.commitAll("rocketmq-all-" + release + " source release");
        return tree;
    }

    public Path root() {
        return root;
    }

    Git git() {
        return git;
    }

    /** Applies one patch with {@code git apply}; all or nothing, as git apply is. */
    public void apply(PatchSeries.Patch patch) {
        gitApply(patch.file(), "patch " + patch.name() + " does not apply to " + root.getFileName());
    }

    /**
     * Applies a diff of the line folder that is no shipped patch ({@code tree.test.edits}: the patched tree's edits of
     * skeleton tests), after the series; all or nothing.
     */
    public void applyTestEdits(Path diff) {
        if (!Files.isRegularFile(diff)) {
            throw new DistBuildException("the line names tree.test.edits=" + diff.getFileName() + ", which is not in " + diff.getParent());
        }
        gitApply(diff, diff.getFileName() + " does not apply to " + root.getFileName() + " after the patches");
    }

    private void gitApply(Path diff, String refusal) {
        Git.Result result = git.run("apply", "--whitespace=nowarn", diff.toAbsolutePath().toString());
        if (result.exitCode() != 0) {
            throw new DistBuildException(refusal + ": " + result.applyErrorLine());
        }
    }

    /** Commits everything in the work tree (the patch generator's "before" and "after"). */
    void commitAll(String message) {
        Git.check(git.run("add", "-A"), "git add");
        Git.check(git.run("commit", "-q", "--no-verify", "--allow-empty", "-m", message), "git commit");
    }
}
