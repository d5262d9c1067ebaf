package io.hotpath.e2e.run;

import com.google.gson.GsonBuilder;
import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.Ticker;
import io.hotpath.e2e.check.DeliveryAudit;
import io.hotpath.e2e.check.DeliveryLateness;
import io.hotpath.e2e.check.FailedSends;
import io.hotpath.e2e.check.NewerClientCheck;
import io.hotpath.e2e.check.PersistedPropertiesCheck;
import io.hotpath.e2e.check.Verifier;
import io.hotpath.e2e.check.WarmupVerdict;
import io.hotpath.e2e.load.CompatSends;
import io.hotpath.e2e.load.ConsumerSendBacks;
import io.hotpath.e2e.load.LoadProducer;
import io.hotpath.e2e.load.LoadResult;
import io.hotpath.e2e.load.RelaySends;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.load.TimedSends;
import io.hotpath.e2e.measure.BrokerFlightRecording;
import io.hotpath.e2e.measure.LoadWindowRecorder;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.measure.WindowCompilations;
import io.hotpath.e2e.measure.ThreadCpuTimes;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import io.hotpath.e2e.node.ClusterNetwork;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.node.ManagedProcess;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.FaultScenario;
import io.hotpath.e2e.spec.RoundSpec;
import io.hotpath.e2e.spec.Warmup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * One round: a fresh 2m-2s cluster of one distribution, the measured load with its fault, the sends besides it, the
 * read-back of everything acknowledged, the cost figures, stop. The smoke runs one round per distribution; the campaign
 * repeats them per arm.
 */
public final class Round {

    public static final String TOPIC = "hotpath_smoke";
    /** Topic of the warm-up load: not measured, read back and judged apart ({@link WarmupVerdict}). */
    public static final String WARMUP_LOAD_TOPIC = "hotpath_warmup_load";
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration TOPIC_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(5);
    /** How long a failed run waits for the newer-client checks still running to stop their JVMs (each: SIGTERM, 5 s, SIGKILL). */
    private static final Duration CLIENT_STOP_WAIT = Duration.ofSeconds(30);

    private Round() {
    }

    /**
     * One run on a fresh cluster in {@code runDir}: boot, an optional {@code warmup} load
     * on its own topic (not measured; read back and judged apart: {@link WarmupVerdict}), the measured load with the fault of
     * {@code options}, the read-back of everything acknowledged, stop; the stores are deleted after a pass
     * unless {@code --keep-store}. The unit a smoke runs once per distribution and a campaign repeats.
     *
     * <p>{@code runId} seeds the message corpus and is stored in every message: arms that are compared must
     * share it, or their messages differ in content and size (a flavor name in it alone moves CommitLog
     * bytes per message by its length).
     */
    public static RoundResult run(Path runDir, String runId, Distribution distribution, ClusterNetwork network, RoundSpec options,
                                  Warmup warmup) throws IOException, InterruptedException {
        return run(runDir, runId, distribution, network, options, warmup, false);
    }

    /**
     * {@link #run(Path, String, Distribution, ClusterNetwork, RoundSpec, Warmup)}; with {@code allocationSites} a
     * profiled round: the brokers also record allocation samples with their stacks, which cost CPU, and the round's
     * figures gain the masters' allocation by site ({@link RunMetrics#masterAllocationSitesBytesPerMessage()}).
     */
    public static RoundResult run(Path runDir, String runId, Distribution distribution, ClusterNetwork network, RoundSpec options,
                                  Warmup warmup, boolean allocationSites) throws IOException, InterruptedException {
        RunRecordKeeper record = new RunRecordKeeper(runDir, options.runRecord());
        try {
            return run(runDir, runId, distribution, network, options, warmup, allocationSites, record);
        } catch (Throwable e) {
            record.stopWithoutVerdict();
            throw e;
        }
    }

