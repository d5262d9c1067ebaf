package io.hotpath.e2e.idle;

import io.hotpath.e2e.measure.ClusterCpuSnapshot;
import io.hotpath.e2e.measure.OtherCpu;
import io.hotpath.e2e.measure.ThreadGroupCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one idle window measured: per role (the {@link #ROLES}) each process's mean CPU and wake-ups per second, in all
 * and per thread group; the other processes' CPU ({@link OtherCpu}) and the masters' JIT share. idle-*.json holds it as
 * is (Gson).
 *
 * @param seconds        the window's wall time
 * @param roles          by role name, in {@link #ROLES} order; a role without processes is absent
 * @param otherCpu       the machine's busy time minus every watched process's CPU
 * @param masterJitShare the masters' JIT compiler threads' share of the masters' CPU, -1 when they used none
 */
public record IdleFigures(double seconds, Map<String, Role> roles, OtherCpu otherCpu, double masterJitShare) {

    public static final String MASTER = "master";
    public static final String SLAVE = "slave";
    public static final String NAMESRV = "namesrv";
    /** This JVM: it idles too, and its CPU is ours, not another process's. */
    public static final String CONTROLLER = "controller";
    public static final List<String> ROLES = List.of(MASTER, SLAVE, NAMESRV, CONTROLLER);

    /**
     * One role's processes in the window, each figure the mean per process (two masters: their sum / 2).
     *
     * @param wakeupsPerSecond context switches (voluntary + involuntary) of the threads alive at the window's end
     * @param groups           per thread group (name without its counter), largest CPU first, then
     *                         {@link ThreadGroupCpu#EXITED} (CPU only)
     */
    public record Role(int processes, double cpuMsPerSecond, double userMsPerSecond, double systemMsPerSecond, double wakeupsPerSecond,
                       double voluntaryPerSecond, double involuntaryPerSecond, Map<String, Group> groups) {

        /** Every group's CPU in ms/s per process, {@link ThreadGroupCpu#EXITED} included (ThreadGroupTable's input). */
        public Map<String, Double> groupCpu() {
            Map<String, Double> out = new LinkedHashMap<>();
            groups.forEach((name, group) -> out.put(name, group.cpuMsPerSecond()));
            return out;
        }

        /** Every group's wake-ups per second per process, without {@link ThreadGroupCpu#EXITED}. */
        public Map<String, Double> groupWakeups() {
            Map<String, Double> out = new LinkedHashMap<>();
            groups.forEach((name, group) -> {
                if (!name.equals(ThreadGroupCpu.EXITED)) {
                    out.put(name, group.wakeupsPerSecond());
                }
            });
            return out;
        }
    }

    /** One thread group of a role: threads per process at the window's end, CPU ms/s and wake-ups/s per process. */
    public record Group(double threads, double cpuMsPerSecond, double wakeupsPerSecond) {
    }

    /**
     * The figures between two readings; {@code roleOf} names each watched process's role (every process of both readings
     * must have one).
     */
    public static IdleFigures between(ClusterCpuSnapshot start, ClusterCpuSnapshot end, Map<String, String> roleOf) {
        double seconds = end.secondsSince(start);
        Map<String, ThreadGroupCpu> used = end.since(start);
        Map<String, Role> roles = new LinkedHashMap<>();
        for (String role : ROLES) {
            ThreadGroupCpu sum = null;
            int processes = 0;
            for (Map.Entry<String, ThreadGroupCpu> process : used.entrySet()) {
                String r = roleOf.get(process.getKey());
                if (r == null) {
                    throw new IllegalArgumentException("no role for process " + process.getKey() + " (roles: " + roleOf + ")");
                }
                if (r.equals(role)) {
                    sum = sum == null ? process.getValue() : sum.plus(process.getValue());
                    processes++;
                }
            }
            if (sum != null) {
                roles.put(role, role(sum, processes, seconds));
            }
        }
        ThreadGroupCpu masters = used.entrySet().stream().filter(e -> MASTER.equals(roleOf.get(e.getKey()))).map(Map.Entry::getValue)
                .reduce(ThreadGroupCpu::plus).orElse(null);
        return new IdleFigures(seconds, roles, end.otherCpuSince(start), masters == null ? -1 : masters.jitShare());
    }

    private static Role role(ThreadGroupCpu sum, int processes, double seconds) {
        double per = processes * seconds;
        Map<String, Group> groups = new LinkedHashMap<>();
        for (ThreadGroupCpu.Group group : sum.groups()) {
            groups.put(group.name(), new Group((double) group.threads() / processes, group.cpu().totalMicros() / 1e3 / per,
                    group.switches().total() / per));
        }
        groups.put(ThreadGroupCpu.EXITED, new Group(0, sum.exitedMicros() / 1e3 / per, 0));
        return new Role(processes, sum.process().totalMicros() / 1e3 / per, sum.process().userMicros() / 1e3 / per,
                sum.process().systemMicros() / 1e3 / per, sum.switches().total() / per, sum.switches().voluntary() / per,
                sum.switches().involuntary() / per, groups);
    }

    /** The masters' JIT compiler CPU in the window, ms/s per master; 0 when it used none. */
    public double masterJitMsPerSecond() {
        return Math.max(0, masterJitShare) * cpu(MASTER);
    }

    /** A role's figure, null when the role had no process. */
    public Double cpu(String role) {
        Role r = roles.get(role);
        return r == null ? null : r.cpuMsPerSecond();
    }

    /** A role's wake-ups per second per process, null when the role had no process. */
    public Double wakeups(String role) {
        Role r = roles.get(role);
        return r == null ? null : r.wakeupsPerSecond();
    }
}
