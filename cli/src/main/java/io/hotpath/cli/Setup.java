package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.lines.ReleaseLine;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bin/hotpath setup}: every module of ours built without tests ({@code verify}: nothing goes to
 * {@code ~/.m2}), with the newest line's broker distributions, then every other line's (upstream's source release and
 * the line's patches, upstream's own build, no upstream tests) under broker-dist/target/.
 */
final class Setup {

    static final String USAGE = "usage: bin/hotpath setup\n";

    private Setup() {
    }

    static int run(Path root, List<String> args, MavenRun maven) {
        if (!args.isEmpty()) {
            if (args.equals(List.of("-h")) || args.equals(List.of("--help"))) {
                System.out.print(USAGE);
                return 0;
            }
            throw new UsageException("setup takes no options (got '" + args.get(0) + "')");
        }
        ReleaseLine newest = ReleaseLines.newest(root);
        System.err.println("hotpath: building all modules and the " + newest.release()
            + " broker distributions (mvn verify -DskipTests -Dhotpath.line=" + newest.release() + ")");
        expect(maven.run(List.of("-q", "verify", "-DskipTests", "-Dhotpath.line=" + newest.release()), null, "building"),
            "building the modules and the " + newest.release() + " distributions");
        List<ReleaseLine> lines = ReleaseLine.all(root.resolve("patches"));
        for (ReleaseLine line : lines) {
            if (line.release().equals(newest.release())) {
                continue;
            }
            System.err.println("hotpath: building the " + line.release() + " broker distributions");
            expect(maven.run(List.of("-q", "-pl", "broker-dist", "-am", "verify", "-Dhotpath.line=" + line.release(),
                "-Dhotpath.flavor=both", "-Dhotpath.upstream.tests=false", "-DskipTests"), null, "building"),
                "building the " + line.release() + " distributions");
        }
        System.err.println("hotpath: done: broker distributions in broker-dist/target/rocketmq-<line>-{stock,patched}/ for lines: "
            + String.join(" ", lines.stream().map(ReleaseLine::release).toList()));
        return 0;
    }

    private static void expect(int exit, String what) {
        if (exit != 0) {
            throw new CommandFailure(what + " failed (Maven exit " + exit + "; its output is above)");
        }
    }
}
