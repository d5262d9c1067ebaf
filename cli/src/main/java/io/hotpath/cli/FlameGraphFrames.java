package io.hotpath.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * CI's check that a profile shows the frames it should: the frame names of an async-profiler flame graph HTML, or the
 * lines of a collapsed-stacks file. The HTML's cpool stores each name as one character (the length of the prefix it
 * shares with the name before it, plus 32) and the rest, so a package can appear nowhere spelled out (2026-11-26: a
 * run's first broker frames read "4broker/..." and "4store/...", '4' = 20 + 32 for "org/apache/rocketmq/").
 */
final class FlameGraphFrames {

    private FlameGraphFrames() {
    }

    /** The frame names of a flame graph HTML, prefixes undone, in cpool order. */
    static List<String> names(String html) {
        List<String> names = new ArrayList<>();
        boolean inPool = false;
        String previous = "";
        for (String line : html.split("\n", -1)) {
            if (!inPool) {
                inPool = line.startsWith("const cpool = [");
                continue;
            }
            if (line.startsWith("];")) {
                break;
            }
            String entry = line.replaceFirst("^'", "").replaceFirst("',?$", "");
            if (entry.isEmpty()) {
                continue;
            }
            int shared = Math.min(previous.length(), Math.max(0, entry.charAt(0) - 32));
            String name = previous.substring(0, shared) + entry.substring(1);
            names.add(name);
            previous = name;
        }
        return names;
    }

    /** Fails unless every file exists, is not empty, and has a frame (HTML) or line (otherwise) matching {@code pattern}. */
    static void expect(String pattern, List<Path> files) {
        Pattern regex = Pattern.compile(pattern);
        for (Path file : files) {
            String text;
            try {
                text = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            } catch (IOException e) {
                throw new CommandFailure("cannot read the profile " + file + ": " + e.getMessage());
            }
            if (text.isEmpty()) {
                throw new CommandFailure("expected a non-empty profile at " + file);
            }
            boolean html = file.getFileName().toString().endsWith(".html");
            List<String> frames = html ? names(text) : List.of(text.split("\n"));
            if (frames.stream().noneMatch(frame -> regex.matcher(frame).find())) {
                throw new CommandFailure((html ? "flame graph " : "profile ") + file + " has no frame matching '" + pattern + "'");
            }
        }
    }
}
