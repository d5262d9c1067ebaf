package io.hotpath.sourcecheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The upstream runs still restated in our sources ({@value #RESOURCE}): per (our file, upstream file), how many
 * normalized lines of runs are accepted. Anything else is a copy; an entry nothing matches is stale.
 */
final class KnownCopies {

    static final String RESOURCE = "known-upstream-copies.txt";

    private record Entry(String file, String upstreamPath, int maximum) {
        boolean matches(CopyFinder.Run run) {
            return run.file().equals(file) && upstreamFile(run).equals(upstreamPath);
        }
    }

    private final List<Entry> entries;

    private KnownCopies(List<Entry> entries) {
        this.entries = entries;
    }

    static KnownCopies read() {
        try (InputStream in = KnownCopies.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the test class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static KnownCopies parse(String text) {
        List<Entry> entries = new ArrayList<>();
        int number = 0;
        for (String line : text.split("\n")) {
            number++;
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\\|");
            if (fields.length != 4 || fields[3].isBlank()) {
                throw new IllegalArgumentException(RESOURCE + ":" + number + ": expected '<our file> | <upstream file> | <lines> | <why>': " + line);
            }
            entries.add(new Entry(fields[0].strip(), fields[1].strip(), Integer.parseInt(fields[2].strip())));
        }
        return new KnownCopies(entries);
    }

    /** The runs no entry accepts: in no listed pair, or more lines in total than the pair's entry allows. */
    List<CopyFinder.Run> unlisted(List<CopyFinder.Run> runs) {
        Map<Entry, Integer> total = new HashMap<>();
        for (CopyFinder.Run run : runs) {
            for (Entry entry : entries) {
                if (entry.matches(run)) {
                    total.merge(entry, run.normalizedLines(), Integer::sum);
                }
            }
        }
        List<CopyFinder.Run> unlisted = new ArrayList<>();
        for (CopyFinder.Run run : runs) {
            boolean accepted = false;
            for (Entry entry : entries) {
                accepted |= entry.matches(run) && total.get(entry) <= entry.maximum();
            }
            if (!accepted) {
                unlisted.add(run);
            }
        }
        return unlisted;
    }

    /** The entries that match no run. */
    List<String> unmatched(List<CopyFinder.Run> runs) {
        List<String> unmatched = new ArrayList<>();
        for (Entry entry : entries) {
            if (runs.stream().noneMatch(entry::matches)) {
                unmatched.add(entry.file() + " | " + entry.upstreamPath());
            }
        }
        return unmatched;
    }

    /**
     * The upstream file of a run's location ("archive!entry:line"), as a path inside the release: a source release's
     * entries start with its {@code rocketmq-all-<version>/} folder, a -sources jar's with the package.
     */
    static String upstreamFile(CopyFinder.Run run) {
        String location = run.upstream();
        String entry = location.substring(location.indexOf('!') + 1, location.lastIndexOf(':'));
        return entry.startsWith("rocketmq-all-") ? entry.substring(entry.indexOf('/') + 1) : entry;
    }
}
