package io.hotpath.e2e.measure;

import com.google.gson.Gson;
import io.hotpath.e2e.check.CommitLogScan;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.spec.ClusterLayout;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Per-run cost figures over the load window, normalised per acknowledged message: master and slave CPU
 * (user and system, /proc), the load generator's own CPU, bytes allocated on the masters (JFR thread
 * allocation counters, see {@link BrokerFlightRecording}), GC pauses on the masters, and CommitLog bytes
 * per stored message of the test topic ({@link CommitLogScan}, exact). A figure that could not be
 * measured is -1 and printed as "n/a", never estimated. {@code masterThreads}: the masters' CPU per thread
 * group ({@link ThreadGroupCpu}), null when a master was killed or restarted in the window.
 * {@code masterAllocationSites}: a profiled round's allocation samples of both masters, the one estimate here
 * ({@link AllocationSites}: sampled shares of the exact total); null in a measured round.
 *
 * <p>{@code otherCpu}: the machine's busy time in the window minus what the cluster and the load generator used
 * ({@link OtherCpu}), as measured (negative when the accounting does not add up) or not measured; a large share means
 * another process competed and the window's CPU figures are suspect. A window not measured, or whose figure does not
 * add up, is {@link MachineLoad#UNKNOWN}, never quiet.
 */
public record RunMetrics(double windowSeconds, long messages, ProcessCpuTimes masterCpu, ProcessCpuTimes slaveCpu,
                         ProcessCpuTimes loadGeneratorCpu, OtherCpu otherCpu, long masterAllocatedBytes,
                         int masterGcCount, double masterGcPauseMillisTotal, double masterGcPauseMillisMax,
                         CommitLogScan.TopicBytes commitLog, ThreadGroupCpu masterThreads, AllocationSites masterAllocationSites) {

    /** The figures of a round without allocation samples (not a profiled round). */
    public RunMetrics(double windowSeconds, long messages, ProcessCpuTimes masterCpu, ProcessCpuTimes slaveCpu,
                      ProcessCpuTimes loadGeneratorCpu, OtherCpu otherCpu, long masterAllocatedBytes,
                      int masterGcCount, double masterGcPauseMillisTotal, double masterGcPauseMillisMax,
                      CommitLogScan.TopicBytes commitLog, ThreadGroupCpu masterThreads) {
        this(windowSeconds, messages, masterCpu, slaveCpu, loadGeneratorCpu, otherCpu, masterAllocatedBytes, masterGcCount,
                masterGcPauseMillisTotal, masterGcPauseMillisMax, commitLog, masterThreads, null);
    }

    /** Share of the window's machine CPU used by processes other than ours above which a window is flagged. */
    public static final double OTHER_CPU_FLAG_SHARE = OtherCpu.FLAG_SHARE;
    /** Share of the masters' CPU from which a thread group is named in the summaries; smaller ones add up to "other". */
    public static final double THREAD_GROUP_SHARE = 0.02;
    /** Allocation sites a profiled round's summary names. */
    static final int SUMMARY_SITES = 6;
    /**
     * A master counts as warm when its JIT compiler threads used less than this share of its CPU in the window: before
     * that, CPU per message includes compiling the code under load, and differs between arms by when C2 got to it.
     */
    public static final double WARM_JIT_SHARE = 0.05;

    private static final Gson GSON = new Gson();

    /**
     * Collects the figures after the cluster was stopped (the JFR recordings are written on exit, and the
     * CommitLog is read when no broker writes it). {@code masterCpu}/{@code slaveCpu} are absent (null)
     * when a node of that role was killed or restarted in the window.
     */
    public static RunMetrics collect(LocalCluster cluster, LoadWindowRecorder window, long ackedMessages, String topic)
            throws IOException {
        Map<String, ProcessCpuTimes> cpu = window.cpuInWindow();
        ClusterLayout layout = cluster.layout();
        ProcessCpuTimes masters = sum(cpu, layout.masters());
        ProcessCpuTimes slaves = sum(cpu, layout.brokers().stream().filter(n -> !n.isMaster()).toList());
        ThreadGroupCpu masterThreads = threadSum(window.masterThreadCpuInWindow(), layout.masters());
        OtherCpu other = window.otherCpuInWindow();

        long allocated = 0;
        int gcCount = 0;
        double pauseTotal = 0;
        double pauseMax = 0;
        CommitLogScan.TopicBytes commitLog = new CommitLogScan.TopicBytes(0, 0, 0, 0);
        AllocationSites sites = null;
        boolean sitesOfEveryMaster = true;
        for (ClusterLayout.Node master : layout.masters()) {
            BrokerFlightRecording.WindowFigures figures =
                    BrokerFlightRecording.read(cluster.nodeDir(master), window.start(), window.end());
            // only a profiled round's recordings hold allocation samples; a master without any leaves the sites absent
            AllocationSites masterSites = figures.sites();
            sitesOfEveryMaster &= masterSites != null;
            sites = masterSites == null ? sites : sites == null ? masterSites : sites.plus(masterSites);
            // a master killed or restarted in the window has a recording of its new life only
            if (!figures.present() || allocated < 0 || masters == null) {
                allocated = -1;
            } else {
                allocated += figures.allocatedBytes();
                gcCount += figures.gcCount();
                pauseTotal += figures.gcPauseMillisTotal();
                pauseMax = Math.max(pauseMax, figures.gcPauseMillisMax());
            }
            commitLog = commitLog.plus(CommitLogScan.scan(cluster.nodeDir(master).resolve("store"), topic));
        }
        double seconds = (window.end().toEpochMilli() - window.start().toEpochMilli()) / 1000.0;
        return new RunMetrics(seconds, ackedMessages, masters, slaves, cpu.get(LoadWindowRecorder.LOAD_GENERATOR), other,
                allocated, allocated < 0 ? -1 : gcCount, allocated < 0 ? -1 : pauseTotal, allocated < 0 ? -1 : pauseMax,
                commitLog, masterThreads, sitesOfEveryMaster && allocated >= 0 ? sites : null);
    }

    /** Every master's threads added up (the masters run the same thread groups); null when a master has no figure. */
    public static ThreadGroupCpu threadSum(Map<String, ThreadGroupCpu> threads, List<ClusterLayout.Node> masters) {
        ThreadGroupCpu total = null;
        for (ClusterLayout.Node master : masters) {
            ThreadGroupCpu used = threads.get(master.name());
            if (used == null) {
                return null;
            }
            total = total == null ? used : total.plus(used);
        }
        return total;
    }

    private static ProcessCpuTimes sum(Map<String, ProcessCpuTimes> cpu, List<ClusterLayout.Node> nodes) {
        ProcessCpuTimes total = new ProcessCpuTimes(0, 0);
        for (ClusterLayout.Node node : nodes) {
            ProcessCpuTimes used = cpu.get(node.name());
            if (used == null) {
                return null;
            }
            total = total.plus(used);
        }
        return total;
    }

    public double perMessage(long value) {
        return value < 0 || messages == 0 ? -1 : (double) value / messages;
    }

    public double masterUserMicrosPerMessage() {
        return masterCpu == null ? -1 : perMessage(masterCpu.userMicros());
    }

    public double masterSystemMicrosPerMessage() {
        return masterCpu == null ? -1 : perMessage(masterCpu.systemMicros());
    }

    public double masterMicrosPerMessage() {
        return masterCpu == null ? -1 : perMessage(masterCpu.totalMicros());
    }

    public double slaveUserMicrosPerMessage() {
        return slaveCpu == null ? -1 : perMessage(slaveCpu.userMicros());
    }

    public double slaveSystemMicrosPerMessage() {
        return slaveCpu == null ? -1 : perMessage(slaveCpu.systemMicros());
    }

    public double loadGeneratorMicrosPerMessage() {
        return loadGeneratorCpu == null ? -1 : perMessage(loadGeneratorCpu.totalMicros());
    }

    /** The share of the masters' CPU in the window their JIT compiler threads used, -1 when not measured. */
    public double masterJitShare() {
        return masterThreads == null ? -1 : masterThreads.jitShare();
    }

    /** True when measured and below {@link #WARM_JIT_SHARE}. */
    public boolean warm() {
        double share = masterJitShare();
        return share >= 0 && share < WARM_JIT_SHARE;
    }

    /**
     * The masters' context switches (voluntary + involuntary, every thread alive at the window's end) per message, -1
     * when not measured.
     */
    public double masterContextSwitchesPerMessage() {
        return masterThreads == null ? -1 : perMessage(masterThreads.switches().total());
    }

    /** The masters' voluntary context switches per message (a thread blocked: the wake-ups of hand-offs), -1 when not measured. */
    public double masterVoluntarySwitchesPerMessage() {
        return masterThreads == null ? -1 : perMessage(masterThreads.switches().voluntary());
    }

    /** The masters' context switches per message of every thread group, most first; empty when not measured. */
    public Map<String, Double> masterThreadSwitchesPerMessage() {
        return masterThreads == null || messages == 0 ? Map.of() : masterThreads.switchesPerMessage(messages);
    }

    /** The masters' CPU per message of every thread group and of {@link ThreadGroupCpu#EXITED}; empty when not measured. */
    public Map<String, Double> masterThreadMicrosPerMessage() {
        return masterThreads == null || messages == 0 ? Map.of() : masterThreads.perMessage(messages);
    }

    public double masterAllocatedBytesPerMessage() {
        return perMessage(masterAllocatedBytes);
    }

    /**
     * A profiled round's allocated bytes per message by site ({@link AllocationSites}), most first, adding up to
     * {@link #masterAllocatedBytesPerMessage()}; empty in a measured round.
     */
    public Map<String, Double> masterAllocationSitesBytesPerMessage() {
        return masterAllocationSites == null || masterAllocatedBytesPerMessage() < 0 ? Map.of()
                : masterAllocationSites.bytesPerMessage(masterAllocatedBytesPerMessage());
    }

    public double commitLogBytesPerMessage() {
        return commitLog.records() == 0 ? -1 : commitLog.bytesPerRecord();
    }

    /** Whether other processes competed for the machine during the load window. */
    public enum MachineLoad {
        /** other processes used at most {@link #OTHER_CPU_FLAG_SHARE} of the machine */
        QUIET,
        /** other processes used more: the window's CPU figures are suspect */
        BUSY,
        /** other processes' CPU could not be measured (a node's or the machine's counters missing): not known to be quiet */
        UNKNOWN;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public MachineLoad machineLoad() {
        return otherCpu.load();
    }

    /**
     * Other processes' CPU in the window as measured (negative when the accounting does not add up), -1 when not measured.
     * A measured -1 cannot be told from "not measured" here: {@link #otherCpu()} keeps them apart.
     */
    public long otherCpuMicros() {
        return otherCpu.measured() ? otherCpu.micros() : -1;
    }

    /** True when other processes used more than {@link #OTHER_CPU_FLAG_SHARE} of the machine during the window; false when quiet or unknown. */
    public boolean busyMachine() {
        return machineLoad() == MachineLoad.BUSY;
    }

    public String summaryLines() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "  CPU per acked message over the %.1f s load window: masters %s us (user %s, sys %s),"
                        + " slaves user %s / sys %s us, load generator %s us; other processes %s%n",
                windowSeconds, n(masterMicrosPerMessage()), n(masterUserMicrosPerMessage()), n(masterSystemMicrosPerMessage()),
                n(slaveUserMicrosPerMessage()), n(slaveSystemMicrosPerMessage()), n(loadGeneratorMicrosPerMessage()),
                otherCpu.describe()));
        out.append(String.format(Locale.ROOT, "  masters: allocated %s B per acked message (JFR thread allocation counters),"
                        + " GC %s pauses totalling %s ms (max %s ms); CommitLog %s B per stored %s record (%d records)%n",
                n(masterAllocatedBytesPerMessage()), masterGcCount < 0 ? "n/a" : Integer.toString(masterGcCount),
                n(masterGcPauseMillisTotal), n(masterGcPauseMillisMax), n(commitLogBytesPerMessage()), "test-topic",
                commitLog.records()));
        if (masterThreads != null && messages > 0) {
            out.append(threadSummary());
            out.append(switchSummary());
        }
        if (masterAllocationSites != null) {
            StringJoiner sites = new StringJoiner(", ");
            masterAllocationSitesBytesPerMessage().entrySet().stream().limit(SUMMARY_SITES)
                    .forEach(site -> sites.add(String.format(Locale.ROOT, "%s %.0f", site.getKey(), site.getValue())));
            out.append(String.format(Locale.ROOT, "  masters' allocation by site, B per acked message (%d JFR samples, scaled to the"
                    + " counters' total; largest %d): %s%n", masterAllocationSites.samples(), SUMMARY_SITES, sites));
        }
        return out.toString();
    }

    private String switchSummary() {
        ContextSwitches all = masterThreads.switches();
        StringJoiner groups = new StringJoiner(", ");
        double other = 0;
        for (Map.Entry<String, Double> group : masterThreads.switchesPerMessage(messages).entrySet()) {
            if (group.getValue() * messages >= THREAD_GROUP_SHARE * all.total() && group.getValue() > 0) {
                groups.add(String.format(Locale.ROOT, "%s %.2f", group.getKey(), group.getValue()));
            } else {
                other += group.getValue();
            }
        }
        groups.add(String.format(Locale.ROOT, "%s %.2f", ThreadGroupCpu.OTHER, other));
        return String.format(Locale.ROOT, "  master threads, context switches per acked message (groups above %.0f %% of the"
                + " masters'): %s; all threads %.2f (voluntary %.2f, involuntary %.2f)%s%n", 100 * THREAD_GROUP_SHARE, groups,
                (double) all.total() / messages, (double) all.voluntary() / messages, (double) all.involuntary() / messages,
                masterThreads.exitedThreads() == 0 ? "" : "; threads that ended in the window are not counted");
    }

    private String threadSummary() {
        StringJoiner groups = new StringJoiner(", ");
        masterThreads.largest(THREAD_GROUP_SHARE).forEach((group, micros) ->
                groups.add(String.format(Locale.ROOT, "%s %.2f", group, (double) micros / messages)));
        String check;
        if (masterThreads.accountedToTheTick()) {
            check = "the groups add up to it within a tick per thread";
        } else if (masterThreads.exitedMicros() > 0) {
            check = "'exited threads' is CPU of threads that ended in the window (" + masterThreads.exitedThreads()
                    + " of those seen at its start)";
        } else {
            check = "MISMATCH: the groups exceed it by more than a tick per thread";
        }
        return String.format(Locale.ROOT, "  master threads, CPU us per acked message (groups above %.0f %% of the masters'): %s;"
                + " whole processes %.2f (%s); JIT compiler threads %.1f %% of it (%s)%n", 100 * THREAD_GROUP_SHARE, groups,
                (double) masterThreads.process().totalMicros() / messages, check, 100 * masterJitShare(),
                warm() ? "warm: below " + Math.round(100 * WARM_JIT_SHARE) + " %"
                        : "NOT WARM: " + Math.round(100 * WARM_JIT_SHARE) + " % or more, CPU figures include compiling");
    }

    /** Flat JSON fields (without braces) for smoke-result.json. */
    public void addJsonFields(StringJoiner json) {
        json.add(f("windowSeconds", windowSeconds));
        json.add(f("masterCpuUserMicrosPerMsg", masterUserMicrosPerMessage()))
                .add(f("masterCpuSystemMicrosPerMsg", masterSystemMicrosPerMessage()))
                .add(f("masterCpuMicrosPerMsg", masterMicrosPerMessage()))
                .add(f("slaveCpuUserMicrosPerMsg", slaveUserMicrosPerMessage()))
                .add(f("slaveCpuSystemMicrosPerMsg", slaveSystemMicrosPerMessage()))
                .add(f("loadGeneratorCpuMicrosPerMsg", loadGeneratorMicrosPerMessage()))
                // null when not measured: every number, negative included, is a measured one
                .add("\"otherCpuSeconds\": " + (otherCpu.measured() ? String.format(Locale.ROOT, "%.3f", otherCpu.micros() / 1e6) : "null"))
                .add("\"otherCpuNotMeasured\": " + (otherCpu.measured() ? "null" : GSON.toJson(otherCpu.notMeasured())))
                .add("\"otherCpuDoesNotAddUp\": " + otherCpu.doesNotAddUp())
                .add("\"otherCpu\": " + GSON.toJson(otherCpu))
                .add("\"busyMachine\": " + busyMachine())
                .add("\"machine\": \"" + machineLoad().label() + "\"")
                .add(f("masterAllocatedBytesPerMsg", masterAllocatedBytesPerMessage()))
                .add(f("masterGcCount", masterGcCount))
                .add(f("masterGcPauseMsTotal", masterGcPauseMillisTotal))
                .add(f("masterGcPauseMsMax", masterGcPauseMillisMax))
                .add(f("commitLogBytesPerMsg", commitLogBytesPerMessage()))
                .add(f("commitLogRecords", commitLog.records()))
                .add(f("commitLogBytes", commitLog.bytes()));
        if (masterThreads != null) {
            json.add("\"masterThreadCpu\": " + GSON.toJson(masterThreads));
            json.add("\"masterThreadCpuMicrosPerMsg\": " + GSON.toJson(masterThreadMicrosPerMessage()));
            json.add(f("masterJitShare", masterJitShare()));
            json.add(f("masterContextSwitchesPerMsg", masterContextSwitchesPerMessage()))
                    .add(f("masterVoluntarySwitchesPerMsg", masterVoluntarySwitchesPerMessage()));
            json.add("\"masterThreadSwitchesPerMsg\": " + GSON.toJson(masterThreadSwitchesPerMessage()));
        }
        if (masterAllocationSites != null) {
            json.add(f("masterAllocationSamples", masterAllocationSites.samples()));
            json.add("\"masterAllocationSitesBytesPerMsg\": " + GSON.toJson(masterAllocationSitesBytesPerMessage()));
        }
    }

    private static String f(String name, double value) {
        return "\"" + name + "\": " + String.format(Locale.ROOT, "%.3f", value);
    }

    private static String f(String name, long value) {
        return "\"" + name + "\": " + value;
    }

    private static String n(double value) {
        return value < 0 ? "n/a" : String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.2f", value);
    }
}
