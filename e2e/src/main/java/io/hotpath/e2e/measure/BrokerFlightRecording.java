package io.hotpath.e2e.measure;

import io.hotpath.e2e.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A minimal JFR recording in every broker: only {@code jdk.ThreadAllocationStatistics} (each thread's
 * allocated bytes so far, every {@link #PERIOD}), {@code jdk.GarbageCollection} (pauses), and each compilation and
 * deoptimization (for {@link WindowCompilations}: a few thousand events in a broker's life). Allocated
 * bytes in a window are the per-thread counters summed at the last sample at or before the window's
 * end-plus-one-period minus the same sum at its start; allocation sampling events
 * ({@code jdk.ObjectAllocationSample}) are estimates: only a profiled round records them, for
 * {@link AllocationSites}. The controller keeps the brokers
 * idle for {@link #SETTLE} after the load so the closing sample holds no later traffic. Threads that
 * die inside the window lose their bytes (the broker's thread pools are fixed, so this is small).
 * The recording is written when the broker exits normally (SIGTERM); a broker killed with SIGKILL has
 * none, and its figures are reported absent.
 */
public final class BrokerFlightRecording {

    static final Duration PERIOD = Duration.ofSeconds(1);
    /** Quiet time after the load: one period plus scheduling slack. */
    public static final Duration SETTLE = Duration.ofMillis(1600);
    static final String FILE_NAME = "hotpath-broker.jfr";

    private static final String SETTINGS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- written by io.hotpath.e2e.measure.BrokerFlightRecording: allocation counters, GC pauses, compilations -->
            <configuration version="2.0" label="hotpath allocation and GC">
              <event name="jdk.ThreadAllocationStatistics">
                <setting name="enabled">true</setting>
                <setting name="period">1 s</setting>
              </event>
              <event name="jdk.GarbageCollection">
                <setting name="enabled">true</setting>
                <setting name="threshold">0 ms</setting>
              </event>
              <event name="jdk.Compilation">
                <setting name="enabled">true</setting>
                <setting name="threshold">0 ms</setting>
              </event>
              <event name="jdk.Deoptimization">
                <setting name="enabled">true</setting>
                <setting name="stackTrace">false</setting>
              </event>
            </configuration>
            """;

    /**
     * A profiled round's extra event: allocation samples with their stacks ({@link AllocationSites}). 500 a second per
     * broker give ~20,000 samples in a 40 s window, enough for sites down to a few bytes per message.
     */
    private static final String ALLOCATION_SAMPLES = """
              <event name="jdk.ObjectAllocationSample">
                <setting name="enabled">true</setting>
                <setting name="throttle">500/s</setting>
                <setting name="stackTrace">true</setting>
              </event>
            """;

    /**
     * Allocated bytes and GC pauses of one broker over a window; {@code allocatedBytes} -1 when unknown. {@code sites}:
     * the window's allocation samples (a profiled round's recording only), null when it holds none.
     */
    public record WindowFigures(long allocatedBytes, int gcCount, double gcPauseMillisTotal, double gcPauseMillisMax,
                                AllocationSites sites) {

        static final WindowFigures ABSENT = new WindowFigures(-1, -1, -1, -1, null);

        public boolean present() {
            return allocatedBytes >= 0;
        }
    }

    private BrokerFlightRecording() {
    }

    /**
     * Writes the settings into {@code runDir} and returns the broker JVM options. The file name is relative:
     * each node runs in its own directory, so every broker writes {@code <runDir>/<node>/hotpath-broker.jfr}.
     */
    public static List<String> jvmOptions(Path runDir) throws IOException {
        return jvmOptions(runDir, false);
    }

    /** {@link #jvmOptions(Path)}, with the allocation samples of a profiled round when {@code allocationSites}. */
    public static List<String> jvmOptions(Path runDir, boolean allocationSites) throws IOException {
        Path settings = runDir.resolve("hotpath-broker.jfc");
        Files.writeString(settings, allocationSites ? SETTINGS.replace("</configuration>", ALLOCATION_SAMPLES + "</configuration>")
                : SETTINGS);
        return List.of("-XX:StartFlightRecording=name=hotpath,settings=" + settings + ",filename=" + FILE_NAME + ",dumponexit=true");
    }

    public static WindowFigures read(Path nodeDir, Instant start, Instant end) {
        Path file = nodeDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return WindowFigures.ABSENT;
        }
        Instant closing = end.plus(PERIOD);
        // per thread: allocated-so-far by sample time
        Map<Long, TreeMap<Instant, Long>> allocation = new HashMap<>();
        int gcCount = 0;
        double pauseTotal = 0;
        double pauseMax = 0;
        Map<String, Long> siteWeights = new TreeMap<>();
        long siteSamples = 0;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                String type = event.getEventType().getName();
                if (type.equals("jdk.ThreadAllocationStatistics")) {
                    // the event's "thread" field names the measured thread (the event itself comes from a JFR thread);
                    // it is null for the odd sample of a thread that ended before the chunk's constant pool was written
                    RecordedThread measured = event.getThread("thread");
                    if (measured == null) {
                        continue;
                    }
                    long thread = measured.getJavaThreadId();
                    allocation.computeIfAbsent(thread, t -> new TreeMap<>()).put(event.getStartTime(), event.getLong("allocated"));
                } else if (type.equals("jdk.GarbageCollection")) {
                    Instant at = event.getStartTime();
                    if (!at.isBefore(start) && !at.isAfter(end)) {
                        gcCount++;
                        double pause = event.getDuration("sumOfPauses").toNanos() / 1e6;
                        pauseTotal += pause;
                        pauseMax = Math.max(pauseMax, event.getDuration("longestPause").toNanos() / 1e6);
                    }
                } else if (type.equals(AllocationSites.EVENT)) {
                    Instant at = event.getStartTime();
                    if (!at.isBefore(start) && !at.isAfter(end)) {
                        siteWeights.merge(AllocationSites.siteOf(event), event.getLong("weight"), Long::sum);
                        siteSamples++;
                    }
                }
            }
        } catch (IOException e) {
            Console.warn("cannot read " + file + ": " + e.getMessage() + "; allocation, GC and allocation-site figures absent");
            return WindowFigures.ABSENT;
        }
        if (allocation.isEmpty()) {
            return WindowFigures.ABSENT;
        }
        long allocated = 0;
        for (TreeMap<Instant, Long> samples : allocation.values()) {
            allocated += valueAt(samples, closing) - valueAt(samples, start);
        }
        return new WindowFigures(allocated, gcCount, pauseTotal, pauseMax,
                siteSamples == 0 ? null : new AllocationSites(siteSamples, siteWeights));
    }

    private static long valueAt(TreeMap<Instant, Long> samples, Instant at) {
        Map.Entry<Instant, Long> sample = samples.floorEntry(at);
        return sample == null ? 0 : sample.getValue();
    }
}
