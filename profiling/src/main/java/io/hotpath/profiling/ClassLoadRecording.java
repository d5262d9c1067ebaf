package io.hotpath.profiling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The {@code jdk.ClassLoad} events of a JFR recording made with their stack traces: who made the JVM load a
 * class. A class is loaded lazily, when code that uses it first runs, so the Java frames of its load event
 * name that code (a load forced by the verifier or by reflection would show other frames).
 */
public final class ClassLoadRecording {

    /** One load: the thread, and the Java frames at that moment, innermost first, as {@code Class.method}. */
    public record Load(String className, long epochMillis, String thread, List<String> frames) {
    }

    private ClassLoadRecording() {
    }

    /** The {@code jdk.ClassLoad} events of {@code className} in the recording at {@code file}, oldest first. */
    public static List<Load> loadsOf(Path file, String className) {
        List<Load> loads = new ArrayList<>();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (!event.getEventType().getName().equals("jdk.ClassLoad")) {
                    continue;
                }
                RecordedClass loaded = event.getValue("loadedClass");
                if (loaded != null && loaded.getName().equals(className)) {
                    loads.add(new Load(className, event.getStartTime().toEpochMilli(), threadName(event), frames(event)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the recording " + file + ": " + e.getMessage(), e);
        }
        loads.sort(Comparator.comparingLong(Load::epochMillis));
        return loads;
    }

    private static String threadName(RecordedEvent event) {
        RecordedThread thread = event.getThread();
        return thread == null ? "?" : thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    }

    private static List<String> frames(RecordedEvent event) {
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null) {
            return List.of();
        }
        List<String> frames = new ArrayList<>();
        for (RecordedFrame frame : stack.getFrames()) {
            if (frame.isJavaFrame() && frame.getMethod() != null) {
                frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
            }
        }
        return frames;
    }
}
