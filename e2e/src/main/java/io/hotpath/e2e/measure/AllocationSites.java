package io.hotpath.e2e.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Where a broker allocated in a window: JFR's allocation samples ({@code jdk.ObjectAllocationSample}, throttled, each
 * weighted by the bytes its thread allocated since its previous sample) summed by site. A site is the innermost frame
 * of RocketMQ's or our own code ("CommitLog.checkMessageAndReturnSize"): what a patch can change. A sample with no
 * such frame (Netty's buffers, JDK internals on a thread of their own) counts under its thread group instead
 * ("no RocketMQ frame: NettyServerNIOSelector_"). The weights are estimates, so the report scales their shares to
 * the exact allocated bytes of the thread counters ({@link #bytesPerMessage}).
 *
 * <p>Only a profiled round records the samples ({@link BrokerFlightRecording#jvmOptions(java.nio.file.Path, boolean)}):
 * each is a stack walk, and the measured rounds stay without them. {@link BrokerFlightRecording#read} reads them in the
 * same pass as the allocation counters and GC pauses.
 *
 * @param samples      samples in the window
 * @param weightBySite estimated bytes per site
 */
public record AllocationSites(long samples, Map<String, Long> weightBySite) {

    /** The code a site must be in: RocketMQ's, and ours (the classes our patches add). */
    static final List<String> SITE_PACKAGES = List.of("org.apache.rocketmq.", "io.hotpath.");
    public static final String NO_SITE = "no RocketMQ frame: ";
    static final String EVENT = "jdk.ObjectAllocationSample";

    public AllocationSites {
        weightBySite = Map.copyOf(weightBySite);
    }

    /**
     * The site of a sample whose stack is {@code frames} ("org.apache.rocketmq.store.CommitLog.putMessage", innermost
     * first), taken on {@code thread}.
     */
    static String site(List<String> frames, String thread) {
        for (String frame : frames) {
            if (SITE_PACKAGES.stream().anyMatch(frame::startsWith)) {
                int method = frame.lastIndexOf('.');
                int type = frame.lastIndexOf('.', method - 1);
                return frame.substring(type + 1);
            }
        }
        return NO_SITE + ThreadCpuTimes.group(thread == null ? "?" : thread);
    }

    /** The site of one {@link #EVENT} ({@link BrokerFlightRecording#read} sums them by site). */
    static String siteOf(RecordedEvent event) {
        RecordedThread thread = event.getThread("eventThread");
        return site(frames(event.getStackTrace()), thread == null ? null : thread.getJavaName());
    }

    private static List<String> frames(RecordedStackTrace stack) {
        List<String> frames = new ArrayList<>();
        if (stack != null) {
            for (RecordedFrame frame : stack.getFrames()) {
                if (frame.isJavaFrame()) {
                    frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
                }
            }
        }
        return frames;
    }

    /** Both brokers' samples, sites of the same name added up. */
    public AllocationSites plus(AllocationSites other) {
        Map<String, Long> merged = new TreeMap<>(weightBySite);
        other.weightBySite.forEach((site, weight) -> merged.merge(site, weight, Long::sum));
        return new AllocationSites(samples + other.samples, merged);
    }

    /**
     * Every site's share of the sampled weight times {@code totalBytesPerMessage} (the thread counters' exact figure),
     * most first; they add up to it.
     */
    public Map<String, Double> bytesPerMessage(double totalBytesPerMessage) {
        long all = weightBySite.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Double> out = new LinkedHashMap<>();
        weightBySite.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .forEach(site -> out.put(site.getKey(), all == 0 ? 0 : totalBytesPerMessage * site.getValue() / all));
        return out;
    }
}
