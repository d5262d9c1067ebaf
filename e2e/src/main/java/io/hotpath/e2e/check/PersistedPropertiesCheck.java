package io.hotpath.e2e.check;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.CompatSends;
import io.hotpath.e2e.load.ConsumerSendBacks;
import io.hotpath.e2e.load.RelaySends;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.rocketmq.common.topic.TopicValidator;

/**
 * The CommitLog side of patch 0003 (trimmed persisted properties), read from what the masters wrote:
 * after each run the records of the smoke topic are listed in {@code <runDir>/commitlog-records.tsv}
 * (seq, TOTALSIZE, whether a WAIT entry is stored, the bytes 0003 leaves out of it), before the stores may
 * be deleted. Then: on a distribution carrying 0003, no record of the smoke topic stores {@code WAIT\1} or a
 * trailing separator (the smoke sends only plain single messages there); and with {@code --dist both}, the
 * same message (same run id, same seq: the same corpus) is shorter on the patched masters than on stock by
 * exactly what the stock record holds of those ({@link CommitLogScan.StoredRecord#trimmableBytes}): on 4.9.0
 * {@code WAIT\1true\2} and the trailing {@code \2}, 11 bytes; on 4.9.8, whose normal send already stores
 * neither, 0 bytes (the record is the same); on 5.3.3, which stores WAIT and the trailing separator on every path
 * (plain sends included), 11 bytes again.
 *
 * <p>Per topic, every topic of the masters' CommitLogs is counted in {@code <runDir>/commitlog-topics.tsv}
 * (records, records storing {@code WAIT\1}), and the smoke prints the topics of the paths besides the plain
 * send: {@link #RELAY_PATH_TOPICS} (delayed and transactional messages parked, their op records, and
 * their re-put copies) and the compat / 4.9.8-client topics. Which of them must be WAIT-free on a 0003
 * distribution is {@link #WAIT_FREE_RELAY_TOPICS}, in one place.
 */
public final class PersistedPropertiesCheck {

    static final String FILE = "commitlog-records.tsv";
    static final String TOPICS_FILE = "commitlog-topics.tsv";
    public static final String PATCH = "0003-store-trim-persisted-properties.patch";

    /**
     * The topics of the broker's relay paths: delayed messages parked in SCHEDULE_TOPIC_XXXX, transactional
     * ones in RMQ_SYS_TRANS_HALF_TOPIC with their op records in RMQ_SYS_TRANS_OP_HALF_TOPIC, and the copies
     * ScheduleMessageService and EndTransactionProcessor re-put into the real topic ({@link RelaySends#TOPIC}).
     */
    static final Set<String> RELAY_PATH_TOPICS = Set.of(TopicValidator.RMQ_SYS_SCHEDULE_TOPIC,
        TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC, RelaySends.TOPIC);

    /**
     * Which reported topics must store no {@code WAIT\1} on a distribution with 0003 (a record there fails
     * the run, as one in the smoke topic does): all of them, since 0003 trims every path that persists a
     * message - V1 sends and batches (compat, 4.9.8 client), the delay branch and the schedule re-put,
     * transaction half / op / commit records, consumer send-back to the retry topic (through the schedule topic)
     * and to the DLQ; and the newer clients' topics of the line ({@link #reportedTopics}).
     */
    static final Set<String> WAIT_FREE_RELAY_TOPICS = Set.of(CompatSends.TOPIC, RelaySends.TOPIC,
        TopicValidator.RMQ_SYS_SCHEDULE_TOPIC, TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC,
        ConsumerSendBacks.RETRY_TOPIC, ConsumerSendBacks.DLQ_TOPIC);

    /** Topics besides the smoke topic and the newer clients' that the smoke reports per run, in this order. */
    static final List<String> REPORTED_TOPICS = List.of(CompatSends.TOPIC, RelaySends.TOPIC,
        TopicValidator.RMQ_SYS_SCHEDULE_TOPIC, TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC,
        ConsumerSendBacks.RETRY_TOPIC, ConsumerSendBacks.DLQ_TOPIC);

    /** {@link #REPORTED_TOPICS} with the topics of the newer clients that run on {@code line} after the compat topic. */
    static List<String> reportedTopics(String line) {
        List<String> topics = new ArrayList<>(REPORTED_TOPICS);
        topics.addAll(1, NewerClientCheck.topicsFor(line));
        return List.copyOf(topics);
    }

