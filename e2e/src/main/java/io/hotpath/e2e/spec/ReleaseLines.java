package io.hotpath.e2e.spec;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.LineOption.Partial;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The release lines as the smoke, the campaign and the profiler see them: which line's broker
 * distributions ({@code broker-dist/target/rocketmq-<release>-<flavor>/}) to run — {@code --line}, or by
 * default the newest. The rules themselves, and the option, live in {@link LineOption} (module release-lines), which
 * every command parses the option with; here a bad line becomes the command line's one-line {@link UsageException}.
 * A command resolves its line once and hands the {@link ReleaseLine} on: {@link Distribution} carries it.
 */
public final class ReleaseLines {

    private ReleaseLines() {
    }

    /** Every release that has a descriptor, oldest first. */
    public static List<String> list(Path projectRoot) {
        return LineOption.known(patches(projectRoot));
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
        return usage(() -> LineOption.resolve(requested, patches(projectRoot), Partial.REFUSED));
    }

    /**
     * Like {@link #resolve}, except that a partial line is run when it is named explicitly: the smoke of a line whose
     * patches are under way shows how far they go. Never the default: with {@code requested} null this is the newest
     * complete line. Whether the line is partial says {@link ReleaseLine#complete}.
     */
    public static ReleaseLine resolveNamedPartial(String requested, Path projectRoot) {
        return line(requested, projectRoot);
    }

    /** The descriptor of a known line (partial or not); an unknown one is the command line's one-line error. */
    public static ReleaseLine line(String release, Path projectRoot) {
        return usage(() -> LineOption.resolve(release, patches(projectRoot), Partial.ACCEPTED));
    }

    /** A {@code --line} value before the checkout is known: a release such as 4.9.0 ({@link LineOption#release}). */
    public static String release(String value) {
        return usage(() -> LineOption.release(value));
    }

    /** A {@code --lines} value: releases, each once ({@link LineOption#releases}). */
    public static List<String> releases(String value) {
        return usage(() -> LineOption.releases(value));
    }

    /** {@code --line} and {@code --lines} together: refused ({@link LineOption#oneOf}). */
    public static void oneOf(String line, List<String> lines) {
        usage(() -> {
            LineOption.oneOf(line, lines);
            return lines;
        });
    }

    /** {@code call}, a release line it cannot find or read being the command line's one-line error. */
    public static <T> T usage(Supplier<T> call) {
        try {
            return call.get();
        } catch (ReleaseLineException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** Where bin/hotpath build-broker puts the {@code flavor} distribution of {@code release}. */
    public static Path distributionHome(Path projectRoot, String release, String flavor) {
        return projectRoot.resolve("broker-dist/target/rocketmq-" + release + "-" + flavor).normalize();
    }

    private static Path patches(Path projectRoot) {
        return projectRoot.resolve("patches");
    }
}
