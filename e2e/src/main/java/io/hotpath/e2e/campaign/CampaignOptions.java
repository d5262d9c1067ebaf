package io.hotpath.e2e.campaign;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.FaultScenario;
import io.hotpath.e2e.spec.NetMode;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.e2e.spec.RoundSpec;
import io.hotpath.e2e.spec.SmokeOptions;
import io.hotpath.e2e.spec.Warmup;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.LineOption.Partial;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command line of {@code bin/hotpath campaign}; bad input is a {@link UsageException} of one line. {@code lines}
 * is empty unless {@code --lines} was given; then the campaign compares those lines instead of one {@code line}.
 */
public record CampaignOptions(int rounds, List<Integer> threads, List<Integer> sizes, int queues, int rate, int warmupSeconds,
                              int warmupJitPercent, int warmupRate,
                              int seconds, boolean ci, int basePort, boolean privateNetwork, boolean help, NetMode net,
                              String line, List<String> lines, List<String> armKinds, Path tunedFile, boolean allocationSites) {

    /** The builds of a line a campaign compares by default, baseline first. */
    public static final List<String> FLAVORS = List.of("stock", "patched");
    /** An arm kind's suffix for "with the tuned configuration": stock+tuned, patched+tuned. */
    public static final String TUNED_SUFFIX = "+tuned";
    /** An arm kind's suffix for "masters as ASYNC_MASTER": a floor arm, e.g. patched+tuned+async. */
    static final String ASYNC_SUFFIX = "+async";
    /** Every arm kind {@code --arms} may name. */
    static final List<String> ARM_KINDS = List.of("stock", "stock" + TUNED_SUFFIX, "patched", "patched" + TUNED_SUFFIX,
            "stock" + ASYNC_SUFFIX, "stock" + TUNED_SUFFIX + ASYNC_SUFFIX, "patched" + ASYNC_SUFFIX,
            "patched" + TUNED_SUFFIX + ASYNC_SUFFIX);

    public static final String USAGE = """
            usage: bin/hotpath campaign [--rounds K] [--threads 16,32] [--sizes 1024] [--queues 8] [--rate N]
                                        [--warmup S] [--warmup-jit P] [--warmup-rate N] [--seconds S] [--ci]
                                        [--net loopback|realistic]
                                        [--line R | --lines R1,R2,...] [--arms A1,A2,...] [--tuned FILE]
                                        [--alloc-sites] [--base-port P] [--no-netns]

            Stock vs patched RocketMQ (the --line's release) on the 2m-2s cluster (loopback unless --net realistic): for every
            scenario (threads x sizes) K rounds, each round a fresh cluster and store per distribution,
            alternating stock, patched, stock, patched ... A warm-up load of S seconds on its own topic is not measured (read back and judged apart); then the measured load
            runs for --seconds (paced with --rate, else saturated) and everything acknowledged is read back.
            With --lines the arms are the stock and patched builds of every line named ("4.9.0 stock", "4.9.0 patched",
            "4.9.8 stock", ...): each round runs every arm once on the same seeded messages, in that order on odd rounds
            and in reverse on even ones.
            Writes e2e/target/e2e/campaign-<timestamp>/ with campaign.json, report.md (over the rounds that count:
            passed, lossless, quiet machine, masters' JIT below 5 % of the baseline's median master CPU per
            message; medians, min-max, the ratio of
            every arm to the first, an exact permutation p per metric with Holm's correction over the metrics, and
            a verdict: "resolved" needs >= 5 counted rounds per arm, ranges apart and Holm-adjusted p <= 0.05,
            which over 15 metrics takes >= 6 counted rounds per arm; fewer is "indicative"; the masters' CPU per
            thread group) and PNG charts. Exits non-zero on any lost message.

              --rounds K      rounds per distribution and scenario (a quick look; a verdict
                              needs 6+ counted rounds, e.g. --rounds 7 --warmup 180 --warmup-jit 5)  [default: 3]
              --threads L     comma-separated sender thread counts                       [default: 16]
              --sizes L       comma-separated body sizes in bytes                        [default: 1024]
              --queues N      queues of the test topic on each master                    [default: 8]
              --rate N        paced load in msg/s (fixed schedule); 0 = saturated        [default: 4000]
                              (the default is ~65 % of what 16 threads with 1 KiB bodies reach here,
                              6.2-6.6k msg/s: CPU per message compares at a fixed rate; use --rate 0
                              for saturated TPS)
              --warmup S      unmeasured warm-up seconds per round (with --warmup-jit: at most)  [default: 20]
              --warmup-jit P  warm up in 15 s slices until the masters' JIT compiler used less than
                              P % of their CPU in two in a row (5 for a CPU claim); 0 = fixed --warmup  [default: 0]
              --warmup-rate N the warm-up load's msg/s, 0 = unpaced: a low --rate compiles the send path
                              slowly, e.g. --rate 250 --warmup-rate 2500  [default: the --rate]
              --seconds S     measured seconds per round                                 [default: 30]
              --ci            short check instead: kill -9 of a slave (restarted 3 s later), then the
                              store upgrade (stock -> patched) and rollback (patched -> stock) check,
                              then the replication promise (a slave frozen with SIGSTOP: its master
                              answers no SEND_OK) on stock and on patched+tuned (patched where the
                              line ships no tuned.properties); fails on any lost message or broken
                              promise (a few thousand messages, ~6 min here)
              --net N         loopback: every node on 127.0.0.1                          [default: loopback]
                              realistic: a network namespace and address per server, veth links shaped
                              to 1 Gbit/s and 0.03 ms each way (see bin/hotpath smoke --help); set up
                              once and used by every round; not with --no-netns
              --line R        release line: stock and patched are broker-dist/target/rocketmq-<R>-{stock,patched}
                              (patches/<R>/line.properties)                               [default: the newest]
              --lines L       comma-separated release lines to compare, each complete: the arms are
                              every line's stock and patched build, the first line's stock the
                              baseline of every ratio; not with --line or --ci
              --arms L        comma-separated arms per line, in report order (the first is the baseline):
                              stock, stock+tuned, patched, patched+tuned; "+tuned" lays the line's
                              patches/<R>/tuned.properties over every broker's settings (never the
                              role, flush or replication: those stay the arm's)  [default: stock,patched];
                              any of them + "+async" (e.g. patched+tuned+async): a floor arm, masters
                              ASYNC_MASTER (no wait for the slave), what no HA lever can go below
              --tuned FILE    the tuned arms' configuration instead of the line's (a screen of a knob)
              --alloc-sites   after the measured rounds of a scenario, one profiled round per arm: the masters
                              also record JFR allocation samples with their stacks, and the report gains
                              the masters' allocated bytes per message by site (the innermost RocketMQ
                              frame). Its figures enter no statistic (the stack walks cost CPU); a lost
                              message in it still fails the campaign
              --base-port P   name server port                                           [default: 19876]
              --no-netns      run on the host network (brokers then listen on all interfaces)

            Defaults: 1 scenario x 3 rounds x 2 distributions x (~30 s boot + 20 s + 30 s + read-back and the
            smoke's extra phases) ~ 11 min; --lines with two lines: 4 arms, ~22 min.""";

    public static CampaignOptions parse(String... args) {
        // a quick look: 3 vs 3 rounds can only be "indicative" (CampaignVerdicts)
        int rounds = 3;
        List<Integer> threads = List.of(16);
        List<Integer> sizes = List.of(1024);
        int queues = 8;
        // paced by default: master CPU per message is only comparable at a fixed rate (saturated TPS varies
        // 6-13 % between runs here), at ~65 % of the default matrix's saturated rate on this 2-core machine
        int rate = 4000;
        int warmup = 20;
        int warmupJit = 0;
        int warmupRate = Warmup.MEASURED_RATE;
        int seconds = 30;
        boolean ci = false;
        int basePort = ClusterLayout.DEFAULT_BASE_PORT;
        boolean privateNetwork = true;
        boolean help = false;
        NetMode net = NetMode.LOOPBACK;
        String line = null;
        List<String> lines = List.of();
        List<String> armKinds = FLAVORS;
        Path tunedFile = null;
        boolean allocationSites = false;
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
                case "--ci" -> ci = true;
                case "--no-netns" -> privateNetwork = false;
                case "--alloc-sites" -> allocationSites = true;
                case "--net" -> net = NetMode.parse(value(option, inline, rest));
                case LineOption.LINE -> line = ReleaseLines.release(value(option, inline, rest));
                case LineOption.LINES -> lines = ReleaseLines.releases(value(option, inline, rest));
                case "--arms" -> armKinds = armKinds(value(option, inline, rest));
                case "--tuned" -> tunedFile = Path.of(value(option, inline, rest)).toAbsolutePath().normalize();
                case "--rounds" -> rounds = number(option, value(option, inline, rest), 1, 100);
                case "--threads" -> threads = numbers(option, value(option, inline, rest), 1, 1024);
                case "--sizes" -> sizes = numbers(option, value(option, inline, rest), 1, SmokeOptions.MAX_BODY_SIZE);
                case "--queues" -> queues = number(option, value(option, inline, rest), 1, 256);
                case "--rate" -> rate = number(option, value(option, inline, rest), 0, 1_000_000);
                case "--warmup" -> warmup = number(option, value(option, inline, rest), 0, 3600);
                case "--warmup-jit" -> warmupJit = number(option, value(option, inline, rest), 0, 99);
                case "--warmup-rate" -> warmupRate = number(option, value(option, inline, rest), 0, 1_000_000);
                case "--seconds" -> seconds = number(option, value(option, inline, rest), 1, 3600);
                case "--base-port" -> basePort = number(option, value(option, inline, rest),
                        ClusterLayout.MIN_BASE_PORT, ClusterLayout.MAX_BASE_PORT);
                default -> throw new UsageException((arg.startsWith("-") ? "unknown option '" : "unexpected argument '")
                        + arg + "' for campaign (see bin/hotpath campaign --help)");
            }
        }
        SmokeOptions.checkNet(net, privateNetwork);
        ReleaseLines.oneOf(line, lines);
        if (!lines.isEmpty() && ci) {
            throw new UsageException("--ci checks one line's store upgrade and rollback: give it " + LineOption.LINE + ", not "
                    + LineOption.LINES);
        }
        if (warmupJit > 0 && warmup == 0) {
            throw new UsageException("--warmup-jit needs a --warmup above 0: it is the warm-up's limit");
        }
        if (warmupRate != Warmup.MEASURED_RATE && warmup == 0) {
            throw new UsageException("--warmup-rate paces the warm-up: give a --warmup above 0 too");
        }
        if (ci && !armKinds.equals(FLAVORS)) {
            throw new UsageException("--ci runs its own check of stock and patched: give it no --arms");
        }
        if (ci && allocationSites) {
            throw new UsageException("--alloc-sites adds profiled rounds to a campaign: not with --ci");
        }
        if (tunedFile != null && armKinds.stream().noneMatch(kind -> kind.contains(TUNED_SUFFIX))) {
            throw new UsageException("--tuned names the configuration of the tuned arms: give --arms with stock+tuned"
                    + " or patched+tuned too");
        }
        return new CampaignOptions(rounds, threads, sizes, queues, rate, warmup, warmupJit, warmupRate, seconds, ci, basePort, privateNetwork, help, net,
                line, lines, armKinds, tunedFile, allocationSites);
    }

    /**
     * {@code --arms} (of the campaign, and of {@code bin/hotpath idle}): kinds of {@link #ARM_KINDS}, each once, in report
     * order (the first is every ratio's baseline).
     */
    public static List<String> armKinds(String text) {
        List<String> kinds = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String kind = part.strip();
            if (!ARM_KINDS.contains(kind)) {
                throw new UsageException("--arms takes comma-separated arms of " + String.join(", ", ARM_KINDS) + ", got '"
                        + text + "'");
            }
            if (kinds.contains(kind)) {
                throw new UsageException("--arms names " + kind + " twice, got '" + text + "'");
            }
            kinds.add(kind);
        }
        if (kinds.size() < 2) {
            throw new UsageException("--arms needs at least two arms to compare, got '" + text + "'");
        }
        return List.copyOf(kinds);
    }

    /**
     * The arms the campaign compares, in report order (the first is the baseline): stock and patched of the
     * {@code --line} (named by flavor, as a campaign of one line always has), or of every {@code --lines} line
     * ("4.9.0 stock"). Every line must be known; a partial one runs when named ({@link Partial#ACCEPTED}), never by default.
     */
    public List<Arm> arms(Path projectRoot) {
        return arms(resolvedLines(projectRoot));
    }

    /**
     * The campaign's lines, each resolved once: the {@code --line} (or the newest complete one), or every
     * {@code --lines} line, in the order given; keyed by release.
     */
    public Map<String, ReleaseLine> resolvedLines(Path projectRoot) {
        Map<String, ReleaseLine> resolved = new LinkedHashMap<>();
        ReleaseLines.usage(() -> LineOption.resolve(line, lines, projectRoot.resolve("patches"), Partial.ACCEPTED))
                .forEach(releaseLine -> resolved.put(releaseLine.release(), releaseLine));
        return resolved;
    }

    /** {@link #arms(Path)} of lines already resolved by {@link #resolvedLines}. */
    public List<Arm> arms(Map<String, ReleaseLine> resolved) {
        List<Arm> arms = new ArrayList<>();
        resolved.keySet().forEach(release -> armKinds.forEach(kind -> arms.add(Arm.of(lines.isEmpty() ? kind : release + " " + kind,
                release, kind))));
        return List.copyOf(arms);
    }

    /**
     * The order the arms run in {@code round} (from 1). With {@code --lines}, reversed on even rounds: a drift
     * across a round (a warming machine, a filling disk) would otherwise always favour the same arms. A campaign
     * of one line with two arms keeps the stock, patched order it has always had.
     */
    public List<Arm> roundOrder(List<Arm> arms, int round) {
        if ((lines.isEmpty() && arms.size() <= 2) || round % 2 == 1) {
            return arms;
        }
        List<Arm> reversed = new ArrayList<>(arms);
        Collections.reverse(reversed);
        return List.copyOf(reversed);
    }

    /**
     * A tuned arm's overlay on {@code line}: the {@code --tuned} file, else the line's own tuned.properties; a usage
     * error when there is none or it sets what a tuned configuration may not.
     */
    public TunedConfig tuning(ReleaseLine line) {
        return ReleaseLines.usage(() -> tunedFile != null ? TunedConfig.load(tunedFile) : TunedConfig.of(line));
    }

    /** Whether {@code line} has a tuned configuration: the {@code --tuned} file, or the line's own tuned.properties. */
    public boolean hasTuning(ReleaseLine line) {
        return tunedFile != null || TunedConfig.shipped(line);
    }

    /**
     * The overlay of every line that has a tuned arm, keyed by release, each read once: the campaign lays them over
     * its tuned arms' brokers, and its preparation reads them before building anything.
     */
    public Map<String, TunedConfig> tunings(Map<String, ReleaseLine> resolved) {
        Map<String, TunedConfig> tunings = new LinkedHashMap<>();
        arms(resolved).stream().filter(Arm::tuned)
                .forEach(arm -> tunings.computeIfAbsent(arm.line(), release -> tuning(resolved.get(release))));
        return tunings;
    }

    /** The warm-up of every measured round. */
    public Warmup warmup() {
        return new Warmup(warmupSeconds, warmupJitPercent / 100.0, warmupRate);
    }

    /** One measured round of a scenario (the arm's distribution is the caller's). */
    RoundSpec round(int threadCount, int bodySize) {
        return RoundSpec.timed(seconds, rate, threadCount, bodySize, queues, FaultScenario.NONE);
    }

    private static String value(String option, String inline, List<String> rest) {
        if (inline != null) {
            return inline;
        }
        if (rest.isEmpty() || rest.get(0).startsWith("-")) {
            throw new UsageException("option " + option + " needs a value (see bin/hotpath campaign --help)");
        }
        return rest.remove(0);
    }

    private static List<Integer> numbers(String option, String text, int min, int max) {
        List<Integer> values = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            values.add(number(option, part.strip(), min, max));
        }
        return List.copyOf(values);
    }

    private static int number(String option, String text, int min, int max) {
        return SmokeOptions.number(option, text, min, max);
    }
}
