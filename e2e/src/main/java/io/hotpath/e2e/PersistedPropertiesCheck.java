package io.hotpath.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CommitLog side of patch 0003 (trimmed persisted properties), read from what the masters wrote:
 * after each run the records of the smoke topic are listed in {@code <runDir>/commitlog-records.tsv}
 * (seq, TOTALSIZE, whether a WAIT entry is stored), before the stores may be deleted. Then:
 * on a distribution carrying 0003, no record of the smoke topic stores {@code WAIT\1} (the smoke
 * sends only plain single messages there, the path 0003 trims); and with {@code --dist both}, the
 * same message (same run id, same seq: the same corpus) is exactly {@link #TRIMMED_BYTES} shorter
 * on the patched masters than on stock ({@code WAIT\1true\2} and the trailing {@code \2}).
 */
final class PersistedPropertiesCheck {

    static final String FILE = "commitlog-records.tsv";
    static final String PATCH = "0003-store-trim-persisted-properties.patch";
    /** {@code WAIT\1true\2} (10 bytes) and the trailing separator (1 byte) */
    static final int TRIMMED_BYTES = 11;

    private PersistedPropertiesCheck() {
    }

    static boolean trims(Distribution distribution) {
        return distribution.patches().contains(PATCH);
    }

    /** Lists the smoke topic's records of every master store of {@code cluster} into the run dir. */
    static void record(LocalCluster cluster, ClusterLayout layout, Path runDir, String topic) throws IOException {
        StringBuilder tsv = new StringBuilder("# seq\ttotalSize\tstoresWait\tmaster\n");
        for (ClusterLayout.Node master : layout.masters()) {
            for (CommitLogScan.StoredRecord r : CommitLogScan.records(cluster.nodeDir(master).resolve("store"), topic)) {
                tsv.append(r.seq()).append('\t').append(r.totalSize()).append('\t').append(r.storesWait()).append('\t')
                    .append(master.brokerName()).append('\n');
            }
        }
        Files.writeString(runDir.resolve(FILE), tsv, StandardCharsets.UTF_8);
    }

    static List<CommitLogScan.StoredRecord> read(Path runDir) throws IOException {
        List<CommitLogScan.StoredRecord> records = new ArrayList<>();
        Path file = runDir.resolve(FILE);
        if (!Files.exists(file)) {
            return records;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            records.add(new CommitLogScan.StoredRecord(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Boolean.parseBoolean(f[2])));
        }
        return records;
    }

    /** Problems found in {@code results} (empty if none); prints what it checked. */
    static List<String> check(List<SmokeResult> results) throws IOException {
        List<String> problems = new ArrayList<>();
        SmokeResult stock = null;
        SmokeResult patched = null;
        for (SmokeResult result : results) {
            List<CommitLogScan.StoredRecord> records = read(result.runDir());
            long withWait = records.stream().filter(CommitLogScan.StoredRecord::storesWait).count();
            if (trims(result.distribution())) {
                patched = patched == null ? result : patched;
                Console.progress("%s: %d CommitLog records of the smoke topic on the masters, %d store WAIT\\1 (0003 expects 0)",
                    result.flavor(), records.size(), withWait);
                if (records.isEmpty()) {
                    problems.add(result.flavor() + ": no CommitLog record of the smoke topic to check (" + result.runDir().resolve(FILE) + ")");
                } else if (withWait > 0) {
                    problems.add(result.flavor() + ": " + withWait + " of " + records.size() + " CommitLog records of the smoke topic store WAIT\\1");
                }
            } else if (!result.distribution().patches().contains(PATCH)) {
                stock = stock == null ? result : stock;
            }
        }
        if (stock != null && patched != null) {
            Map<Integer, Integer> stockSizes = sizesBySeq(read(stock.runDir()));
            Map<Integer, Integer> patchedSizes = sizesBySeq(read(patched.runDir()));
            int compared = 0;
            List<String> differing = new ArrayList<>();
            for (Map.Entry<Integer, Integer> e : patchedSizes.entrySet()) {
                Integer stockSize = stockSizes.get(e.getKey());
                if (stockSize == null) {
                    continue;
                }
                compared++;
                if (stockSize - e.getValue() != TRIMMED_BYTES) {
                    differing.add("seq " + e.getKey() + ": stock " + stockSize + " B, patched " + e.getValue() + " B");
                }
            }
            Console.progress("same message, stock vs %s: %d records compared, %d not exactly %d bytes shorter", patched.flavor(),
                compared, differing.size(), TRIMMED_BYTES);
            if (compared == 0) {
                problems.add("no message stored by both " + stock.flavor() + " and " + patched.flavor() + " to compare");
            } else if (!differing.isEmpty()) {
                problems.add(differing.size() + " of " + compared + " records are not exactly " + TRIMMED_BYTES
                    + " bytes shorter on " + patched.flavor() + ", e.g. " + differing.subList(0, Math.min(5, differing.size())));
            }
        }
        return problems;
    }

    private static Map<Integer, Integer> sizesBySeq(List<CommitLogScan.StoredRecord> records) {
        Map<Integer, Integer> sizes = new HashMap<>();
        for (CommitLogScan.StoredRecord r : records) {
            if (r.seq() >= 0) {
                sizes.putIfAbsent(r.seq(), r.totalSize());
            }
        }
        return sizes;
    }
}
