package io.hotpath.jmh.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the Result section of every patch of a line ({@code patches/<line>/NNNN-*.patch}: from the line that
 * starts with {@code Result (} to the {@code ---} line that ends the message) from one committed JMH result file.
 * Only the message changes; the diff, and so what {@code bin/hotpath patches regenerate} compares, stays as it is.
 */
public final class PatchResults {

    private static final Pattern PATCH = Pattern.compile("^(\\d{4})-.*\\.patch$");

    private PatchResults() {
    }

    /** @return the patch files it rewrote, in order */
    public static List<Path> rewrite(Path lineDir, LineQuotes quotes, JmhResults results, String resultFile,
            String command) throws IOException {
        List<Path> patches = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(lineDir, "*.patch")) {
            for (Path p : files) {
                patches.add(p);
            }
        }
        patches.sort(null);
        if (patches.isEmpty()) {
            throw new IllegalArgumentException("no patches in " + lineDir);
        }
        List<String> rewritten = new ArrayList<>();
        for (Path p : patches) {
            Matcher m = PATCH.matcher(p.getFileName().toString());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a NNNN-*.patch file: " + p);
            }
            String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
            // an end-to-end patch quotes its campaign file; a JMH run has nothing of it to write
            rewritten.add(quotes.endToEnd().contains(m.group(1)) ? text
                : replaceResult(text, ResultSection.write(quotes, m.group(1), results, resultFile, command), p));
        }
        // all or nothing: a patch without quotes fails before any file changes
        for (int i = 0; i < patches.size(); i++) {
            Files.write(patches.get(i), rewritten.get(i).getBytes(StandardCharsets.UTF_8));
        }
        return patches;
    }

    static String replaceResult(String patch, String section, Path file) {
        int end = patch.indexOf("\n---\n");
        int start = patch.lastIndexOf("\nResult (", end);
        if (end < 0 || start < 0) {
            throw new IllegalArgumentException(file + ": no message section 'Result (' ... before the '---' line");
        }
        return patch.substring(0, start + 1) + section + patch.substring(end + 1);
    }
}
