package io.hotpath.cli;

import io.hotpath.e2e.campaign.CampaignRejudgement;
import io.hotpath.e2e.idle.IdleReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code bin/hotpath verdicts}: committed campaign files judged again by today's verdict rules
 * ({@link CampaignRejudgement}), into target/verdicts/ unless {@code --out} names another folder (docs/results to
 * publish). Without files: every campaign file in docs/results/.
 */
final class Verdicts {

    static final String USAGE = """
        usage: bin/hotpath verdicts [--out DIR] [CAMPAIGN.json | IDLE.json ...]

          CAMPAIGN.json  campaign files (campaign.json of a run, or docs/results/*.json); default: every campaign file in docs/results/
          IDLE.json      idle reports (bin/hotpath idle): each written again, under its own name, with today's counting rule
          --out DIR      where verdicts-campaigns-<date>.{md,json} and the idle reports go (default target/verdicts;
                         docs/results to publish)
        """;

    private Verdicts() {
    }

    static int run(Path root, List<String> args, String typed) {
        ReportArgs parsed = ReportArgs.parse(root, args, "verdicts", USAGE, root.resolve("target/verdicts"));
        if (parsed.help()) {
            return 0;
        }
        List<Path> files = parsed.files();
        Path out = parsed.out();
        if (files.isEmpty()) {
            files = committedCampaigns(root.resolve("docs/results"));
        }
        List<Path> idle = files.stream().filter(Verdicts::isIdle).toList();
        for (Path file : idle) {
            try {
                Path md = IdleReport.judgeAgain(file, out, typed, LocalDate.now(ZoneOffset.UTC).toString());
                System.err.println("hotpath: " + root.relativize(file) + " judged again: " + root.relativize(md) + " (and .json)");
            } catch (IOException e) {
                throw new CommandFailure("cannot judge " + file + " again: " + e.getMessage());
            }
        }
        files = files.stream().filter(f -> !idle.contains(f)).toList();
        if (files.isEmpty()) {
            return 0;
        }
        CampaignRejudgement.Judgement judgement = CampaignRejudgement.judge(root, files);
        String date = LocalDate.now(ZoneOffset.UTC).toString();
        try {
            Files.createDirectories(out);
            Path md = out.resolve("verdicts-campaigns-" + date + ".md");
            Files.writeString(out.resolve("verdicts-campaigns-" + date + ".json"), CampaignRejudgement.json(judgement), StandardCharsets.UTF_8);
            Files.writeString(md, CampaignRejudgement.markdown(judgement, typed, date, root, out), StandardCharsets.UTF_8);
            System.err.println("hotpath: " + files.size() + " campaign files judged: " + root.relativize(md) + " (and .json)");
        } catch (IOException e) {
            throw new CommandFailure("cannot write " + out + ": " + e.getMessage());
        }
        return 0;
    }

    /** The campaign files among docs/results/*.json: those with rounds and comparisons. */
    static List<Path> committedCampaigns(Path results) {
        try (Stream<Path> all = Files.list(results)) {
            return all.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().filter(Verdicts::isCampaign).toList();
        } catch (IOException e) {
            throw new CommandFailure("cannot list " + results + ": " + e.getMessage());
        }
    }

    /** An idle report (bin/hotpath idle): its JSON says "kind": "idle". */
    private static boolean isIdle(Path file) {
        try {
            return isIdle(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CommandFailure("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static boolean isIdle(String json) {
        return json.contains("\"kind\": \"idle\"");
    }

    private static boolean isCampaign(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return text.contains("\"rounds\"") && text.contains("\"comparisons\"") && !file.getFileName().toString().startsWith("verdicts-")
                    && !isIdle(text);
        } catch (IOException e) {
            throw new CommandFailure("cannot read " + file + ": " + e.getMessage());
        }
    }
}
