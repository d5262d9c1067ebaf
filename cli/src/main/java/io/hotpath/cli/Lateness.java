package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.campaign.LatenessComparison;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * {@code bin/hotpath lateness}: whether an arm delivers timer, delay-level or plain messages later than its baseline,
 * pooled over campaign files ({@link LatenessComparison}), into target/lateness/ unless {@code --out} names another folder
 * (docs/results to publish).
 */
final class Lateness {

    static final String USAGE = """
        usage: bin/hotpath lateness [--out DIR] CAMPAIGN.json [CAMPAIGN.json ...]

          CAMPAIGN.json  campaign files with a timed phase (campaign.json of a run, or docs/results/campaign-*.json); each
                         arm is compared with its file's first arm, arm labels permuted within each file
          --out DIR      where lateness-<date>.{md,json} go (default target/lateness; docs/results to publish)
        """;

    private Lateness() {
    }

    static int run(Path root, List<String> args, String typed) {
        ReportArgs parsed = ReportArgs.parse(root, args, "lateness", USAGE, root.resolve("target/lateness"));
        if (parsed.help()) {
            return 0;
        }
        List<Path> files = parsed.files();
        if (files.isEmpty()) {
            throw new UsageException("no campaign files given (see bin/hotpath lateness --help)");
        }
        LatenessComparison.Json report = LatenessComparison.compare(root, files, typed, LocalDate.now(ZoneOffset.UTC).toString());
        try {
            Path md = LatenessComparison.write(report, parsed.out());
            System.err.println("hotpath: lateness of " + report.rows().stream().map(LatenessComparison.Row::arm).distinct().count()
                    + " arms over " + files.size() + " files: " + root.relativize(md) + " (and .json)");
        } catch (IOException e) {
            throw new CommandFailure("cannot write " + parsed.out() + ": " + e.getMessage());
        }
        return 0;
    }
}
