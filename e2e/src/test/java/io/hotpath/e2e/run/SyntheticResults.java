package io.hotpath.e2e.run;

import io.hotpath.e2e.check.CommitLogScan;
import io.hotpath.e2e.check.DeliveryAudit;
import io.hotpath.e2e.check.FailedSends;
import io.hotpath.e2e.load.LoadResult;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.measure.AllocationSites;
import io.hotpath.e2e.measure.OtherCpu;
import io.hotpath.e2e.measure.ContextSwitches;
import io.hotpath.e2e.measure.ProcessCpuTimes;
import io.hotpath.e2e.measure.RunMetrics;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import io.hotpath.e2e.node.NetworkSummary;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.RoundSpec;
import io.hotpath.e2e.spec.SmokeOptions;
import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;

/** Finished runs made up for report tests: every figure is what the test says, nothing is measured. */
public final class SyntheticResults {

    /** Messages per synthetic run: CPU and bytes below are per message, so totals are these times as much. */
    public static final int MESSAGES = 100;

    private SyntheticResults() {
    }

    /** The figures of one run a report compares; the rest of the run is a quiet, lossless one. */
    public record Figures(double masterCpuMicrosPerMsg, double tps, double rtP99Ms, ThreadGroupCpu masterThreads, long lost,
                   RunMetrics.MachineLoad machine, int systemBusy, int gcCount, double gcPauseMs) {

        /**
         * A counted round: quiet, lossless, and warm (the masters' threads measured, no JIT compiler among them, no
         * thread group named, so no thread table).
         */
        public static Figures cpu(double masterCpuMicrosPerMsg) {
            return new Figures(masterCpuMicrosPerMsg, 4000, 2.0, threads(masterCpuMicrosPerMsg, Map.of()), 0,
                    RunMetrics.MachineLoad.QUIET, 0, 1, 2.5);
        }

        /** The masters' threads not measured: nothing says whether the round was warm. */
        public Figures withoutThreads() {
            return withThreads(null);
        }

        /** {@code collections} GCs on the masters in the window, pausing them {@code pauseMs} in all. */
        public Figures withGc(int collections, double pauseMs) {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, lost, machine, systemBusy, collections, pauseMs);
        }