    /** {@link #WAIT_FREE_RELAY_TOPICS} and the topics of the newer clients that run on {@code line}. */
    static Set<String> waitFreeTopics(String line) {
        Set<String> topics = new HashSet<>(WAIT_FREE_RELAY_TOPICS);
        topics.addAll(NewerClientCheck.topicsFor(line));
        return Set.copyOf(topics);
    }

    private PersistedPropertiesCheck() {
    }

    static boolean trims(Distribution distribution) {
        return distribution.patches().contains(PATCH);
    }

    /**
     * Lists the smoke topic's records of every master store of {@code cluster} into the run dir, and
     * every topic's record and WAIT counts per master.
     */
    public static void record(LocalCluster cluster, ClusterLayout layout, Path runDir, String topic) throws IOException {
        StringBuilder tsv = new StringBuilder("# seq\ttotalSize\tstoresWait\ttrimmableBytes\tmaster\n");
        StringBuilder topics = new StringBuilder("# topic\trecords\tstoreWait\tmaster\n");
        for (ClusterLayout.Node master : layout.masters()) {
            Path store = cluster.nodeDir(master).resolve("store");
            for (CommitLogScan.StoredRecord r : CommitLogScan.records(store, topic)) {
                tsv.append(r.seq()).append('\t').append(r.totalSize()).append('\t').append(r.storesWait()).append('\t')
                    .append(r.trimmableBytes()).append('\t').append(master.brokerName()).append('\n');
            }
            CommitLogScan.waitByTopic(store).forEach((name, count) -> topics.append(name).append('\t').append(count.records())
                .append('\t').append(count.withWait()).append('\t').append(master.brokerName()).append('\n'));
        }
        Files.writeString(runDir.resolve(FILE), tsv, StandardCharsets.UTF_8);
        Files.writeString(runDir.resolve(TOPICS_FILE), topics, StandardCharsets.UTF_8);
    }

    /** Per topic, summed over the masters: records and records storing WAIT. Empty if the file is missing. */
    static Map<String, CommitLogScan.TopicWait> readTopics(Path runDir) throws IOException {
        Map<String, CommitLogScan.TopicWait> topics = new TreeMap<>();
        for (String[] f : rows(runDir.resolve(TOPICS_FILE))) {
            topics.merge(f[0], new CommitLogScan.TopicWait(Long.parseLong(f[1]), Long.parseLong(f[2])), CommitLogScan.TopicWait::plus);
        }
        return topics;
    }

    /**
     * Prints the reported topics' WAIT counts of one run and returns the problems: on a 0003 distribution,
     * a topic of {@code waitFree} with a record storing WAIT, or with no record at all to judge.
     */
    static List<String> checkTopics(String flavor, boolean trims, Map<String, CommitLogScan.TopicWait> topics, List<String> reported,
                                    Set<String> waitFree) {
        List<String> problems = new ArrayList<>();
        for (String topic : reported) {
            CommitLogScan.TopicWait count = topics.getOrDefault(topic, new CommitLogScan.TopicWait(0, 0));
            boolean judged = trims && waitFree.contains(topic);
            Console.progress("%s: CommitLog %s: %d records on the masters, %d store WAIT\\1%s", flavor, topic, count.records(),
                count.withWait(), judged ? " (0003 expects 0)" : "");
            if (!judged) {
                continue;
            }
            if (count.records() == 0) {
                problems.add(flavor + ": no CommitLog record of " + topic + " to check");
            } else if (count.withWait() > 0) {
                problems.add(flavor + ": " + count.withWait() + " of " + count.records() + " CommitLog records of " + topic + " store WAIT\\1");
            }
        }
        return problems;
    }

    static List<CommitLogScan.StoredRecord> read(Path runDir) throws IOException {
        List<CommitLogScan.StoredRecord> records = new ArrayList<>();
        for (String[] f : rows(runDir.resolve(FILE))) {
            records.add(new CommitLogScan.StoredRecord(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Boolean.parseBoolean(f[2]),
                Integer.parseInt(f[3])));
        }
        return records;
    }

