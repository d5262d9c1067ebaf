package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.idle.CostReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/hotpath cost}: each arm's master cost model (fixed ms/s + marginal us/msg) from committed idle and campaign
 * files ({@link CostReport}), into target/cost/ unless {@code --out} names another folder (docs/results to publish).
 */
final class Cost {

    static final String USAGE = """
        usage: bin/hotpath cost --idle IDLE.json [--idle ...] --campaign CAMPAIGN.json [--campaign ...] [--out DIR]

          --idle FILE      an idle report (idle-<line>-<date>.json): its counted rounds are points at 0 msg/s
          --campaign FILE  a campaign at a fixed rate (campaign.json): its counted rounds are points at their rate
          --out DIR        where cost-<line>-<date>.{md,json} go (default target/cost; docs/results to publish)
        Every file of one line; each arm needs counted rounds at two rates at least.
        """;

    private Cost() {
    }

    static int run(Path root, List<String> args, String typed) {
        Path out = root.resolve("target/cost");
        List<Path> idle = new ArrayList<>();
        List<Path> campaigns = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "-h", "--help" -> {
                    System.out.print(USAGE);
                    return 0;
                }
                case "--out" -> out = root.resolve(value(args, ++i, arg));
                case "--idle" -> idle.add(file(root, value(args, ++i, arg)));
                case "--campaign" -> campaigns.add(file(root, value(args, ++i, arg)));
                default -> throw new UsageException((arg.startsWith("-") ? "unknown option '" : "unexpected argument '") + arg
                        + "' for cost (see bin/hotpath cost --help)");
            }
        }
        CostReport.Json report = CostReport.of(root, idle, campaigns, typed, LocalDate.now(ZoneOffset.UTC).toString());
        try {
            Path md = CostReport.write(report, out);
            System.err.println("hotpath: cost models of " + report.arms().size() + " arms: " + root.relativize(md) + " (and .json)");
        } catch (IOException e) {
            throw new CommandFailure("cannot write " + out + ": " + e.getMessage());
        }
        return 0;
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size() || args.get(i).startsWith("-")) {
            throw new UsageException("option " + option + " needs a file (see bin/hotpath cost --help)");
        }
        return args.get(i);
    }

    private static Path file(Path root, String name) {
        Path file = root.resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no such file: " + name);
        }
        return file;
    }
}
