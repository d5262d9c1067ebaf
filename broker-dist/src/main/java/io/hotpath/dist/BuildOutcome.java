package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one run of the builder did, for the tool that started it ({@code bin/hotpath build-broker}, in module cli):
 * the distributions it assembled, the upstream test report it wrote, or the one-line reason it failed. Written as
 * {@code target/build-outcome-<release>.json} at the end of every run, so that its caller reads a record instead of
 * Maven's log.
 *
 * @param release       the line's release
 * @param distributions flavor -> the distribution directory assembled (empty when the build failed before)
 * @param testReport    upstream-tests.md, or null when upstream's tests did not run
 * @param error         the reason of a failed build, the text of its {@code hotpath: error:} line; null when it succeeded
 */
record BuildOutcome(String release, Map<String, Path> distributions, Path testReport, String error) {

    static Path file(Path target, String release) {
        return target.resolve("build-outcome-" + release + ".json");
    }

    String json() {
        String built = distributions.entrySet().stream()
            .map(e -> UpstreamTestReport.Json.string(e.getKey()) + ": " + UpstreamTestReport.Json.string(e.getValue().toString()))
            .collect(Collectors.joining(", ", "{", "}"));
        return "{\n  \"release\": " + UpstreamTestReport.Json.string(release)
            + ",\n  \"distributions\": " + built
            + ",\n  \"testReport\": " + (testReport == null ? "null" : UpstreamTestReport.Json.string(testReport.toString()))
            + ",\n  \"error\": " + (error == null ? "null" : UpstreamTestReport.Json.string(error))
            + "\n}\n";
    }

    void write(Path target) {
        try {
            Files.createDirectories(target);
            Files.writeString(file(target, release), json(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file(target, release), e);
        }
    }
}
