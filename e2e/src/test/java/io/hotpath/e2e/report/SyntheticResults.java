package io.hotpath.e2e.report;

import io.hotpath.e2e.audit.CommitLogScan;
import io.hotpath.e2e.audit.DeliveryAudit;
import io.hotpath.e2e.cli.SmokeOptions;
import io.hotpath.e2e.cluster.Distribution;
import io.hotpath.e2e.load.LoadResult;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.network.NetworkSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;

/** Finished runs made up for report tests: every figure is what the test says, nothing is measured. */
final class SyntheticResults {

    /** Messages per synthetic run: CPU and bytes below are per message, so totals are these times as much. */
    static final int MESSAGES = 100;

    private SyntheticResults() {
    }

    /** The figures of one run a report compares; the rest of the run is a quiet, lossless one. */
    record Figures(double masterCpuMicrosPerMsg, double tps, double rtP99Ms, ThreadGroupCpu masterThreads, long lost, boolean busy) {

        static Figures cpu(double masterCpuMicrosPerMsg) {
            return new Figures(masterCpuMicrosPerMsg, 4000, 2.0, null, 0, false);
        }

        Figures withThreads(ThreadGroupCpu threads) {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, threads, lost, busy);
        }

        Figures busyMachine() {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, lost, true);
        }

        Figures lost(long messages) {
            return new Figures(masterCpuMicrosPerMsg, tps, rtP99Ms, masterThreads, messages, busy);
        }
    }

    static SmokeResult result(Path runDir, Figures figures) {
        SendLedger ledger = new SendLedger(MESSAGES);
        MessageQueue queue = new MessageQueue("hotpath_smoke", "broker-a", 0);
        for (int seq = 0; seq < MESSAGES; seq++) {
            ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, "id" + seq, "o" + seq, queue, seq),
                    (long) (figures.rtP99Ms() * 1_000_000));
        }
        LoadResult load = new LoadResult(ledger, (long) (MESSAGES / figures.tps() * 1e9), -1);
        DeliveryAudit.DeliveryReport delivery = new DeliveryAudit.DeliveryReport(MESSAGES - figures.lost(), 0, MESSAGES,
                MESSAGES - figures.lost(), figures.lost(), 0, 0, 0, 0, 0, 0, List.of());
        // master CPU all user time; other processes' CPU far above the busy-machine flag, or none
        long masterMicros = Math.round(figures.masterCpuMicrosPerMsg() * MESSAGES);
        long otherMicros = figures.busy() ? 1_000_000_000L : 0;
        RunMetrics metrics = new RunMetrics(30, MESSAGES, new ProcessCpuTimes(masterMicros, 0), new ProcessCpuTimes(0, 0),
                new ProcessCpuTimes(0, 0), otherMicros, 1000L * MESSAGES, 1, 2.5, 2.5,
                new CommitLogScan.TopicBytes(MESSAGES, 1200L * MESSAGES, MESSAGES, 1200L * MESSAGES), figures.masterThreads());
        return new SmokeResult("patched", distribution(runDir), runDir, SmokeOptions.parse(), load, delivery, Map.of(), 30, 120, metrics,
                NetworkSummary.LOOPBACK);
    }

    /** Threads of the masters whose CPU per message is {@code perMessage} per group, the rest of the process exited threads. */
    static ThreadGroupCpu threads(double processPerMessage, Map<String, Double> perMessage) {
        List<ThreadGroupCpu.Group> groups = perMessage.entrySet().stream().map(e -> new ThreadGroupCpu.Group(e.getKey(), 1,
                new ProcessCpuTimes(Math.round(e.getValue() * MESSAGES), 0))).sorted(ThreadGroupCpu.LARGEST_FIRST).toList();
        return new ThreadGroupCpu(new ProcessCpuTimes(Math.round(processPerMessage * MESSAGES), 0), groups, groups.size(), 0);
    }

    /** A directory that passes for a broker distribution; reports never look into it. */
    private static Distribution distribution(Path runDir) {
        try {
            Path home = runDir.resolveSibling("dist");
            Files.createDirectories(home.resolve("bin"));
            Files.createDirectories(home.resolve("lib"));
            for (String script : new String[] {"bin/mqnamesrv", "bin/mqbroker"}) {
                if (!Files.exists(home.resolve(script))) {
                    Files.createFile(home.resolve(script));
                }
            }
            return Distribution.resolve(home.toString(), "4.9.0", runDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
