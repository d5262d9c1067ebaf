/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.e2e.check;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import io.hotpath.e2e.load.TimedSends;
import io.hotpath.e2e.load.TimedSends.Kind;
import io.hotpath.e2e.load.TimedSends.Observation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The verdict and the figures of the timed phase ({@link TimedSends}): every acknowledged timer and delay-level message
 * (and every probe and plain one) seen by the consumer, intact, exactly once (with a fault scenario, whose client retries
 * may store a message twice: at least once, the extra copies counted), and never before the broker may deliver it; and,
 * per kind, how late it came: lateness = first seen minus the time asked, in ms (min, median, p90, max over the
 * acknowledged messages seen). For plain messages the time asked is the send's start, so theirs is the consumer's floor:
 * send, store, reput, the held pull answered, the listener called.
 *
 * <p>"Before the broker may" is stock's contract: a delay-level message no earlier than its send's start plus the level's
 * delay (the broker counts from its store time, which is later), a timer message no earlier than the slot the broker rounds
 * its time down to ({@link TimedSends#timerSlot}: up to {@link TimedSends#TIMER_PRECISION_MS} before the time asked, so a
 * timer message's lateness may be negative on stock); {@link #CLOCK_TOLERANCE_MS} for the clock's granularity. The second
 * figure per kind, after the earliest, is what the broker's threads add beyond that contract.
 */
public final class DeliveryLateness {

    /** {@code System.currentTimeMillis} steps on some systems by up to ~10 ms; the broker and we read the same clock. */
    public static final long CLOCK_TOLERANCE_MS = 10;
    private static final Gson GSON = new GsonBuilder().create();
    /** What a run without the phase reports (a round that ended before it, and the synthetic results of tests). */
    public static final DeliveryLateness NONE = new DeliveryLateness(List.of(), false, "not run");

    private final List<Observation> observations;
    private final boolean duplicatesAllowed;
    private final String skipped;
    private final Map<Kind, Figures> figures = new EnumMap<>(Kind.class);
    private final List<String> problems = new ArrayList<>();
    private long lost;
    private long corrupt;
    private long early;
    private long duplicates;
    private long storedUnacked;

    private DeliveryLateness(List<Observation> observations, boolean duplicatesAllowed, String skipped) {
        this.observations = observations;
        this.duplicatesAllowed = duplicatesAllowed;
        this.skipped = skipped;
        judge();
    }

    /**
     * Judges what {@link TimedSends} saw. {@code duplicatesAllowed}: the run had a fault, whose client retries may store a
     * message twice (as {@link DeliveryAudit} counts them); without one, a second copy fails.
     */
    public static DeliveryLateness judge(TimedSends.Sent sent, boolean duplicatesAllowed) {
        return judge(sent.observations(), sent.withTimer(), duplicatesAllowed);
    }

    /** A round that did not run the phase, and why (the summary says so; nothing is judged). */
    public static DeliveryLateness skipped(String reason) {
        return new DeliveryLateness(List.of(), false, reason);
    }

    /** {@link #judge(TimedSends.Sent, boolean)} of what was seen; {@code withTimer} false: the line's broker has no timer. */
    public static DeliveryLateness judge(List<Observation> observations, boolean withTimer, boolean duplicatesAllowed) {
        return new DeliveryLateness(List.copyOf(observations),
                duplicatesAllowed, withTimer ? null : "no timer messages: a 4.9.x broker has no timer (it would deliver them at once)");
    }

    /**
     * Lateness figures of one kind, in ms; {@code sinceEarliest*} from the earliest the broker may deliver instead;
     * {@code latest} where the latest message of the kind (counted from its earliest) spent its time, null when none was seen.
     */
    public record Figures(String kind, int sent, int acked, int seen, long minMs, long medianMs, long p90Ms, long maxMs,
                          long sinceEarliestMinMs, long sinceEarliestMedianMs, long sinceEarliestP90Ms, long sinceEarliestMaxMs,
                          Stages latest) {

        String line() {
            if (seen == 0) {
                return String.format(Locale.ROOT, "%s: %d sent, %d acked, none seen", kind, sent, acked);
            }
            return String.format(Locale.ROOT, "%s: %d acked, seen %d; late min %d, median %d, p90 %d, max %d ms%s; latest: %s", kind,
                    acked, seen, minMs, medianMs, p90Ms, maxMs, minMs == sinceEarliestMinMs && maxMs == sinceEarliestMaxMs ? ""
                            : String.format(Locale.ROOT, " (after the broker's slot: median %d, p90 %d, max %d ms)",
                            sinceEarliestMedianMs, sinceEarliestP90Ms, sinceEarliestMaxMs), latest.text());
        }
    }

    /**
     * One message's way through the broker, in ms after the earliest it may come (a timer message's slot, else the time
     * asked), from the times the broker wrote into the copy the consumer first got: {@code dequeuedMs} when the timer's
     * dequeue read it back (null: not a timer message, or a broker that writes none), {@code storedMs} when that copy
     * entered the CommitLog (null: unknown), {@code seenMs} when the consumer had it. A message late by a stage shows it
     * here: the timer's dequeue (up to {@code dequeuedMs}), its put (up to {@code storedMs}), or the reput, the held
     * pull's answer and the consumer (the rest).
     */
    public record Stages(int seq, Long dequeuedMs, Long storedMs, long seenMs) {

        static Stages of(Observation o) {
            return new Stages(o.seq(), o.dequeuedMs() < 0 ? null : o.dequeuedMs() - o.earliestMs(),
                    o.storedMs() < 0 ? null : o.storedMs() - o.earliestMs(), o.sinceEarliestMs());
        }

        public String text() {
            StringBuilder out = new StringBuilder("seq " + seq + ":");
            if (dequeuedMs != null) {
                out.append(" dequeued ").append(signed(dequeuedMs)).append(',');
            }
            if (storedMs != null) {
                out.append(" stored ").append(signed(storedMs)).append(',');
            }
            return out.append(" seen ").append(signed(seenMs)).append(" ms").toString();
        }

        private static String signed(long ms) {
            return ms < 0 ? Long.toString(ms) : "+" + ms;
        }
    }

    private void judge() {
        Map<Kind, List<Observation>> byKind = new EnumMap<>(Kind.class);
        for (Observation o : observations) {
            byKind.computeIfAbsent(o.kind(), k -> new ArrayList<>()).add(o);
            String what = String.format(Locale.ROOT, "%s seq %d", o.kind().label(), o.seq());
            if (o.acked() && !o.seen()) {
                lost++;
                problem("lost: " + what + " was acknowledged and never seen");
            }
            if (!o.acked() && o.seen()) {
                storedUnacked++;
            }
            if (o.intactCopies() < o.copies()) {
                corrupt++;
                problem("corrupt: " + what + ": " + (o.copies() - o.intactCopies()) + " of " + o.copies()
                        + " copies differ in body or deliver time asked");
            }
            if (o.copies() > 1) {
                duplicates += o.copies() - 1;
                if (!duplicatesAllowed) {
                    problem("duplicate: " + what + " came " + o.copies() + " times");
                }
            }
            if (o.seen() && o.firstSeenMs() < o.earliestMs() - CLOCK_TOLERANCE_MS) {
                early++;
                problem(String.format(Locale.ROOT, "early: %s seen %d ms before the earliest the broker may deliver it (asked %d, earliest %d, seen %d)",
                        what, o.earliestMs() - o.firstSeenMs(), o.askedMs(), o.earliestMs(), o.firstSeenMs()));
            }
        }
        byKind.forEach((kind, list) -> figures.put(kind, figures(kind, list)));
    }

    private static Figures figures(Kind kind, List<Observation> list) {
        List<Observation> counted = list.stream().filter(o -> o.acked() && o.seen()).toList();
        long[] late = counted.stream().mapToLong(Observation::latenessMs).sorted().toArray();
        long[] since = counted.stream().mapToLong(Observation::sinceEarliestMs).sorted().toArray();
        int acked = (int) list.stream().filter(Observation::acked).count();
        Stages latest = counted.stream().max(Comparator.comparingLong(Observation::sinceEarliestMs)).map(Stages::of).orElse(null);
        return new Figures(kind.label(), list.size(), acked, counted.size(), at(late, 0), at(late, 0.5), at(late, 0.9), at(late, 1),
                at(since, 0), at(since, 0.5), at(since, 0.9), at(since, 1), latest);
    }

    /** Nearest rank, as the load's RT percentiles ({@code LoadResult}); 0 when empty. */
    static long at(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private void problem(String problem) {
        if (problems.size() < 10) {
            problems.add(problem);
        }
    }

    public boolean ran() {
        return !observations.isEmpty();
    }

    public boolean passed() {
        return lost == 0 && corrupt == 0 && early == 0 && (duplicatesAllowed || duplicates == 0);
    }

    /** Why the phase failed, one phrase per cause; empty on a pass (and when it did not run). */
    public List<String> failureReasons() {
        List<String> reasons = new ArrayList<>();
        if (!passed()) {
            reasons.add(String.format(Locale.ROOT, "timed phase: lost %d, corrupt %d, early %d, duplicates %d%s", lost, corrupt, early,
                    duplicates, duplicatesAllowed ? " (allowed under the fault)" : ""));
        }
        return reasons;
    }

    public long lost() {
        return lost;
    }

    public long corrupt() {
        return corrupt;
    }

    public long early() {
        return early;
    }

    public long duplicates() {
        return duplicates;
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** The figures of {@code kind}, null when none of it was sent. */
    public Figures figures(Kind kind) {
        return figures.get(kind);
    }

    /** The summary's lines, each indented by two spaces. */
    public String summaryLines() {
        if (!ran()) {
            return this == NONE ? "" : String.format(Locale.ROOT, "  timed %s: %s%n", TimedSends.TOPIC, skipped);
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "  timed %s: %s; lost %d, corrupt %d, early %d, duplicates %d%s%n",
                TimedSends.TOPIC, passed() ? "PASS" : "FAIL", lost, corrupt, early, duplicates,
                skipped == null ? "" : "; " + skipped));
        figures.forEach((kind, f) -> {
            if (kind != Kind.PROBE) {
                out.append("    ").append(f.line()).append('\n');
            }
        });
        problems.forEach(p -> out.append("    ").append(p).append('\n'));
        return out.toString();
    }

    /** One cell of the smoke's side-by-side table: median / p90 / max lateness of {@code kind}, or "n/a". */
    public String cell(Kind kind) {
        Figures f = figures.get(kind);
        return f == null || f.seen() == 0 ? "n/a" : f.medianMs() + " / " + f.p90Ms() + " / " + f.maxMs();
    }

    /** {@code timed} in smoke-result.json: the verdict, each kind's figures and the problems. */
    public record Json(boolean ran, String result, String skipped, long lost, long corrupt, long early, long duplicates,
                       boolean duplicatesAllowed, long storedUnacked, long clockToleranceMs, long timerPrecisionMs, List<Figures> kinds,
                       List<String> problems) {
    }

    public Json toJson() {
        return new Json(ran(), !ran() ? "NONE" : passed() ? "PASS" : "FAIL", skipped, lost, corrupt, early, duplicates, duplicatesAllowed,
                storedUnacked, CLOCK_TOLERANCE_MS, TimedSends.TIMER_PRECISION_MS, List.copyOf(figures.values()), problems());
    }

    public JsonElement jsonTree() {
        return GSON.toJsonTree(toJson());
    }

    public String json() {
        return GSON.toJson(toJson());
    }
}
