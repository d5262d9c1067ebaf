package io.hotpath.e2e.spec;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import java.nio.file.Path;
import java.util.List;

/**
 * The release lines as the smoke, the campaign and the profiler see them: which line's broker
 * distributions ({@code broker-dist/target/rocketmq-<release>-<flavor>/}) to run — {@code --line}, or by
 * default the newest. The rule itself lives in {@link ReleaseLine} (module release-lines), which
 * broker-dist builds the lines with; here a bad line becomes the command line's one-line error. A command resolves
 * its line once and hands the {@link ReleaseLine} on: {@link Distribution} carries it.
 */
public final class ReleaseLines {

    private ReleaseLines() {
    }

    /** Every release that has a descriptor, oldest first. */
    public static List<String> list(Path projectRoot) {
        return ReleaseLine.all(projectRoot.resolve("patches")).stream().map(ReleaseLine::release).toList();
    }

    /** The newest complete line; fails with one line when the checkout has none. */
    public static ReleaseLine newest(Path projectRoot) {
        return resolve(null, projectRoot);
    }

    /**
     * {@code requested} when it is a known complete line, the newest complete line when it is null; else one line
     * naming the known ones. A partial line is refused: the cluster checks assert what every patch of a line does.
     */
    public static ReleaseLine resolve(String requested, Path projectRoot) {
        ReleaseLine line;
        try {
            line = ReleaseLine.resolve(requested, projectRoot.resolve("patches"));
        } catch (ReleaseLineException e) {
            throw new UsageException(e.getMessage());
        }
        if (!line.complete()) {
            throw new UsageException("release line '" + line.release() + "' is partial (complete=false in its "
                + ReleaseLine.DESCRIPTOR + "): the end-to-end checks need every patch of a line; build and test it with"
                + " bin/hotpath build-broker --line " + line.release());
        }
        return line;
    }

    /**
     * Like {@link #resolve}, except that a partial line is run when it is named explicitly: the smoke of a line whose
     * patches are under way shows how far they go. Never the default: with {@code requested} null this is the newest
     * complete line. Whether the line is partial says {@link ReleaseLine#complete}.
     */
    public static ReleaseLine resolveNamedPartial(String requested, Path projectRoot) {
        return requested == null ? resolve(null, projectRoot) : line(requested, projectRoot);
    }

    /** The descriptor of a known line (partial or not); an unknown one is the command line's one-line error. */
    public static ReleaseLine line(String release, Path projectRoot) {
        try {
            return ReleaseLine.resolve(release, projectRoot.resolve("patches"));
        } catch (ReleaseLineException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** Where bin/hotpath build-broker puts the {@code flavor} distribution of {@code release}. */
    public static Path distributionHome(Path projectRoot, String release, String flavor) {
        return projectRoot.resolve("broker-dist/target/rocketmq-" + release + "-" + flavor).normalize();
    }
}
