package io.hotpath.e2e.idle;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.campaign.Arm;
import io.hotpath.e2e.campaign.RoundFigures;
import io.hotpath.e2e.load.ClientLogging;
import io.hotpath.e2e.measure.ClusterCpuSnapshot;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.node.ClusterNetwork;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.NetMode;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * {@code bin/hotpath idle}: for each round and arm a fresh 2m-2s cluster that is sent nothing: boot, settle, one window
 * between two {@link ClusterCpuSnapshot}s of every node and this JVM, stop (every node by PID: {@link LocalCluster}); then
 * {@link IdleReport} into the run directory and the report folder, rewritten after every round so that an interrupted
 * run still leaves what it measured. The brokers run as an operator runs them: no JFR recording, no profiler.
 */
public final class IdleRun {

    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);
    /** How often a progress line is printed while a cluster settles or is sampled. */
    private static final int PROGRESS_SECONDS = 10;
    /** The probe window of {@link #settleJit}: long enough for a compile burst not to hide in it, short enough to waste little. */
    private static final int JIT_PROBE_SECONDS = 30;
    /** Probes in a row under the share that end the settling: the JIT's share jumps back now and then. */
    private static final int WARM_PROBES = 2;

    private IdleRun() {
    }

    /**
     * Runs {@code options} into {@code dir} (run directories, report copy) and {@code options.outDir}; true when every round
     * was sampled. The caller has checked that this runs in a private network namespace (or {@code --no-netns}).
     */
    public static boolean run(IdleOptions options, Path projectRoot, Path dir, String command) throws IOException, InterruptedException {
        ReleaseLine line = options.releaseLine(projectRoot);
        List<Arm> arms = options.arms(line);
        Map<Arm, Distribution> distributions = new LinkedHashMap<>();
        for (Arm arm : arms) {
            Distribution distribution = Distribution.resolve(arm.flavor(), line, projectRoot);
            distribution = arm.tuned() ? distribution.tuned(ReleaseLines.usage(() -> TunedConfig.of(line))) : distribution;
            distributions.put(arm, arm.asyncMasters() ? distribution.withAsyncMasters() : distribution);
        }
        ClusterLayout layout = new ClusterLayout(options.basePort(), NetMode.LOOPBACK);
        layout.checkPortsFree();
        Files.createDirectories(dir);
        ClientLogging.logTo(dir.resolve("client-logs"));
        List<String> described = new ArrayList<>();
        distributions.forEach((arm, d) -> described.add(arm.label() + ": " + d.home()
                + (d.patches().isEmpty() ? "" : " (patches " + d.patches() + ")")
                + (d.tuning() == null ? "" : "; tuned: " + d.tuning().describe() + " (" + d.tuning().file().getFileName() + ")")
                + (d.asyncMasters() ? "; masters ASYNC_MASTER" : "")));
        IdleReport.Setup setup = new IdleReport.Setup(command, LocalDate.now(ZoneOffset.UTC).toString(), line.release(),
                arms.stream().map(Arm::label).toList(), described, options.rounds(), options.settleSeconds(), options.maxSettleSeconds(), options.seconds(),
                Runtime.getRuntime().availableProcessors());
        Path outDir = options.outDir(projectRoot);
        List<IdleRound> rounds = new ArrayList<>();
        int total = options.rounds() * arms.size();
        long start = System.nanoTime();
        Path report = null;
        try (ClusterNetwork network = ClusterNetwork.open(layout, dir.resolve("network"))) {
            for (int round = 1; round <= options.rounds(); round++) {
                for (Arm arm : IdleOptions.roundOrder(arms, round)) {
                    Console.progress("idle: run %d/%d (round %d, %s), %.0f s elapsed", rounds.size() + 1, total, round, arm.label(),
                            (System.nanoTime() - start) / 1e9);
                    Path runDir = dir.resolve(String.format(Locale.ROOT, "r%d-%s", round, arm.label().replace('+', '-')));
                    double basis = settleBasis(rounds, arms.get(0).label());
                    rounds.add(round(options, round, arm, distributions.get(arm), network, runDir, basis));
                    IdleReport idle = new IdleReport(setup, rounds);
                    idle.write(dir);
                    report = idle.write(outDir);
                }
            }
        }
        Console.progress("idle done in %.0f s: %s (and .json)", (System.nanoTime() - start) / 1e9, report);
        return true;
    }

    /** One arm's round: a fresh cluster, settled, one window sampled, stopped; its store deleted. */
    private static IdleRound round(IdleOptions options, int round, Arm arm, Distribution distribution, ClusterNetwork network, Path runDir,
                                   double basis) throws InterruptedException {
        LocalCluster cluster = new LocalCluster(distribution, network, runDir, List.of());
        IdleFigures figures;
        int settled;
        try (cluster) {
            cluster.start(BOOT_TIMEOUT);
            Map<String, Long> pids = new LinkedHashMap<>();
            Map<String, String> roles = new LinkedHashMap<>();
            for (ClusterLayout.Node node : cluster.layout().nodes()) {
                pids.put(node.name(), cluster.process(node.name()).pid());
                roles.put(node.name(), !node.isBroker() ? IdleFigures.NAMESRV : node.isMaster() ? IdleFigures.MASTER : IdleFigures.SLAVE);
            }
            pids.put(IdleFigures.CONTROLLER, ProcessHandle.current().pid());
            roles.put(IdleFigures.CONTROLLER, IdleFigures.CONTROLLER);
            wait(cluster, options.settleSeconds(), elapsed -> String.format(Locale.ROOT, "idle: %s round %d settling, %d/%d s (no load)",
                    arm.label(), round, elapsed, options.settleSeconds()));
            settled = settleJit(cluster, options, round, arm, pids, roles, basis);
            ClusterCpuSnapshot first = ClusterCpuSnapshot.take(pids);
            wait(cluster, options.seconds(), elapsed -> {
                IdleFigures sofar = IdleFigures.between(first, ClusterCpuSnapshot.take(pids), roles);
                return String.format(Locale.ROOT, "idle: %s round %d sampling, %d/%d s: %s", arm.label(), round, elapsed, options.seconds(),
                        line(sofar));
            });
            ClusterCpuSnapshot last = ClusterCpuSnapshot.take(pids);
            cluster.checkAlive();
            figures = IdleFigures.between(first, last, roles);
        }
        cluster.deleteStores();
        Console.progress("idle: %s round %d: %s", arm.label(), round, line(figures));
        return new IdleRound(round, arm.label(), distribution.release(), distribution.flavor(), runDir.toString(),
                figures.otherCpu().load().label(), settled, figures);
    }

    /**
     * After the fixed settle time, more settling in {@link #JIT_PROBE_SECONDS} probes until the masters' JIT compiler was
     * warm ({@link #warm}) in {@link #WARM_PROBES} probes in a row, at most until {@code --max-settle} from boot. An idle
     * broker reaches its hot loops a few hundred times a second, not millions: C2 was still 8-15 % of an idle 5.5.1
     * master's CPU 60 s after boot, so a fixed settle time left most rounds uncounted; and one probe under the share was
     * followed by a window at 7.3 % (stock 5.5.1, 2026-11-29), as in the campaign's warm-up. The window's own JIT still
     * decides whether the round counts. Returns the seconds settled since boot.
     */
    private static int settleJit(LocalCluster cluster, IdleOptions options, int round, Arm arm, Map<String, Long> pids,
                                  Map<String, String> roles, double basis) throws InterruptedException {
        int settled = options.settleSeconds();
        int warmProbes = 0;
        while (settled + JIT_PROBE_SECONDS <= options.maxSettleSeconds()) {
            ClusterCpuSnapshot before = ClusterCpuSnapshot.take(pids);
            int start = settled;
            wait(cluster, JIT_PROBE_SECONDS, elapsed -> String.format(Locale.ROOT, "idle: %s round %d settling the JIT, %d s (at most %d)",
                    arm.label(), round, start + elapsed, options.maxSettleSeconds()));
            settled += JIT_PROBE_SECONDS;
            IdleFigures probe = IdleFigures.between(before, ClusterCpuSnapshot.take(pids), roles);
            double share = probe.masterJitShare();
            warmProbes = warm(probe, basis) ? warmProbes + 1 : 0;
            String measured = share < 0 ? "idle" : String.format(Locale.ROOT, "%.1f %% of their CPU (%s ms/s per master)", 100 * share,
                    IdleReport.num(probe.masterJitMsPerSecond()));
            if (warmProbes == WARM_PROBES) {
                Console.progress("idle: %s round %d: masters' JIT %s in the last %d s, under %s in %d probes in a row,"
                        + " settled after %d s", arm.label(), round, measured, JIT_PROBE_SECONDS, budget(basis), WARM_PROBES, settled);
                return settled;
            }
            Console.progress("idle: %s round %d: masters' JIT %s in the last %d s, settling on", arm.label(), round, measured,
                    JIT_PROBE_SECONDS);
        }
        Console.progress("idle: %s round %d: --max-settle %d s reached, the JIT not yet settled; sampling (the round counts only if"
                + " the JIT is under %s in the window)", arm.label(), round, options.maxSettleSeconds(), budget(basis));
        return settled;
    }

    /**
     * The basis of the settling's JIT budget: the median master CPU (ms/s per master) of the baseline's rounds so far, the
     * basis the report's counting rule uses ({@link IdleReport}: the JIT under {@link RunMetrics#WARM_JIT_SHARE} of the
     * baseline's median master CPU); -1 before the baseline's first round. Judged by its own CPU instead, an arm that
     * idles at a quarter of the baseline's CPU needs its JIT four times quieter to settle than to count, and its rounds ran
     * to --max-settle (patched+tuned 5.5.1, 2026-11-29: every round, ~3 min each more than stock's).
     */
    static double settleBasis(List<IdleRound> rounds, String baseline) {
        return RoundFigures.baselineMedian(rounds.stream().map(r -> r.verdictFigures(IdleReport.METRICS)).toList(), baseline,
                IdleRound.SCENARIO, IdleReport.METRICS.get(0).key());
    }

    /**
     * A probe in which the masters' JIT was warm: under {@link RunMetrics#WARM_JIT_SHARE} of {@code basis} (ms/s per master),
     * or, with no basis yet, of the masters' own CPU. A probe whose masters used no CPU is warm.
     */
    static boolean warm(IdleFigures probe, double basis) {
        double share = probe.masterJitShare();
        if (share < 0) {
            return true;
        }
        return basis > 0 ? probe.masterJitMsPerSecond() < RunMetrics.WARM_JIT_SHARE * basis : share < RunMetrics.WARM_JIT_SHARE;
    }

    private static String budget(double basis) {
        return basis > 0 ? String.format(Locale.ROOT, "%s ms/s (%.0f %% of the baseline's median master CPU, %s ms/s)",
                IdleReport.num(RunMetrics.WARM_JIT_SHARE * basis), 100 * RunMetrics.WARM_JIT_SHARE, IdleReport.num(basis))
                : String.format(Locale.ROOT, "%.0f %% of their CPU", 100 * RunMetrics.WARM_JIT_SHARE);
    }

    /** The console's summary of a window: ms/s and wake-ups/s per process of each broker role, the machine. */
    private static String line(IdleFigures f) {
        return String.format(Locale.ROOT, "master %s ms/s, %s wake-ups/s; slave %s ms/s, %s wake-ups/s; name server %s ms/s;"
                        + " masters' JIT %s; other processes %s", IdleReport.num(f.cpu(IdleFigures.MASTER)),
                IdleReport.num(f.wakeups(IdleFigures.MASTER)), IdleReport.num(f.cpu(IdleFigures.SLAVE)),
                IdleReport.num(f.wakeups(IdleFigures.SLAVE)), IdleReport.num(f.cpu(IdleFigures.NAMESRV)),
                f.masterJitShare() < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * f.masterJitShare()),
                f.otherCpu().measured() ? String.format(Locale.ROOT, "%.1f %% of the machine (%s)", 100 * f.otherCpu().share(),
                        f.otherCpu().load().label()) : "not measured");
    }

    /** Progress every {@link #PROGRESS_SECONDS} while {@code seconds} pass; fails as soon as a node has died. */
    private static void wait(LocalCluster cluster, int seconds, IntFunction<String> progress)
            throws InterruptedException {
        long startNanos = System.nanoTime();
        long endNanos = startNanos + seconds * 1_000_000_000L;
        int next = PROGRESS_SECONDS;
        while (true) {
            long now = System.nanoTime();
            if (now >= endNanos) {
                return;
            }
            long tick = startNanos + next * 1_000_000_000L;
            Thread.sleep(Math.max(1, (Math.min(tick, endNanos) - now) / 1_000_000));
            cluster.checkAlive();
            if (System.nanoTime() >= tick && tick < endNanos) {
                try {
                    Console.progress("%s", progress.apply(next));
                } catch (RuntimeException e) {
                    if (e instanceof ClusterException) {
                        // a node gone between the liveness check and the reading: the round fails as checkAlive's would
                        throw e;
                    }
                    Console.progress("(progress unavailable: %s)", e);
                }
                next += PROGRESS_SECONDS;
            }
        }
    }
}
