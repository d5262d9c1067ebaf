package io.hotpath.e2e.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * CPU that a process's threads used over the load window, per thread group ({@link ThreadCpuTimes#group}),
 * beside the whole process's figure over the same window; for the masters, both masters added up.
 * smoke-result.json holds it as is ({@code masterThreadCpu}, this record through Gson).
 *
 * <p>The groups do not hold everything: a thread that ended in the window took its counters with it (the
 * kernel keeps its CPU in the process figure only), and so did one that started and ended between the two
 * snapshots, which neither saw. {@link #exitedMicros()} is that difference. Each thread's counters are whole
 * clock ticks at both edges, so the groups also miss up to a tick per thread ({@link #toleranceMicros()}).
 * User and system are split per thread and per process separately by the kernel, so only their total is
 * compared.
 *
 * @param threads       threads alive at the end of the window (the groups' threads)
 * @param exitedThreads threads alive at its start that were gone at its end
 */
public record ThreadGroupCpu(ProcessCpuTimes process, List<Group> groups, int threads, int exitedThreads) {

    /** Key of the groups below the reporting share, summed. */
    public static final String OTHER = "other";
    /** Key of the process's CPU that no thread alive at the end accounts for. */
    public static final String EXITED = "exited threads";

    public static final Comparator<Group> LARGEST_FIRST =
            Comparator.comparingLong((Group g) -> g.cpu().totalMicros()).reversed().thenComparing(Group::name);

    /** HotSpot's JIT compiler threads ("C2 CompilerThread0" as the kernel cuts it to 15 bytes, counter stripped). */
    public static final Set<String> JIT_GROUPS = Set.of("C1 CompilerThre", "C2 CompilerThre");

    /** The threads of one group alive at the end of the window, the CPU they used in it and how often they switched. */
    public record Group(String name, int threads, ProcessCpuTimes cpu, ContextSwitches switches) {

        /** A group whose context switches were not read. */
        public Group(String name, int threads, ProcessCpuTimes cpu) {
            this(name, threads, cpu, ContextSwitches.NONE);
        }
    }

    /** CPU of the JIT compiler threads in the window: high while the code under load is still being compiled. */
    public long jitMicros() {
        return groups.stream().filter(g -> JIT_GROUPS.contains(g.name())).mapToLong(g -> g.cpu().totalMicros()).sum();
    }

    /** {@link #jitMicros} as a share of the process's CPU, -1 when the process used none. */
    public double jitShare() {
        return process.totalMicros() <= 0 ? -1 : (double) jitMicros() / process.totalMicros();
    }

    public long groupsMicros() {
        return groups.stream().mapToLong(g -> g.cpu().totalMicros()).sum();
    }

    /** The process's CPU in the window that the groups miss: threads that ended in it, and tick rounding. */
    public long exitedMicros() {
        return process.totalMicros() - groupsMicros();
    }

    /** A tick per thread seen, and one for the process figure's own rounding. */
    public long toleranceMicros() {
        return (threads + exitedThreads + 1L) * ProcessCpuTimes.MICROS_PER_TICK;
    }

    /** True when the groups add up to the process figure within a tick per thread: no exited thread's CPU to speak of. */
    public boolean accountedToTheTick() {
        return Math.abs(exitedMicros()) <= toleranceMicros();
    }

    /** Both processes' figures, groups of the same name added up (the two masters run the same threads). */
    public ThreadGroupCpu plus(ThreadGroupCpu other) {
        Map<String, Group> merged = new TreeMap<>();
        for (Group group : groups) {
            merged.put(group.name(), group);
        }
        for (Group group : other.groups) {
            merged.merge(group.name(), group, (a, b) -> new Group(a.name(), a.threads() + b.threads(), a.cpu().plus(b.cpu()),
                    a.switches().plus(b.switches())));
        }
        List<Group> all = new ArrayList<>(merged.values());
        all.sort(LARGEST_FIRST);
        return new ThreadGroupCpu(process.plus(other.process), List.copyOf(all), threads + other.threads,
                exitedThreads + other.exitedThreads);
    }

    /** Every group's CPU per message, largest first, then {@link #EXITED}. */
    public Map<String, Double> perMessage(long messages) {
        Map<String, Double> out = new LinkedHashMap<>();
        groups.forEach(g -> out.put(g.name(), (double) g.cpu().totalMicros() / messages));
        out.put(EXITED, (double) exitedMicros() / messages);
        return out;
    }

    /**
     * The context switches of the threads alive at the end of the window, all groups together. A thread that ended in
     * it took its counters with it (as for {@link #exitedMicros}), so this is a lower bound when {@link #exitedThreads}
     * is not 0.
     */
    public ContextSwitches switches() {
        return groups.stream().map(Group::switches).reduce(ContextSwitches.NONE, ContextSwitches::plus);
    }

    /** Every group's context switches (voluntary + involuntary) per message, most first. */
    public Map<String, Double> switchesPerMessage(long messages) {
        Map<String, Double> out = new LinkedHashMap<>();
        groups.stream().sorted(Comparator.comparingLong((Group g) -> g.switches().total()).reversed().thenComparing(Group::name))
                .forEach(g -> out.put(g.name(), (double) g.switches().total() / messages));
        return out;
    }

    /**
     * The groups holding at least {@code share} of the process's CPU, largest first, the others summed as
     * {@link #OTHER}, then {@link #EXITED}; in microseconds.
     */
    public Map<String, Long> largest(double share) {
        Map<String, Long> out = new LinkedHashMap<>();
        long other = 0;
        for (Group group : groups) {
            if (group.cpu().totalMicros() >= share * process.totalMicros()) {
                out.put(group.name(), group.cpu().totalMicros());
            } else {
                other += group.cpu().totalMicros();
            }
        }
        out.put(OTHER, other);
        out.put(EXITED, exitedMicros());
        return out;
    }
}
