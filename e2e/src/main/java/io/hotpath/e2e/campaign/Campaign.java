package io.hotpath.e2e.campaign;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.check.ReplicationPromiseCheck;
import io.hotpath.e2e.check.StoreCompatibilityCheck;
import io.hotpath.e2e.load.ClientLogging;
import io.hotpath.e2e.node.ClusterNetwork;
import io.hotpath.e2e.run.Round;
import io.hotpath.e2e.run.RoundResult;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.FaultScenario;
import io.hotpath.e2e.spec.RoundSpec;
import io.hotpath.e2e.spec.Warmup;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/hotpath campaign}: repeats {@link Round} for stock and patched in alternating
 * rounds (A B A B, a fresh cluster and store each) over a matrix of threads and body sizes, and writes
 * {@code campaign-<timestamp>/} with {@link CampaignReport}'s JSON, Markdown and charts. With {@code --lines}
 * the arms are stock and patched of several lines, each round running every arm once
 * ({@link CampaignOptions#roundOrder}). {@code --ci} runs
 * the short check instead: one patched run with a slave killed mid-run, one run of patched with the line's tuned
 * configuration with a master killed mid-run and restarted, then {@link StoreCompatibilityCheck}, then
 * {@link ReplicationPromiseCheck} on stock and on patched with the line's tuned configuration.
 * Exit 0 when every run passed (no acknowledged message lost, no failed send its fault does not expect: a
 * saturated {@code --rate 0} round the broker answered with flow control fails too), 1 otherwise, 2 on bad
 * input (io.hotpath.e2e.cli.CampaignCommand).
 */
public final class Campaign {

    /** CI: a few thousand messages: 12 s at 300 msg/s, the slave killed at 6 s. */
    private static final int CI_SECONDS = 12;
    private static final int CI_RATE = 300;
    /** Enough synchronous senders to hold 300 msg/s at the ~30-50 ms RT of a cold cluster. */
    private static final int CI_THREADS = 24;
    private static final int CI_COMPAT_MESSAGES = 2000;

    private Campaign() {
    }

    /**
     * Runs the campaign (or {@code --ci}'s check) of {@code options} into {@code dir}; true when every run passed.
     * The caller has checked that this runs in a private network namespace (or {@code --no-netns}).
     */
    public static boolean run(CampaignOptions options, Path projectRoot, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        ClientLogging.logTo(dir.resolve("client-logs"));
        Map<String, ReleaseLine> lines = options.resolvedLines(projectRoot);
        for (ReleaseLine line : lines.values()) {
            if (!line.complete()) {
                // named on the command line (never a default): measuring a line is part of finishing it
                Console.warn("release line " + line.release() + " is partial (complete=false in its " + ReleaseLine.DESCRIPTOR
                        + "): its patched arm carries the patches the line has so far, and the verdicts judge those");
            }
        }
        Map<String, TunedConfig> tunings = options.tunings(lines);
        Map<Arm, Distribution> distributions = new LinkedHashMap<>();
        for (Arm arm : options.arms(lines)) {
            Distribution distribution = Distribution.resolve(arm.flavor(), lines.get(arm.line()), projectRoot);
            Distribution tuned = arm.tuned() ? distribution.tuned(tunings.get(arm.line())) : distribution;
            distributions.put(arm, arm.asyncMasters() ? tuned.withAsyncMasters() : tuned);
        }
        ClusterLayout layout = new ClusterLayout(options.basePort(), options.net());
        layout.checkPortsFree();
        // one network for the whole campaign: every round of every arm runs on the same links
        try (ClusterNetwork network = ClusterNetwork.open(layout, dir.resolve("network"))) {
            return options.ci() ? ci(options, distributions, lines, network, dir) : campaign(options, distributions, network, dir);
        }
    }

    private static boolean campaign(CampaignOptions options, Map<Arm, Distribution> distributions, ClusterNetwork network, Path dir)
            throws IOException, InterruptedException {
        List<Arm> arms = List.copyOf(distributions.keySet());
        List<CampaignReport.ArmRound> rounds = new ArrayList<>();
        List<CampaignReport.ArmRound> profiled = new ArrayList<>();
        int total = options.threads().size() * options.sizes().size() * (options.rounds() + (options.allocationSites() ? 1 : 0))
                * distributions.size();
        int done = 0;
        long start = System.nanoTime();
        for (int threads : options.threads()) {
            for (int size : options.sizes()) {
                String scenario = "w" + threads + " s" + size + " t" + options.queues();
                for (int round = 1; round <= options.rounds(); round++) {
                    for (Arm arm : options.roundOrder(arms, round)) {
                        Console.progress("campaign: run %d/%d (%s, round %d, %s), %.0f s elapsed", done + 1, total, scenario, round,
                                arm.label(), (System.nanoTime() - start) / 1e9);
                        Path runDir = dir.resolve(String.format(Locale.ROOT, "w%d-s%d-r%d-%s", threads, size, round,
                                arm.label().replace(' ', '-')));
                        // one run id for every arm of a round: the same seeded corpus, byte for byte
                        String runId = String.format(Locale.ROOT, "%s-w%d-s%d-r%d", dir.getFileName(), threads, size, round);
                        RoundResult result = Round.run(runDir, runId, distributions.get(arm), network,
                                options.round(threads, size), options.warmup());
                        System.out.print(result.summary());
                        rounds.add(new CampaignReport.ArmRound(scenario, round, arm, result));
                        done++;
                        // rewrite after every round: an interrupted campaign still leaves what it measured
                        new CampaignReport(rounds, profiled, arms).write(dir, options, header(distributions, network));
                    }
                }
                if (options.allocationSites()) {
                    // after the measured rounds, so that none of them follows a profiled one; the same corpus as round 1
                    for (Arm arm : arms) {
                        Console.progress("campaign: run %d/%d (%s, profiled round: allocation sites, %s), %.0f s elapsed", done + 1,
                                total, scenario, arm.label(), (System.nanoTime() - start) / 1e9);
                        Path runDir = dir.resolve(String.format(Locale.ROOT, "w%d-s%d-profiled-%s", threads, size,
                                arm.label().replace(' ', '-')));
                        String runId = String.format(Locale.ROOT, "%s-w%d-s%d-r1", dir.getFileName(), threads, size);
                        RoundResult result = Round.run(runDir, runId, distributions.get(arm), network, options.round(threads, size),
                                options.warmup(), true);
                        System.out.print(result.summary());
                        profiled.add(new CampaignReport.ArmRound(scenario, 0, arm, result));
                        done++;
                        new CampaignReport(rounds, profiled, arms).write(dir, options, header(distributions, network));
                    }
                }
            }
        }
        Console.progress("campaign done in %.0f s: %s", (System.nanoTime() - start) / 1e9, dir.resolve("report.md"));
        List<RoundResult> results = new ArrayList<>(rounds.stream().map(CampaignReport.ArmRound::result).toList());
        profiled.forEach(round -> results.add(round.result()));
        return verdict(results, List.of(), List.of());
    }

    /** {@code distributions}: stock and patched of the one {@code --line} (the options refuse --ci with --lines). */
    private static boolean ci(CampaignOptions options, Map<Arm, Distribution> distributions, Map<String, ReleaseLine> lines,
                              ClusterNetwork network, Path dir) throws IOException, InterruptedException {
        List<Distribution> builds = List.copyOf(distributions.values());
        Distribution stock = builds.get(0);
        Distribution patched = builds.get(1);
        // the promise check's second arm: the tuned knobs move work between threads, and must keep what SEND_OK promises;
        // a line that ships no tuned configuration checks its patched build as it is
        ReleaseLine line = lines.get(patched.release());
        Distribution promiseArm = options.hasTuning(line) ? patched.tuned(options.tuning(line)) : patched;
        String promiseLabel = promiseArm.tuning() == null ? "patched" : "patched+tuned";
        String promiseTuning = promiseArm.tuning() == null ? " (the line ships no tuned configuration)"
                : " (" + promiseArm.tuning().describe() + ")";
        // the tuned build completes sends on the slave's acknowledgements (groupTransferAckFrontier): a slave that dies and
        // comes back mid-load must leave no acknowledged message behind
        Console.progress("ci 1/4: %s%s, %d s at %d msg/s, kill -9 of a slave half-way, restarted %d s later (the extra sends"
                + " follow in 2/4)", promiseLabel, promiseTuning, CI_SECONDS, CI_RATE, FaultScenario.SLAVE_DOWN.toSeconds());
        RoundResult slaveRound = Round.run(dir.resolve("ci-kill-slave-" + promiseLabel.replace('+', '-')), dir.getFileName() + "-ci",
                promiseArm, network, ciRound(options, FaultScenario.KILL_SLAVE_RESTART), Warmup.NONE);
        System.out.print(slaveRound.summary());
        // the build an operator runs tuned loses its master too: what it acknowledged before the kill must be there after
        // the restart (the round waits until the master listens and is registered again before it reads every queue back)
        Console.progress("ci 2/4: %s%s, %d s at %d msg/s, kill -9 of a master half-way, restarted %d s later", promiseLabel,
                promiseTuning, CI_SECONDS, CI_RATE, FaultScenario.MASTER_DOWN.toSeconds());
        RoundResult masterRound = Round.run(dir.resolve("ci-kill-master-" + promiseLabel.replace('+', '-')), dir.getFileName() + "-ci",
                promiseArm, network, ciRound(options, FaultScenario.KILL_MASTER), Warmup.NONE);
        System.out.print(masterRound.summary());
        Console.progress("ci 3/4: store upgrade and rollback");
        List<StoreCompatibilityCheck.Check> checks =
                new StoreCompatibilityCheck(stock, patched, network, dir.resolve("ci-compatibility"), CI_COMPAT_MESSAGES).run();
        Console.progress("ci 4/4: replication promise, a slave frozen with SIGSTOP: stock, then %s%s", promiseLabel, promiseTuning);
        List<ReplicationPromiseCheck.Report> promises = List.of(
                ReplicationPromiseCheck.run("stock", stock, network, dir.resolve("ci-promise-stock")),
                ReplicationPromiseCheck.run(promiseLabel, promiseArm, network,
                        dir.resolve("ci-promise-" + promiseLabel.replace('+', '-'))));
        StringBuilder report = new StringBuilder("# CI check\n\n").append(header(distributions, network))
                .append("\n\n## kill -9 of a slave, restarted ").append(FaultScenario.SLAVE_DOWN.toSeconds())
                .append(" s later (the load only; the extra sends run in the kill-master round)\n\n```\n").append(slaveRound.summary())
                .append("```\n\n## kill -9 of a master, restarted ").append(FaultScenario.MASTER_DOWN.toSeconds()).append(" s later (")
                .append(promiseLabel).append(")\n\n```\n").append(masterRound.summary())
                .append("```\n\n## Store compatibility\n\n```\n");
        checks.forEach(check -> report.append(check.line()).append('\n'));
        report.append("```\n\n## Replication promise: no SEND_OK from a SYNC_MASTER whose slave is frozen (SIGSTOP)\n\n```\n");
        promises.forEach(promise -> report.append(promise.line()).append('\n'));
        report.append("```\n");
        Files.writeString(dir.resolve("report.md"), report.toString());
        return verdict(List.of(slaveRound, masterRound), checks, promises);
    }

    /**
     * A faulted round of the CI check: a count of exactly what 12 s at 300 msg/s sends (the ledger needs no timed capacity).
     * The extra sends (V1 headers, batch, relay, send-back, newer clients) run in the kill-master round, after broker-a is
     * back: with the slave left dead each of their sends to broker-a waits out the client's 3 s, ~170 s of CI's hour
     * (campaign --ci, 2026-11-29) for the same checks on a degraded cluster; {@code smoke --fault kill-slave} keeps them.
     */
    private static RoundSpec ciRound(CampaignOptions options, FaultScenario fault) {
        return new RoundSpec(CI_SECONDS * CI_RATE, CI_THREADS, 1024, options.queues(), CI_SECONDS, CI_RATE, List.of(), fault, false, null,
                fault == FaultScenario.KILL_MASTER);
    }

    private static boolean verdict(List<RoundResult> results, List<StoreCompatibilityCheck.Check> checks,
                                   List<ReplicationPromiseCheck.Report> promises) {
        List<String> failures = new ArrayList<>();
        results.stream().filter(r -> !r.passed()).forEach(r -> failures.add(r.runDir().getFileName() + ": "
                + String.join("; ", r.failureReasons())));
        checks.stream().filter(c -> !c.report().passed()).forEach(c -> failures.add(c.phase() + " " + c.topic() + ": lost "
                + c.report().lost() + ", corrupt " + c.report().corrupt()));
        promises.stream().filter(p -> !p.passed()).forEach(p -> failures.add("replication promise " + p.label() + ": "
                + String.join("; ", p.problems())));
        if (!failures.isEmpty()) {
            Console.error("campaign failed: " + failures);
        }
        return failures.isEmpty();
    }

    private static String header(Map<Arm, Distribution> distributions, ClusterNetwork network) {
        StringBuilder out = new StringBuilder();
        distributions.forEach((arm, distribution) -> out.append("- ").append(arm.label()).append(": ").append(distribution.home())
                .append(distribution.patches().isEmpty() ? "" : " (patches " + distribution.patches() + ")")
                .append(distribution.tuning() == null ? "" : "; tuned: " + distribution.tuning().describe()
                        + " (" + distribution.tuning().file().getFileName() + ")")
                .append(distribution.asyncMasters() ? "; masters ASYNC_MASTER: a floor (no wait for the slave), not a candidate" : "")
                .append('\n'));
        out.append("- network: ").append(network.summary().describe()).append('\n');
        out.append("- machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores (whether other processes used them is stated per round below)");
        return out.toString();
    }
}
