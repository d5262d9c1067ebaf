package io.hotpath.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A stand-in for {@code mvn}: a script that appends its arguments to a calls file, runs {@code body} (e.g. writes
 * broker-dist's build record, as the real builder does) and exits with {@code exit}.
 */
final class StandInMaven {

    private final Path root;
    private final Path script;
    private final Path calls;

    StandInMaven(Path root, int exit) throws IOException {
        this(root, exit, "");
    }

    StandInMaven(Path root, int exit, String body) throws IOException {
        this.root = root;
        Path dir = Files.createDirectories(root.resolve("stand-in-" + System.nanoTime()));
        this.calls = dir.resolve("calls");
        this.script = dir.resolve("mvn");
        Files.writeString(script, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n" + body + "\nexit " + exit + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    }

    MavenRun run() {
        return new MavenRun(root, script.toString());
    }

    List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls, StandardCharsets.UTF_8) : List.of();
    }
}