    private static RoundResult run(Path runDir, String runId, Distribution distribution, ClusterNetwork network,
                                   RoundSpec options, Warmup warmup, boolean allocationSites, RunRecordKeeper record)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        ClusterLayout layout = network.layout();
        Files.createDirectories(runDir);
        SeededMessages messages = new SeededMessages(TOPIC, runId, options.bodySize());
        List<String> brokerJvm = new ArrayList<>(BrokerFlightRecording.jvmOptions(runDir, allocationSites));
        brokerJvm.addAll(options.brokerJvmOptions());
        LoadResult load;
        ExtraSends extra;
        Verified verified;
        List<WarmupSlice> warmupSlices = List.of();
        WarmupSlice primer = null;
        WarmupVerdict warmupVerdict = null;
        double bootSeconds;
        RunMetrics metrics;
        LocalCluster cluster = new LocalCluster(distribution, network, runDir, List.of(), brokerJvm);
        LoadWindowRecorder window = new LoadWindowRecorder(cluster, runDir);
        try (cluster) {
            cluster.start(BOOT_TIMEOUT);
            bootSeconds = (System.nanoTime() - start) / 1e9;
            record.update(RunRecord.booted(distribution.release(), distribution.flavor(), runDir, nodes(cluster), options.messages()));
            cluster.createTopic(TOPIC, options.queuesPerMaster(), TOPIC_TIMEOUT);
            cluster.createTopic(CompatSends.TOPIC, CompatSends.QUEUES_PER_MASTER, TOPIC_TIMEOUT);
            cluster.createTopic(RelaySends.TOPIC, RelaySends.QUEUES_PER_MASTER, TOPIC_TIMEOUT);
            cluster.createTopic(TimedSends.TOPIC, TimedSends.QUEUES_PER_MASTER, TOPIC_TIMEOUT);
            List<NewerClientCheck.Client> newerClients = NewerClientCheck.clientsFor(distribution.release());
            for (NewerClientCheck.Client client : newerClients) {
                cluster.createTopic(client.topic(), NewerClientCheck.QUEUES_PER_MASTER, TOPIC_TIMEOUT);
            }
            if (warmup.maxSeconds() > 0) {
                primer = primeMeasuredTopic(cluster, runId, options);
                warmupSlices = warmUp(cluster, runId, options, warmup);
            }
            record.update(record.current().loadStarted(System.currentTimeMillis()));
            Console.progress("sending %d messages of %d bytes to %s (%d queues on each of %s) from %d threads%s",
                    options.messages(), options.bodySize(), TOPIC, options.queuesPerMaster(), layout.brokerNames(), options.threads(),
                    loadShape(options));
            try (FaultTimer ignored = FaultTimer.schedule(options, cluster)) {
                load = new LoadProducer(cluster.namesrvAddress(),
                        new LoadProducer.LoadSpec(messages, options.messages(), options.threads(), options.seconds(), options.rate()),
                        window).run();
            }
            record.update(record.current().loadFinished(System.currentTimeMillis(), load.sent(), load.acked()));
            Console.progress("sent %d: acked %d, failed %d in %.1f s; reading every queue back", load.sent(), load.acked(),
                    load.failed(), load.seconds());
            // the brokers' JFR allocation counters tick every second: the sample after the load must not see the read-back
            Thread.sleep(BrokerFlightRecording.SETTLE.toMillis());
            cluster.checkAlive();
            // after the load window and its settle time, each to a topic of its own: no load metric sees these
            if (options.extraSends()) {
                extra = sendExtras(cluster.namesrvAddress(), runDir, runId, options.bodySize(),
                        NewerClientCheck.toleratesBatchSeparatorDefect(distribution), newerClients, hasTimer(distribution),
                        !options.fault().midRun());
            } else {
                Console.progress("extra sends: %s", EXTRAS_NOT_ASKED);
                extra = ExtraSends.NONE;
            }
            if (options.fault() != FaultScenario.RESTART_CLUSTER) {
                verified = verifyAll(cluster.namesrvAddress(), messages, load, primer, extra);
                warmupVerdict = verifyWarmup(cluster.namesrvAddress(), warmupSlices, distribution.release());
            } else {
                verified = null;
            }
        }
        // after the stop: the JFR recordings are written on exit, and no broker writes the CommitLog any more
        metrics = collectMetrics(cluster, window, load);
        // the CommitLog records as the masters wrote them, before the stores may be deleted (PersistedPropertiesCheck)
        PersistedPropertiesCheck.record(cluster, layout, runDir, TOPIC);
        if (verified == null) {
            Console.progress("fault: whole cluster stopped after the load; starting it again on the same stores");
            try (LocalCluster restarted = new LocalCluster(distribution, network, runDir, List.of(), brokerJvm)) {
                restarted.start(BOOT_TIMEOUT);
                verified = verifyAll(restarted.namesrvAddress(), messages, load, primer, extra);
                warmupVerdict = verifyWarmup(restarted.namesrvAddress(), warmupSlices, distribution.release());
            }
        }
        RoundResult result = new RoundResult(distribution.flavor(), distribution, runDir, options, load, verified.all(),
                verified.extraReadBacks(), failedSends(options, distribution, load, primer, extra), bootSeconds, (System.nanoTime() - start) / 1e9, metrics,
                network.summary(), warmupVerdict, extra.timed() == null
                        ? DeliveryLateness.skipped(options.extraSends() ? TIMED_SKIPPED_UNDER_FAULT : EXTRAS_NOT_ASKED)
                        : DeliveryLateness.judge(extra.timed(), options.fault().midRun()));
        if (result.passed() && !options.keepStore()) {
            cluster.deleteStores();
        }
        result.writeJson();
        record.update(record.current().stopped(result.passed()));
        return result;
    }

    /** Every send of the run that was not acknowledged, by phase: the load, then the extra sends in the order they ran. */
    private static FailedSends failedSends(RoundSpec options, Distribution distribution, LoadResult load, WarmupSlice primer,
                                           ExtraSends extra) {
        Map<String, SendLedger> ledgers = new LinkedHashMap<>();
        ledgers.put(FailedSends.LOAD, load.ledger());
        if (primer != null) {
            ledgers.put(PRIMER, primer.load().ledger());
        }
        if (extra.compat() != null) {
            ledgers.put(CompatSends.TOPIC + " by 4.9.0", extra.compat().ledger());
            ledgers.put(RelaySends.TOPIC + " by 4.9.0", extra.relay().ledger());
        }
        if (extra.timed() != null) {
            ledgers.put(TimedSends.TOPIC + " by 4.9.0", extra.timed().ledger());
        }
        for (NewerClientCheck.Result newer : extra.newerClients()) {
            ledgers.put(newer.client().topic() + " by " + newer.client().release(), newer.ledger());
        }
        return FailedSends.of(options.fault(), distribution.release(), ledgers);
    }

    private static List<RunRecord.Node> nodes(LocalCluster cluster) {
        return cluster.layout().nodes().stream().map(node -> new RunRecord.Node(node.name(),
                cluster.nodeDir(node).resolve(ManagedProcess.PID_FILE).toString(), cluster.process(node.name()).pid())).toList();
    }

    /** Keeps the {@link RunRecord} in the run directory and in {@code --run-record}'s file. */
    private static final class RunRecordKeeper {
        private final List<Path> files = new ArrayList<>();
        private RunRecord current;

        RunRecordKeeper(Path runDir, Path extraFile) {
            files.add(runDir.resolve(RunRecord.FILE));
            if (extraFile != null) {
                files.add(extraFile);
            }
        }

        RunRecord current() {
            return current;
        }

        void update(RunRecord next) {
            current = next;
            files.forEach(next::write);
        }

        /** A run that ended on an error (its cluster is stopped by then): stopped, without a verdict. */
        void stopWithoutVerdict() {
            if (current != null && current.state() != RunRecord.State.STOPPED) {
                try {
                    update(current.stopped(null));
                } catch (RuntimeException e) {
                    Console.warn(e.getMessage());
                }
            }
        }
    }

    /**
     * What was sent besides the measured load, each to a topic of its own, after the load window; {@link #NONE} when the
     * round was asked for none ({@link RoundSpec#extraSends()}); {@code timed} null also when a mid-run fault skips it.
     */
    record ExtraSends(CompatSends.Sent compat, RelaySends.Sent relay, List<NewerClientCheck.Result> newerClients,
                      boolean toleratesBatchDefect, TimedSends.Sent timed) {

        static final ExtraSends NONE = new ExtraSends(null, null, List.of(), false, null);
    }

    /** The progress line of a round asked for no extra sends. */
    static final String EXTRAS_NOT_ASKED = "not asked of this round (the caller runs them in another)";

    /**
     * Why a round with a mid-run fault has no timed phase: with broker-a's slave killed each of its sends to broker-a waits
     * out the master's 3 s (about a minute for the phase), and a delivery time measured beside a dead replica or a restarted
     * master says nothing about a broker's threads sleeping when idle, which is what the phase is for.
     */
    static final String TIMED_SKIPPED_UNDER_FAULT = "not run under a mid-run fault ("
            + Arrays.stream(FaultScenario.values()).filter(FaultScenario::midRun).map(FaultScenario::option)
                    .collect(Collectors.joining(", ")) + ")";

    /**
     * Whether the broker of {@code distribution} has a timer ({@code TIMER_DELIVER_MS}, 5.0 and later): a 4.9.x broker
     * stores the property and delivers the message at once, so the timed phase sends it delay-level messages only.
     */
    static boolean hasTimer(Distribution distribution) {
        return Integer.parseInt(distribution.release().substring(0, distribution.release().indexOf('.'))) >= 5;
    }

    /** Every read-back in one verdict ({@code all}: the zero-loss check), and each read-back besides the load's by name. */
    record Verified(DeliveryAudit.DeliveryReport all, Map<String, DeliveryAudit.DeliveryReport> extraReadBacks) {
    }

    /**
     * The sends the measured load does not make: V1 headers and a batch ({@link CompatSends}), delayed
     * and transactional messages ({@link RelaySends}), consumer send-back of stored compat messages
     * ({@link ConsumerSendBacks}), and each newer client of the line in a JVM of its own ({@link NewerClientCheck}, which
     * also reads back the compat sends).
     */
    private static ExtraSends sendExtras(String namesrvAddress, Path runDir, String runId, int bodySize, boolean toleratesBatchDefect,
                                         List<NewerClientCheck.Client> newerClients, boolean withTimer, boolean timedPhase)
            throws IOException, InterruptedException {
        CompatSends.Sent compat;
        // under kill-slave every send to broker-a waits out the client's 3 s timeout: a minute or more
        try (Ticker ignored = Ticker.elapsed("compat: sending V1-header messages and a batch to " + CompatSends.TOPIC)) {
            compat = CompatSends.send(namesrvAddress, runId, bodySize);
        }
        Console.progress("compat: %d messages with V1 headers and a batch of %d to %s: acked %d, failed %d; wire codes %s then %s",
                CompatSends.V1_MESSAGES, CompatSends.BATCH_MESSAGES, CompatSends.TOPIC, compat.ledger().acked(),
                compat.ledger().failed() + compat.ledger().notOk(), compat.v1PhaseCodes(), compat.batchPhaseCodes());
        if (!compat.codeProblems().isEmpty()) {
            throw new ClusterException("compat sends did not use the intended headers: " + String.join("; ", compat.codeProblems()));
        }
        // The newer clients run in JVMs of their own while this one sends the relay and the send-backs: all of them wait
        // mostly on the brokers (under kill-slave each send to broker-a waits 3 s), so one after the other only adds up the waits.
        // None of them writes a topic another reads: the clients read the compat topic, the send-backs go to retry topics.
        // The timed phase waits out its deliver times (1 - 5 s) beside them: it adds no time of its own to a round that has them.
        ExecutorService clientRunner = Executors.newFixedThreadPool(newerClients.size() + 1, r -> {
            Thread thread = new Thread(r, "hotpath-newer-client");
            thread.setDaemon(true);
            return thread;
        });
        List<Future<NewerClientCheck.Result>> pending = new ArrayList<>();
        try {
            for (NewerClientCheck.Client client : newerClients) {
                pending.add(clientRunner.submit(() -> NewerClientCheck.run(client, namesrvAddress, runDir, runId, bodySize,
                        compat.ledger(), toleratesBatchDefect)));
            }
            Future<TimedSends.Sent> timedPending = timedPhase
                    ? clientRunner.submit(() -> TimedSends.send(namesrvAddress, runId, bodySize, withTimer)) : null;
            RelaySends.Sent relay;
            try (Ticker ignored = Ticker.elapsed("relay: sending delayed and transactional messages to " + RelaySends.TOPIC
                    + " and waiting for the broker's check-back")) {
                relay = RelaySends.send(namesrvAddress, runId, bodySize);
            }
            Console.progress("relay: %d delayed (level %d) and %d transactional messages to %s: acked %d, failed %d; committed at once %d,"
                            + " UNKNOW then committed on check-back %d of %d (first check-back %s)",
                    RelaySends.DELAYED, RelaySends.DELAY_LEVEL, RelaySends.COMMITTED + RelaySends.CHECKED, RelaySends.TOPIC,
                    relay.ledger().acked(), relay.ledger().failed() + relay.ledger().notOk(), relay.committedAtOnce(),
                    relay.committedOnCheckBack(), RelaySends.CHECKED,
                    relay.checkBackSeconds() < 0 ? "never came" : String.format(Locale.ROOT, "%.1f s after the send", relay.checkBackSeconds()));
            ConsumerSendBacks.Result sendBacks = ConsumerSendBacks.run(namesrvAddress, runId, CompatSends.TOPIC);
            Console.progress("send-back: %s", sendBacks.line());
            if (!sendBacks.problems().isEmpty()) {
                throw new ClusterException("consumer send-back: " + String.join("; ", sendBacks.problems()));
            }
            List<NewerClientCheck.Result> newerResults = new ArrayList<>();
            for (Future<NewerClientCheck.Result> future : pending) {
                NewerClientCheck.Result newer = awaitClient(future);
                NewerClientCheck.Client client = newer.client();
                Console.progress("client %s (%s, own JVM): %d single messages and a batch of %d to %s: acked %d, failed %d in %.1f s",
                        client.release(), newer.clientVersion(), NewerClientCheck.SINGLE_MESSAGES, NewerClientCheck.BATCH_MESSAGES,
                        client.topic(), newer.ledger().acked(), newer.ledger().failed() + newer.ledger().notOk(), newer.seconds());
                Console.progress("client %s read-back of %s: %s", client.release(), client.topic(), newer.ownReadBack().line());
                Console.progress("client %s read-back of %s (sent by 4.9.0): %s", client.release(), CompatSends.TOPIC,
                        newer.compatReadBack().line());
                newerResults.add(newer);
            }
            TimedSends.Sent timed = timedPending == null ? null : awaitClient(timedPending);
            if (timed == null) {
                Console.progress("timed: %s", TIMED_SKIPPED_UNDER_FAULT);
            } else {
                Console.progress("timed: %d timer (%s), %d delay level 1, %d delay level 2 and %d plain messages to %s: acked %d,"
                                + " failed %d, seen %d, in %.1f s", withTimer ? TimedSends.TIMER : 0,
                        withTimer ? "TIMER_DELIVER_MS 1 - 4 s ahead" : "none: no timer in a 4.9.x broker", TimedSends.LEVEL_1,
                        TimedSends.LEVEL_2, TimedSends.PLAIN, TimedSends.TOPIC, timed.ledger().acked(),
                        timed.ledger().failed() + timed.ledger().notOk(),
                        timed.observations().stream().filter(TimedSends.Observation::seen).count(), timed.seconds());
            }
            return new ExtraSends(compat, relay, List.copyOf(newerResults), toleratesBatchDefect, timed);
        } finally {
            // on a failure here: interrupt the clients still waiting; each stops its JVM by PID in its own finally
            clientRunner.shutdownNow();
            if (!clientRunner.awaitTermination(CLIENT_STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                Console.warn("a newer-client check did not stop within its grace time");
            }
        }
    }

    /** The result of one newer-client check (or the timed phase), its own failure rethrown as it was thrown. */
    private static <T> T awaitClient(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new ClusterException("newer-client check failed: " + cause, cause);
        }
    }

    /**
     * The load's and the extra sends' read-backs in one report: the zero-loss check covers them all.
     * Each newer client's own read-backs (done in its JVM) count as read-backs of their own.
     */
    private static Verified verifyAll(String namesrvAddress, SeededMessages messages, LoadResult load, WarmupSlice primer,
                                      ExtraSends extra) {
        List<Verifier.Part> parts = new ArrayList<>(List.of(new Verifier.Part(messages, load.ledger())));
        if (primer != null) {
            parts.add(new Verifier.Part(primer.messages(), primer.load().ledger()));
        }
        List<DeliveryAudit.DeliveryReport> reports = new Verifier(namesrvAddress, VERIFY_TIMEOUT).verify(parts);
        DeliveryAudit.DeliveryReport all = reports.get(0);
        Map<String, DeliveryAudit.DeliveryReport> extras = new LinkedHashMap<>();
        if (primer != null) {
            extras.put(PRIMER, reports.get(1));
        }
        if (extra.compat() != null) {
            extras.put(CompatSends.TOPIC + " by 4.9.0",
                    new Verifier(namesrvAddress, VERIFY_TIMEOUT).verify(extra.compat().messages(), extra.compat().ledger()));
            extras.put(RelaySends.TOPIC + " by 4.9.0",
                    new Verifier(namesrvAddress, VERIFY_TIMEOUT).verify(extra.relay().messages(), extra.relay().ledger()));
        }
        for (NewerClientCheck.Result newer : extra.newerClients()) {
            extras.put(newer.client().topic() + " by 4.9.0",
                    new Verifier(namesrvAddress, VERIFY_TIMEOUT).verify(newer.messages(), newer.ledger(),
                            NewerClientCheck.batchDefect(newer.client(), newer.messages(), extra.toleratesBatchDefect())));
        }
        for (NewerClientCheck.Result newer : extra.newerClients()) {
            extras.put(newer.client().topic() + " by " + newer.client().release(), newer.ownReadBack());
            extras.put(CompatSends.TOPIC + " by " + newer.client().release(), newer.compatReadBack());
        }
        for (Map.Entry<String, DeliveryAudit.DeliveryReport> e : extras.entrySet()) {
            Console.progress("%s read-back: %s", e.getKey(), e.getValue().line());
            all = all.plus(e.getKey(), e.getValue());
        }
        return new Verified(all, extras);
    }

    /** One load of the warm-up: its corpus (a run id of its own) and what became of its sends. */
    record WarmupSlice(SeededMessages messages, LoadResult load) {
    }

    /** The primer's phase and read-back name ({@link #primeMeasuredTopic}). */
    static final String PRIMER = TOPIC + " primer";
    /** Primer messages per queue of the measured topic: the producer spreads them round robin, every queue gets some. */
    static final int PRIMER_PER_QUEUE = 8;

    /**
     * Before a warm-up, a few messages to every queue of the measured topic, under a run id of their own: a topic's first
     * messages take branches of the put path (the store's per-topic statistics, each consume queue's first file) that
     * the warm-up topic took only while that code was still interpreted. Left for the measured window, they deoptimized
     * CommitLog.asyncPutMessage there (unstable_if in StoreStatsService's per-topic getters, MappedFileQueue
     * .getLastMappedFile, DefaultMappedFile.isFull), and its C2 recompile, 3-10 s of compile time, fell into the window
     * after warm-ups whose last slices compiled under 2 % (5.5.1 at 2500 msg/s, window-compilations.json, 2026-11-30).
     * Read back with the measured load and judged like it.
     */
    private static WarmupSlice primeMeasuredTopic(LocalCluster cluster, String runId, RoundSpec options) throws InterruptedException {
        SeededMessages primer = new SeededMessages(TOPIC, runId + "-primer", options.bodySize());
        int count = PRIMER_PER_QUEUE * options.queuesPerMaster() * cluster.layout().masters().size();
        LoadResult sent = new LoadProducer(cluster.namesrvAddress(),
                new LoadProducer.LoadSpec(primer, count, Math.min(options.threads(), count))).run();
        Console.progress("primed %s before the warm-up (its first messages' branches compile then, not in the window): %d sent,"
                + " %d acked, %d failed", TOPIC, sent.sent(), sent.acked(), sent.failed());
        return new WarmupSlice(primer, sent);
    }

    /**
     * Full load on a topic of its own so the JIT settles; not measured, but kept for the read-back after the measured
     * load ({@link #verifyWarmup}). With {@link Warmup#untilWarm} the load runs in slices, each followed by the masters'
     * JIT share over it.
     */
    private static List<WarmupSlice> warmUp(LocalCluster cluster, String runId, RoundSpec options, Warmup warmup)
            throws InterruptedException {
        cluster.createTopic(WARMUP_LOAD_TOPIC, options.queuesPerMaster(), TOPIC_TIMEOUT);
        Console.progress("warming up %s on %s (not measured; read back after the measured load)", warmup.describe(), WARMUP_LOAD_TOPIC);
        List<WarmupSlice> slices = new ArrayList<>();
        if (!warmup.untilWarm()) {
            slices.add(warmUpFor(cluster, new SeededMessages(WARMUP_LOAD_TOPIC, runId + "-warmup", options.bodySize()), options,
                    warmup, warmup.maxSeconds(), slices));
            return slices;
        }
        int done = 0;
        int slice = 0;
        int warmSlices = 0;
        while (done < warmup.maxSeconds()) {
            int seconds = Math.min(Warmup.SLICE_SECONDS, warmup.maxSeconds() - done);
            Map<String, ThreadCpuTimes> before = masterThreads(cluster);
            // a run id of its own per slice: each slice's ledger starts at seq 0, and the read-back tells them apart by it
            slices.add(warmUpFor(cluster, new SeededMessages(WARMUP_LOAD_TOPIC, runId + "-warmup-" + slice++, options.bodySize()),
                    options, warmup, seconds, slices));
            done += seconds;
            double share = jitShareSince(cluster, before, masterThreads(cluster));
            Console.progress("warm-up: %d s so far, the masters' JIT compiler used %.1f %% of their CPU in the last %d s",
                    done, 100 * share, seconds);
            // two slices in a row: one slice under the share was followed by a measured window at 8.6 % (2026-11-26)
            warmSlices = warmup.warmSlicesAfter(warmSlices, share);
            if (warmSlices == Warmup.WARM_SLICES) {
                return slices;
            }
        }
        Console.warn(String.format(Locale.ROOT, "warm-up ended after its %d s with the masters' JIT at or above %.0f %% of their"
                + " CPU: the measured window's JIT share says how far from warm the round was", done, 100 * warmup.untilJitBelow()));
        return slices;
    }

    /**
     * One warm-up load of {@code seconds}; {@code earlier} are the warm-up's loads before it, whose first SEND_OK also counts
     * as the cluster's. A paced load sends at most rate x seconds, so its ledger is sized to that: the warm-up's ledgers are
     * kept until the read-back after the measured load.
     */
    private static WarmupSlice warmUpFor(LocalCluster cluster, SeededMessages messages, RoundSpec options, Warmup warmup,
                                         int seconds, List<WarmupSlice> earlier) throws InterruptedException {
        long unpaced = (long) seconds * RoundSpec.TIMED_CAPACITY_PER_SECOND;
        int rate = warmup.rateFor(options.rate());
        int capacity = (int) Math.min(50_000_000L, rate > 0 ? Math.min(unpaced, (long) seconds * rate) : unpaced);
        LoadResult result = new LoadProducer(cluster.namesrvAddress(),
                new LoadProducer.LoadSpec(messages, capacity, options.threads(), seconds, rate)).run();
        List<SendLedger> ledgers = new ArrayList<>(earlier.stream().map(s -> s.load().ledger()).toList());
        ledgers.add(result.ledger());
        long firstAck = WarmupVerdict.firstAckNanos(ledgers);
        Map<String, Long> before = result.ledger().failuresBegunBefore(firstAck);
        Map<String, Long> after = result.ledger().failuresBegunFrom(firstAck);
        Console.progress("warm-up load: %d acked, %d failed%s%s", result.acked(), result.failed(),
                before.isEmpty() ? "" : "; before the cluster's first SEND_OK (not judged) " + before,
                after.isEmpty() ? "" : "; after it (UNEXPECTED: fails the round) " + after);
        return new WarmupSlice(messages, result);
    }

    /**
     * Reads the warm-up topic back, every slice in one pass, and judges the warm-up ({@link WarmupVerdict}); null without a
     * warm-up load.
     */
    private static WarmupVerdict verifyWarmup(String namesrvAddress, List<WarmupSlice> slices, String release) {
        if (slices.isEmpty()) {
            return null;
        }
        long began = System.nanoTime();
        List<DeliveryAudit.DeliveryReport> reports = new Verifier(namesrvAddress, VERIFY_TIMEOUT)
                .verify(slices.stream().map(s -> new Verifier.Part(s.messages(), s.load().ledger())).toList());
        double readBackSeconds = (System.nanoTime() - began) / 1e9;
        DeliveryAudit.DeliveryReport all = reports.get(0);
        for (int i = 1; i < reports.size(); i++) {
            all = all.plus("slice " + (i + 1), reports.get(i));
        }
        WarmupVerdict verdict = WarmupVerdict.judge(slices.stream().map(s -> s.load().ledger()).toList(),
                slices.stream().mapToDouble(s -> s.load().seconds()).sum(), all, readBackSeconds, release);
        Console.progress("%s read-back (warm-up, %d load%s): %s in %.1f s", WARMUP_LOAD_TOPIC, slices.size(),
                slices.size() == 1 ? "" : "s", all.line(), readBackSeconds);
        return verdict;
    }

    /** Each master's threads now, by node name. */
    private static Map<String, ThreadCpuTimes> masterThreads(LocalCluster cluster) {
        Map<String, ThreadCpuTimes> threads = new LinkedHashMap<>();
        for (ClusterLayout.Node master : cluster.layout().masters()) {
            threads.put(master.name(), ThreadCpuTimes.of(cluster.process(master.name()).pid()));
        }
        return threads;
    }

    /** Both masters' JIT share between the two snapshots, -1 when they used no CPU. */
    private static double jitShareSince(LocalCluster cluster, Map<String, ThreadCpuTimes> before, Map<String, ThreadCpuTimes> after) {
        Map<String, ThreadGroupCpu> used = new LinkedHashMap<>();
        after.forEach((master, now) -> used.put(master, now.since(before.get(master))));
        ThreadGroupCpu both = RunMetrics.threadSum(used, cluster.layout().masters());
        return both == null ? -1 : both.jitShare();
    }

    /** Fires a mid-run {@link FaultScenario} half-way through the load on a thread of its own. */
    private static final class FaultTimer implements AutoCloseable {
        private final Thread thread;
        private final AtomicBoolean fired;

        private FaultTimer(Thread thread, AtomicBoolean fired) {
            this.thread = thread;
            this.fired = fired;
        }

        static FaultTimer schedule(RoundSpec options, LocalCluster cluster) {
            if (!options.fault().midRun()) {
                return new FaultTimer(null, new AtomicBoolean());
            }
            long delayMillis = options.timed() ? options.seconds() * 500L : FaultScenario.COUNT_RUN_DELAY.toMillis();
            AtomicBoolean fired = new AtomicBoolean();
            Thread thread = new Thread(() -> {
                try {
                    Thread.sleep(delayMillis);
                    fired.set(true);
                    inject(options.fault(), cluster);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    Console.warn("fault " + options.fault().option() + " failed: " + e.getMessage());
                }
            }, "hotpath-fault");
            thread.setDaemon(true);
            thread.start();
            return new FaultTimer(thread, fired);
        }

        /** Fires the mid-run fault on {@code cluster}; called from the timer thread while the load runs. */
        private static void inject(FaultScenario fault, LocalCluster cluster) {
            switch (fault) {
                case KILL_SLAVE -> cluster.killNode(FaultScenario.VICTIM_SLAVE);
                case KILL_SLAVE_RESTART -> killAndRestart(cluster, FaultScenario.VICTIM_SLAVE, FaultScenario.SLAVE_DOWN);
                case KILL_MASTER -> killAndRestart(cluster, FaultScenario.VICTIM_MASTER, FaultScenario.MASTER_DOWN);
                default -> {
                }
            }
        }

        /** kill -9 of {@code node}, and the same node started again {@code down} later (not when interrupted meanwhile). */
        private static void killAndRestart(LocalCluster cluster, String node, Duration down) {
            cluster.killNode(node);
            try {
                Thread.sleep(down.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            cluster.restartNode(node, Duration.ofMinutes(2));
        }

        /** A fault still waiting when the load ends early is cancelled; one in progress (a restart) is waited for. */
        @Override
        public void close() throws InterruptedException {
            if (thread != null) {
                if (!fired.get()) {
                    thread.interrupt();
                }
                thread.join(Duration.ofMinutes(3).toMillis());
            }
        }
    }

    /** ", stopping after 60 s, paced at 6000 msg/s" or "" for a plain count-bounded, unpaced run. */
    private static String loadShape(RoundSpec options) {
        String shape = options.timed() ? ", stopping after " + options.seconds() + " s" : "";
        return options.rate() > 0 ? shape + ", paced at " + options.rate() + " msg/s" : shape;
    }

    /** Cost figures are a report, not the verdict: if they cannot be read the run still counts, without them. */
    private static RunMetrics collectMetrics(LocalCluster cluster, LoadWindowRecorder window, LoadResult load) {
        try {
            RunMetrics metrics = RunMetrics.collect(cluster, window, load.acked(), TOPIC);
            logCompilations(cluster, window);
            return metrics;
        } catch (IOException | RuntimeException e) {
            Console.warn("cost figures unavailable for " + cluster.runDir() + ": " + e);
            return null;
        }
    }

    /**
     * What the masters compiled in the window, in the log and {@code window-compilations.json}: the diagnosis of a round
     * the JIT rule does not count (its CPU figure included compiling).
     */
    private static void logCompilations(LocalCluster cluster, LoadWindowRecorder window) throws IOException {
        WindowCompilations masters = WindowCompilations.NONE;
        for (ClusterLayout.Node master : cluster.layout().masters()) {
            masters = masters.plus(WindowCompilations.read(cluster.nodeDir(master), window.start(), window.end()));
        }
        Console.progress("masters' JIT in the load window: %s", masters.line());
        Files.writeString(cluster.runDir().resolve("window-compilations.json"),
                new GsonBuilder().setPrettyPrinting().create().toJson(masters) + "\n");
    }
}
