package io.hotpath.profiling;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples in Brendan Gregg's collapsed format, as async-profiler and jfrconv write it: one line per
 * distinct stack, {@code root;...;leaf COUNT}, frames separated by {@code ;}, the count after the
 * last space (thread frames such as {@code [GC Thread#0 tid=7]} contain spaces, frames never
 * contain {@code ;}). Java frames may carry jfrconv's type suffix ({@code _[j]} JIT-compiled,
 * {@code _[i]} inlined, {@code _[0]} interpreted, {@code _[1]} C1, {@code _[k]} kernel);
 * {@link #frameName} drops it for matching.
 */
public final class CollapsedStacks {

    /** One distinct stack, root first, and how many samples (or weight) it has. */
    public record Stack(List<String> frames, long count) {
        public Stack {
            frames = List.copyOf(frames);
        }
    }

    private final Map<String, Long> counts;

    private CollapsedStacks(Map<String, Long> counts) {
        this.counts = counts;
    }

    public static CollapsedStacks empty() {
        return new CollapsedStacks(new LinkedHashMap<>());
    }

    public static CollapsedStacks read(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(reader, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    public static CollapsedStacks parse(String text) {
        try {
            return parse(new BufferedReader(new StringReader(text)), "input");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CollapsedStacks parse(BufferedReader reader, String source) throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        String line;
        int lineNumber = 0;
        while ((line = reader.readLine()) != null) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long count = space > 0 ? parseCount(line.substring(space + 1)) : -1;
            if (count < 0) {
                throw new IllegalArgumentException(source + ":" + lineNumber
                    + ": not a collapsed stack ('frame;frame;... COUNT'): " + abbreviate(line));
            }
            counts.merge(line.substring(0, space), count, Long::sum);
        }
        return new CollapsedStacks(counts);
    }

    private static long parseCount(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 120 ? line : line.substring(0, 60) + "..." + line.substring(line.length() - 57);
    }

    /** Adds every stack of {@code other} to this one (e.g. the two masters of one build). */
    public CollapsedStacks merge(CollapsedStacks other) {
        Map<String, Long> merged = new LinkedHashMap<>(counts);
        other.counts.forEach((stack, count) -> merged.merge(stack, count, Long::sum));
        return new CollapsedStacks(merged);
    }

    /**
     * The same profile with every count scaled so that the total is {@code total}: jfrconv's diff
     * compares raw self counts, so two profiles must have equal totals before they are diffed.
     */
    public CollapsedStacks normalizedTo(long total) {
        long sum = totalSamples();
        Map<String, Long> scaled = new LinkedHashMap<>();
        if (sum > 0) {
            counts.forEach((stack, count) -> {
                long value = Math.round(count * (double) total / sum);
                if (value > 0) {
                    scaled.put(stack, value);
                }
            });
        }
        return new CollapsedStacks(scaled);
    }

    public long totalSamples() {
        long sum = 0;
        for (long count : counts.values()) {
            sum += count;
        }
        return sum;
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    public List<Stack> stacks() {
        List<Stack> stacks = new ArrayList<>(counts.size());
        counts.forEach((stack, count) -> stacks.add(new Stack(List.of(stack.split(";")), count)));
        return Collections.unmodifiableList(stacks);
    }

    public void write(Path file) {
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, Long> entry : counts.entrySet()) {
                writer.write(entry.getKey());
                writer.write(' ');
                writer.write(Long.toString(entry.getValue()));
                writer.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code java/util/HashMap.put_[i]} -> {@code java/util/HashMap.put}; other frames unchanged. */
    public static String frameName(String frame) {
        int n = frame.length();
        if (n > 4 && frame.charAt(n - 1) == ']' && frame.charAt(n - 4) == '_' && frame.charAt(n - 3) == '[') {
            return frame.substring(0, n - 4);
        }
        return frame;
    }

    /**
     * True for a Java method frame: jfrconv marks them {@code _[j]}, {@code _[i]}, {@code _[0]},
     * {@code _[1]}; unannotated input falls back to the {@code package/Class.method} shape.
     */
    public static boolean isJavaFrame(String frame) {
        int n = frame.length();
        if (n > 4 && frame.charAt(n - 1) == ']' && frame.charAt(n - 4) == '_' && frame.charAt(n - 3) == '[') {
            char type = frame.charAt(n - 2);
            return type == 'j' || type == 'i' || type == '0' || type == '1';
        }
        return !frame.contains("::") && frame.indexOf('/') > 0 && frame.indexOf('.') > frame.lastIndexOf('/');
    }
}
