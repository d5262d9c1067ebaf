package io.hotpath.e2e.measure;

/**
 * How often a thread gave up its CPU so far, from {@code /proc/<pid>/task/<tid>/status}: {@code voluntary} when it
 * blocked (it waited for a lock, a queue, a socket: each hand-off of a message to another thread's queue ends in one
 * on the side that waits), {@code involuntary} when the scheduler took the CPU away (its slice ended with other
 * threads runnable). Per message over a load window they say how many wake-ups a message costs, which CPU per
 * message alone does not: the kernel's share of a master's CPU is mostly those wake-ups.
 */
public record ContextSwitches(long voluntary, long involuntary) {

    public static final ContextSwitches NONE = new ContextSwitches(0, 0);

    /** The two counters of a status file's text; a field it lacks counts 0 (every Linux since 2.6.23 has both). */
    static ContextSwitches parse(String status) {
        long voluntary = 0;
        long involuntary = 0;
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return new ContextSwitches(voluntary, involuntary);
    }

    public ContextSwitches minus(ContextSwitches earlier) {
        return new ContextSwitches(voluntary - earlier.voluntary, involuntary - earlier.involuntary);
    }

    public ContextSwitches plus(ContextSwitches other) {
        return new ContextSwitches(voluntary + other.voluntary, involuntary + other.involuntary);
    }

    public long total() {
        return voluntary + involuntary;
    }

    /** True when neither counter is below {@code earlier}'s: the same thread, later (a thread's counters never go down). */
    boolean notBelow(ContextSwitches earlier) {
        return voluntary >= earlier.voluntary && involuntary >= earlier.involuntary;
    }
}
