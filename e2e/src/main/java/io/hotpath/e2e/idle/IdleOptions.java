package io.hotpath.e2e.idle;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.campaign.Arm;
import io.hotpath.e2e.campaign.CampaignOptions;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.e2e.spec.SmokeOptions;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Command line of {@code bin/hotpath idle}; bad input is a {@link UsageException} of one line.
 *
 * @param armKinds the {@code --arms} given, empty for the default ({@link #arms})
 * @param out      where the report goes, relative to the project root; null for {@link #DEFAULT_OUT}
 */
public record IdleOptions(int rounds, int settleSeconds, int maxSettleSeconds, int seconds, String line, List<String> armKinds, String out, int basePort,
                          boolean privateNetwork, boolean help) {

    /** Where idle-<line>-<date>.{md,json} go unless --out says otherwise (relative to the project root). */
    public static final String DEFAULT_OUT = "target/idle";

    public static final String USAGE = """
            usage: bin/hotpath idle [--rounds K] [--settle S] [--max-settle S] [--seconds S] [--line R] [--arms A1,A2,...] [--out DIR]
                                    [--base-port P] [--no-netns]

            What a 2m-2s cluster (name server, 2 masters, 2 slaves; loopback) costs with no load at all, stock vs
            patched of the --line (and patched+tuned where the line ships tuned.properties): K rounds, each a fresh
            cluster per arm in alternating order; after boot it settles S seconds, then in 30 s probes until the
            masters' JIT compiler used under 5 % of their CPU in two in a row (at most --max-settle), then every
            process's threads are read from /proc/<pid>/task/*/{stat,status} at both edges of the sample window.
            Per role (master, slave, name server): CPU ms/s and wake-ups (context switches) per second per process,
            per thread group (names without their counter). A round counts when the machine was quiet (other
            processes under 5 % of it) and the masters' JIT compiler used under 5 % of the first arm's median master
            CPU (the same ms/s in every arm); verdicts as the campaign's (exact permutation p,
            Holm, resolved from 5 counted rounds per arm). Writes <out>/idle-<line>-<date>.{md,json}, run directories
            under e2e/target/e2e/idle-<timestamp>/.

              --rounds K      rounds per arm                                   [default: 3]
              --settle S      seconds between the cluster's boot and the first JIT probe [default: 60]
              --max-settle S  the longest settle, probes included             [default: 480]
              --seconds S     sampled seconds per round (>= 60 for a figure to quote)  [default: 60]
              --line R        release line                                     [default: the newest]
              --arms L        comma-separated arms, the first the baseline: stock, stock+tuned, patched,
                              patched+tuned  [default: stock,patched, and patched+tuned where the line ships
                              patches/<R>/tuned.properties]
              --out DIR       where the report goes, relative to the repository  [default: target/idle]
              --base-port P   name server port                                 [default: 19876]
              --no-netns      run on the host network (brokers then listen on all interfaces)

            Defaults: 3 rounds x 2 arms x (~30 s boot + 120 to 480 s + 60 s + stop) ~ 25 to 60 min (an idle 5.5.1
            master's JIT took 150 to 300 s after boot to drop under 5 % of its CPU, longer the cheaper the arm).""";

    public static IdleOptions parse(String... args) {
        int rounds = 3;
        // the figures (77 and 89 ms/s) were taken 60 s after boot over 60 s
        int settle = 60;
        int maxSettle = 480;
        int seconds = 60;
        String line = null;
        List<String> armKinds = List.of();
        String out = null;
        int basePort = ClusterLayout.DEFAULT_BASE_PORT;
        boolean privateNetwork = true;
        boolean help = false;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            String option = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (option) {
                case "-h", "--help" -> help = true;
                case "--no-netns" -> privateNetwork = false;
                case "--rounds" -> rounds = SmokeOptions.number(option, value(option, inline, rest), 1, 100);
                case "--settle" -> settle = SmokeOptions.number(option, value(option, inline, rest), 0, 3600);
                case "--max-settle" -> maxSettle = SmokeOptions.number(option, value(option, inline, rest), 0, 3600);
                case "--seconds" -> seconds = SmokeOptions.number(option, value(option, inline, rest), 1, 3600);
                case LineOption.LINE -> line = ReleaseLines.release(value(option, inline, rest));
                case "--arms" -> armKinds = CampaignOptions.armKinds(value(option, inline, rest));
                case "--out" -> out = value(option, inline, rest);
                case "--base-port" -> basePort = SmokeOptions.number(option, value(option, inline, rest),
                        ClusterLayout.MIN_BASE_PORT, ClusterLayout.MAX_BASE_PORT);
                default -> throw new UsageException((arg.startsWith("-") ? "unknown option '" : "unexpected argument '")
                        + arg + "' for idle (see bin/hotpath idle --help)");
            }
        }
        if (out != null && out.isBlank()) {
            throw new UsageException("--out needs a folder, got ''");
        }
        if (maxSettle < settle) {
            throw new UsageException("--max-settle " + maxSettle + " is below --settle " + settle);
        }
        return new IdleOptions(rounds, settle, maxSettle, seconds, line, armKinds, out, basePort, privateNetwork, help);
    }

    /** The {@code --line} (or the newest complete line), resolved once. */
    public ReleaseLine releaseLine(Path projectRoot) {
        return ReleaseLines.line(line, projectRoot);
    }

    /**
     * The arms in report order, the first the baseline: the {@code --arms}, else stock and patched, and patched+tuned where
     * the line ships a tuned configuration.
     */
    public List<Arm> arms(ReleaseLine releaseLine) {
        List<String> kinds = new ArrayList<>(armKinds.isEmpty() ? CampaignOptions.FLAVORS : armKinds);
        if (armKinds.isEmpty() && TunedConfig.shipped(releaseLine)) {
            kinds.add("patched" + CampaignOptions.TUNED_SUFFIX);
        }
        return kinds.stream().map(kind -> Arm.of(kind, releaseLine.release(), kind)).toList();
    }

    /**
     * The order the arms run in {@code round} (from 1): as given on odd rounds; with more than two arms reversed on even
     * ones, as the campaign does, so that a drift across a round (a warming machine) does not always favour the same arm.
     */
    public static List<Arm> roundOrder(List<Arm> arms, int round) {
        if (arms.size() <= 2 || round % 2 == 1) {
            return arms;
        }
        List<Arm> reversed = new ArrayList<>(arms);
        Collections.reverse(reversed);
        return List.copyOf(reversed);
    }

    /** The report's folder. */
    public Path outDir(Path projectRoot) {
        return projectRoot.resolve(out == null ? DEFAULT_OUT : out).normalize();
    }

    private static String value(String option, String inline, List<String> rest) {
        if (inline != null) {
            return inline;
        }
        if (rest.isEmpty() || rest.get(0).startsWith("-")) {
            throw new UsageException("option " + option + " needs a value (see bin/hotpath idle --help)");
        }
        return rest.remove(0);
    }
}