    /** The tab-separated fields of each line of a file this class wrote, without comments and blank lines; none if it is missing. */
    private static List<String[]> rows(Path file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        if (!Files.exists(file)) {
            return rows;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.startsWith("#") && !line.isBlank()) {
                rows.add(line.split("\t"));
            }
        }
        return rows;
    }

    /** A finished round's run directory, where {@link #record} wrote the masters' records, and what ran there. */
    public record RecordedRun(String flavor, Distribution distribution, Path runDir) {
    }

    /** Problems found in the records of {@code results} (empty if none); prints what it checked. */
    public static List<String> check(List<RecordedRun> results) throws IOException {
        List<String> problems = new ArrayList<>();
        RecordedRun stock = null;
        RecordedRun patched = null;
        for (RecordedRun result : results) {
            String line = result.distribution().release();
            problems.addAll(checkTopics(result.flavor(), trims(result.distribution()), readTopics(result.runDir()), reportedTopics(line),
                waitFreeTopics(line)));
            List<CommitLogScan.StoredRecord> records = read(result.runDir());
            long withWait = records.stream().filter(CommitLogScan.StoredRecord::storesWait).count();
            long untrimmed = records.stream().filter(r -> r.trimmableBytes() > 0).count();
            if (trims(result.distribution())) {
                patched = patched == null ? result : patched;
                Console.progress("%s: %d CommitLog records of the smoke topic on the masters, %d store WAIT\\1, %d WAIT or a trailing"
                    + " separator (0003 expects 0)", result.flavor(), records.size(), withWait, untrimmed);
                if (records.isEmpty()) {
                    problems.add(result.flavor() + ": no CommitLog record of the smoke topic to check (" + result.runDir().resolve(FILE) + ")");
                } else if (untrimmed > 0) {
                    problems.add(result.flavor() + ": " + untrimmed + " of " + records.size()
                        + " CommitLog records of the smoke topic store WAIT\\1 or a trailing separator");
                }
            } else if (!result.distribution().patches().contains(PATCH)) {
                stock = stock == null ? result : stock;
            }
        }
        if (stock != null && patched != null) {
            Map<Integer, CommitLogScan.StoredRecord> stockRecords = bySeq(read(stock.runDir()));
            Map<Integer, CommitLogScan.StoredRecord> patchedRecords = bySeq(read(patched.runDir()));
            int compared = 0;
            Map<Integer, Integer> shorterBy = new TreeMap<>(); // bytes -> records
            List<String> differing = new ArrayList<>();
            for (Map.Entry<Integer, CommitLogScan.StoredRecord> e : patchedRecords.entrySet()) {
                CommitLogScan.StoredRecord stockRecord = stockRecords.get(e.getKey());
                if (stockRecord == null) {
                    continue;
                }
                compared++;
                int shorter = stockRecord.totalSize() - e.getValue().totalSize();
                shorterBy.merge(shorter, 1, Integer::sum);
                if (shorter != stockRecord.trimmableBytes()) {
                    differing.add("seq " + e.getKey() + ": stock " + stockRecord.totalSize() + " B (" + stockRecord.trimmableBytes()
                        + " B of WAIT and trailing separator), patched " + e.getValue().totalSize() + " B");
                }
            }
            Console.progress("same message, stock vs %s: %d records compared, shorter by {bytes=records} %s, %d not shorter by exactly"
                + " the stock record's WAIT entry and trailing separator", patched.flavor(), compared, shorterBy, differing.size());
            if (compared == 0) {
                problems.add("no message stored by both " + stock.flavor() + " and " + patched.flavor() + " to compare");
            } else if (!differing.isEmpty()) {
                problems.add(differing.size() + " of " + compared + " records are not shorter on " + patched.flavor()
                    + " by exactly the stock record's WAIT entry and trailing separator, e.g. "
                    + differing.subList(0, Math.min(5, differing.size())));
            }
        }
        return problems;
    }

    private static Map<Integer, CommitLogScan.StoredRecord> bySeq(List<CommitLogScan.StoredRecord> records) {
        Map<Integer, CommitLogScan.StoredRecord> bySeq = new HashMap<>();
        for (CommitLogScan.StoredRecord r : records) {
            if (r.seq() >= 0) {
                bySeq.putIfAbsent(r.seq(), r);
            }
        }
        return bySeq;
    }
}