        public Figures withThreads(ThreadGroupCpu threads) {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, threads, lost, machine, systemBusy, gcCount, gcPauseMs);
        }

        public Figures busyMachine() {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, lost, RunMetrics.MachineLoad.BUSY, systemBusy,
                    gcCount, gcPauseMs);
        }

        /** Other processes' CPU not measured. */
        public Figures unknownMachine() {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, lost, RunMetrics.MachineLoad.UNKNOWN, systemBusy,
                    gcCount, gcPauseMs);
        }

        public Figures lost(long messages) {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, messages, machine, systemBusy, gcCount, gcPauseMs);
        }

        /** The last {@code sends} of the load rejected by the broker's flow control (SYSTEM_BUSY) instead of acknowledged. */
        public Figures rejected(int sends) {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, lost, machine, sends, gcCount, gcPauseMs);
        }
    }

    public static RoundResult result(Path runDir, Figures figures) {
        SendLedger ledger = new SendLedger(MESSAGES);
        MessageQueue queue = new MessageQueue("hotpath_smoke", "broker-a", 0);
        int acked = MESSAGES - figures.systemBusy();
        for (int seq = 0; seq < acked; seq++) {
            ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, "id" + seq, "o" + seq, queue, seq),
                    (long) (figures.rtP99Ms() * 1_000_000));
        }
        for (int seq = acked; seq < MESSAGES; seq++) {
            ledger.recordFailure(seq, systemBusy(), 1_000_000);
        }
        LoadResult load = new LoadResult(ledger, (long) (acked / figures.tps() * 1e9), -1);
        DeliveryAudit.DeliveryReport delivery = new DeliveryAudit.DeliveryReport(acked - figures.lost(), 0, acked,
                acked - figures.lost(), figures.lost(), 0, 0, 0, 0, 0, 0, List.of());
        // master CPU all user time; other processes' CPU far above the busy-machine flag, none, or not measured
        long masterMicros = Math.round(figures.masterCpuMicrosPerMsg() * MESSAGES);
        OtherCpu other = switch (figures.machine()) {
            case BUSY -> new OtherCpu(null, 2, 60_000_000L, 1_030_000_000L, 1_030_000_000L, 0, 30_000_000L, 6);
            case QUIET -> new OtherCpu(null, 2, 60_000_000L, 30_000_000L, 30_000_000L, 0, 30_000_000L, 6);
            case UNKNOWN -> OtherCpu.notMeasured("broker-a killed or restarted in the window");
        };
        RunMetrics metrics = new RunMetrics(30, MESSAGES, new ProcessCpuTimes(masterMicros, 0), new ProcessCpuTimes(0, 0),
                new ProcessCpuTimes(0, 0), other, 1000L * MESSAGES, figures.gcCount(), figures.gcPauseMs(), figures.gcPauseMs(),
                new CommitLogScan.TopicBytes(MESSAGES, 1200L * MESSAGES, MESSAGES, 1200L * MESSAGES), figures.masterThreads());
        RoundSpec options = SmokeOptions.parse().round();
        Distribution distribution = distribution(runDir);
        return new RoundResult("patched", distribution, runDir, options, load, delivery, Map.of(),
                FailedSends.of(options.fault(), distribution.release(), Map.of(FailedSends.LOAD, ledger)), 30, 120, metrics,
                NetworkSummary.LOOPBACK);
    }

    /** {@link #result} of a profiled round whose masters' allocation samples are {@code sites} (1000 B/msg allocated in all). */
    public static RoundResult profiled(Path runDir, Figures figures, AllocationSites sites) {
        RoundResult r = result(runDir, figures);
        RunMetrics m = r.metrics();
        RunMetrics sampled = new RunMetrics(m.windowSeconds(), m.messages(), m.masterCpu(), m.slaveCpu(), m.loadGeneratorCpu(),
                m.otherCpu(), m.masterAllocatedBytes(), m.masterGcCount(), m.masterGcPauseMillisTotal(), m.masterGcPauseMillisMax(),
                m.commitLog(), m.masterThreads(), sites);
        return new RoundResult(r.flavor(), r.distribution(), r.runDir(), r.options(), r.load(), r.delivery(), r.extraReadBacks(),
                r.failedSends(), r.bootSeconds(), r.totalSeconds(), sampled, r.network());
    }

    /**
     * A lossless run of {@code release} with {@code options} (its fault), whose load is {@code load} and whose extra sends
     * (by phase) are {@code extras}; everything acknowledged was read back intact. No cost figures.
     */
    public static RoundResult run(Path runDir, RoundSpec options, String release, SendLedger load, Map<String, SendLedger> extras) {
        Map<String, SendLedger> ledgers = new LinkedHashMap<>();
        ledgers.put(FailedSends.LOAD, load);
        ledgers.putAll(extras);
        long acked = ledgers.values().stream().mapToLong(SendLedger::acked).sum();
        DeliveryAudit.DeliveryReport delivery = new DeliveryAudit.DeliveryReport(acked, 0, acked, acked, 0, 0, 0, 0, 0, 0, 0, List.of());
        Distribution distribution = distribution(runDir, release);
        return new RoundResult("patched", distribution, runDir, options, new LoadResult(load, 1_000_000_000L), delivery, Map.of(),
                FailedSends.of(options.fault(), release, ledgers), 30, 120, null, NetworkSummary.LOOPBACK);
    }

    /** What a broker's flow control answers through rocketmq-client 4.9.0: response code 2, SYSTEM_BUSY. */
    public static MQBrokerException systemBusy() {
        return new MQBrokerException(2, "[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while");
    }

    /** {@code acked} sends acknowledged on broker-a, seq 0 up. */
    public static SendLedger ledger(int size, int acked) {
        SendLedger ledger = new SendLedger(size);
        MessageQueue queue = new MessageQueue("t", "broker-a", 0);
        for (int seq = 0; seq < acked; seq++) {
            ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, "id" + seq, "o" + seq, queue, seq), 1_000_000);
        }
        return ledger;
    }

    /** Threads of the masters, 1 us per message each, whose context switches per message are {@code perMessage} per group. */
    public static ThreadGroupCpu switches(Map<String, Double> perMessage) {
        List<ThreadGroupCpu.Group> groups = perMessage.entrySet().stream().map(e -> new ThreadGroupCpu.Group(e.getKey(), 1,
                new ProcessCpuTimes(MESSAGES, 0), new ContextSwitches(Math.round(e.getValue() * MESSAGES), 0)))
                .sorted(ThreadGroupCpu.LARGEST_FIRST).toList();
        return new ThreadGroupCpu(new ProcessCpuTimes((long) MESSAGES * groups.size(), 0), groups, groups.size(), 0);
    }

    /** Threads of the masters whose CPU per message is {@code perMessage} per group, the rest of the process exited threads. */
    public static ThreadGroupCpu threads(double processPerMessage, Map<String, Double> perMessage) {
        List<ThreadGroupCpu.Group> groups = perMessage.entrySet().stream().map(e -> new ThreadGroupCpu.Group(e.getKey(), 1,
                new ProcessCpuTimes(Math.round(e.getValue() * MESSAGES), 0))).sorted(ThreadGroupCpu.LARGEST_FIRST).toList();
        return new ThreadGroupCpu(new ProcessCpuTimes(Math.round(processPerMessage * MESSAGES), 0), groups, groups.size(), 0);
    }

    /** A directory that passes for a broker distribution; reports never look into it. */
    private static Distribution distribution(Path runDir) {
        return distribution(runDir, "4.9.0");
    }

    private static Distribution distribution(Path runDir, String release) {
        try {
            Path home = runDir.resolveSibling("dist");
            Files.createDirectories(home.resolve("bin"));
            Files.createDirectories(home.resolve("lib"));
            for (String script : new String[] {"bin/mqnamesrv", "bin/mqbroker"}) {
                if (!Files.exists(home.resolve(script))) {
                    Files.createFile(home.resolve(script));
                }
            }
            // a directory distribution of a line whose descriptor says only what the line is
            Path lineDir = Files.createDirectories(runDir.resolveSibling("patches").resolve(release));
            Files.writeString(lineDir.resolve(ReleaseLine.DESCRIPTOR), "release=" + release + "\n"
                    + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
                    + "oracle=org.apache.rocketmq:" + release + "\nupstream.tests.modules=common\n");
            return Distribution.resolve(home.toString(), ReleaseLine.load(lineDir), runDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
