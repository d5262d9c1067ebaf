package io.hotpath.sourcecheck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds runs of identical normalized lines ({@link #normalize}) shared by our files and upstream's: every window of
 * {@code minimumRun} consecutive normalized lines of ours is indexed; each upstream file is then read once, window by
 * window, and a window equal to one of ours (compared line by line, not only by hash) marks those lines of ours. The
 * marked lines, merged into maximal runs, are the copies.
 */
final class CopyFinder {

    /** A normalized line and the line number (1-based) it came from. */
    record Line(int number, String text) {
    }

    /** Lines {@code first}..{@code last} (source line numbers) of one of our files, found in {@code upstream}. */
    record Run(String file, int first, int last, int normalizedLines, String upstream) {
        @Override
        public String toString() {
            return file + ":" + first + "-" + last + " (" + normalizedLines + " normalized lines) = " + upstream;
        }
    }

    private record Window(Ours file, int start) {
    }

    private static final class Ours {
        final String name;
        final List<Line> lines;
        final String[] upstreamAt;

        Ours(String name, List<Line> lines) {
            this.name = name;
            this.lines = lines;
            this.upstreamAt = new String[lines.size()];
        }
    }

    private final int minimumRun;
    private final Map<Long, List<Window>> windows = new HashMap<>();
    private final Map<String, Ours> ours = new LinkedHashMap<>();

    CopyFinder(int minimumRun) {
        if (minimumRun < 1) {
            throw new IllegalArgumentException("minimumRun must be >= 1: " + minimumRun);
        }
        this.minimumRun = minimumRun;
    }

    /** One of our files. */
    void addOurs(String name, String text) {
        Ours file = new Ours(name, normalize(text));
        ours.put(name, file);
        for (int i = 0; i + minimumRun <= file.lines.size(); i++) {
            windows.computeIfAbsent(hash(file.lines, i), h -> new ArrayList<>(1)).add(new Window(file, i));
        }
    }

    /** One upstream file, {@code where} naming it in the report. */
    void scanUpstream(String where, String text) {
        List<Line> theirs = normalize(text);
        for (int j = 0; j + minimumRun <= theirs.size(); j++) {
            List<Window> hits = windows.get(hash(theirs, j));
            if (hits == null) {
                continue;
            }
            for (Window hit : hits) {
                if (same(hit.file.lines, hit.start, theirs, j)) {
                    for (int k = 0; k < minimumRun; k++) {
                        if (hit.file.upstreamAt[hit.start + k] == null) {
                            hit.file.upstreamAt[hit.start + k] = where + ":" + theirs.get(j + k).number();
                        }
                    }
                }
            }
        }
    }

    /** Every maximal run of our lines found upstream, in our files' order. */
    List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        for (Ours file : ours.values()) {
            int i = 0;
            while (i < file.lines.size()) {
                if (file.upstreamAt[i] == null) {
                    i++;
                    continue;
                }
                int start = i;
                while (i < file.lines.size() && file.upstreamAt[i] != null) {
                    i++;
                }
                runs.add(new Run(file.name, file.lines.get(start).number(), file.lines.get(i - 1).number(), i - start,
                    file.upstreamAt[start]));
            }
        }
        return runs;
    }

    /**
     * The lines that carry code: each trimmed; blank lines, comments ({@code //} lines, block comments, javadoc),
     * {@code package} and {@code import} lines, annotations alone on a line and lines of nothing but braces, brackets,
     * parentheses, commas and semicolons dropped.
     */
    static List<Line> normalize(String text) {
        List<Line> lines = new ArrayList<>();
        boolean inBlockComment = false;
        int number = 0;
        for (String raw : text.split("\r\n|\r|\n", -1)) {
            number++;
            String line = raw.strip();
            if (inBlockComment) {
                int end = line.indexOf("*/");
                if (end < 0) {
                    continue;
                }
                inBlockComment = false;
                line = line.substring(end + 2).strip();
            }
            if (line.startsWith("/*")) {
                int end = line.indexOf("*/", 2);
                if (end < 0) {
                    inBlockComment = true;
                    continue;
                }
                line = line.substring(end + 2).strip();
            }
            if (line.isEmpty() || line.startsWith("//") || line.startsWith("*") || line.startsWith("package ")
                || line.startsWith("import ") || isAnnotationAlone(line) || isPunctuationOnly(line)) {
                continue;
            }
            lines.add(new Line(number, line));
        }
        return lines;
    }

    private static boolean isAnnotationAlone(String line) {
        return line.startsWith("@") && line.indexOf(' ') < 0 && !line.contains("=");
    }

    private static boolean isPunctuationOnly(String line) {
        for (int i = 0; i < line.length(); i++) {
            if ("{}()[];, \t".indexOf(line.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private long hash(List<Line> lines, int start) {
        long h = 1125899906842597L;
        for (int k = start; k < start + minimumRun; k++) {
            h = 31 * h + lines.get(k).text().hashCode();
            h ^= h >>> 29;
        }
        return h;
    }

    private boolean same(List<Line> a, int i, List<Line> b, int j) {
        for (int k = 0; k < minimumRun; k++) {
            if (!a.get(i + k).text().equals(b.get(j + k).text())) {
                return false;
            }
        }
        return true;
    }
}
