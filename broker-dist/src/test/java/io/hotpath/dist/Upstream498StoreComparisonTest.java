package io.hotpath.dist;

import static io.hotpath.dist.RecordLayout.BORNTIMESTAMP;
import static io.hotpath.dist.RecordLayout.PHYSICALOFFSET;
import static io.hotpath.dist.RecordLayout.PREPARED_TX_OFFSET;
import static io.hotpath.dist.RecordLayout.QUEUEOFFSET;
import static io.hotpath.dist.RecordLayout.STOREHOST;
import static io.hotpath.dist.RecordLayout.STORETIMESTAMP;
import static io.hotpath.dist.RecordLayout.escaped;
import static io.hotpath.dist.RecordLayout.masked;
import static io.hotpath.dist.RecordLayout.properties;
import static io.hotpath.dist.RecordLayout.propertiesOffset;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.hotpath.dist.store.probe.StoreSiteProbe;
import io.hotpath.dist.store.shared.Dispatched;
import io.hotpath.dist.store.shared.Release;
import io.hotpath.dist.store.shared.StorePaths;
import io.hotpath.dist.store.shared.StoredRecord;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * Issue #4 item 3(b), and issue #12 item 4 for the 4.9.8 line: the PATCHED {@code DefaultMessageStore} and broker sites
 * of the line this build assembled (classes from the patched distribution's lib/: 4.9.0 or 4.9.8)
 * and a REAL upstream 4.9.8 store are driven through the same messages on every persisting path by
 * {@link StoreSiteProbe} (which says what runs for real and what is restated), each in its own temp store under
 * target/, and every CommitLog record is compared byte for byte. The 4.9.8 reference: on the 4.9.8 line the STOCK 4.9.8
 * distribution (upstream's source release built by upstream's build; its store and its broker sites real); on the 4.9.0
 * line rocketmq-store 4.9.8 and its runtime dependencies from Maven Central ({@link Upstream498StoreLoader}) with
 * upstream's rocketmq-broker 4.9.8 classes compiled from Central's source release ({@link Upstream498BrokerClasses}:
 * rocketmq-broker 4.9.8 is on no Maven repository, and a 4.9.0-line build builds no 4.9.8 tree), their sites real too.
 *
 * <p>Expected: the patched record equals the 4.9.8 record with each {@code WAIT\1..} segment and one adjacent
 * separator removed from the properties block, TOTALSIZE and PROPLEN smaller by exactly the removed bytes; masked:
 * STORETIMESTAMP, QUEUEOFFSET, PHYSICALOFFSET, and two values that are physical offsets of another record and so
 * differ with the record sizes: PREPARED_TX_OFFSET of the commit (the half's offset) and the ORIGIN_MESSAGE_ID of a
 * send-back (store host + the sent-back record's offset); each is first checked to be that store's own offset.
 * Born host, store host and born timestamp are identical in both runs.
 *
 * <p>One documented difference that is not WAIT, {@link #ORDER_ONLY}: where a site re-serializes a map DECODED
 * from a stored record (the schedule re-put, the commit from the half), 4.9.8's record had WAIT and ours does not,
 * so the decoded HashMaps have one entry more in 4.9.8. When that count crosses a resize threshold (13 entries with
 * WAIT: 4.9.8's map has 32 buckets, ours 12 entries in 16), the iteration order differs, and so does the order of
 * the segments written: same segments, other order. Both are 4.9.x HashMap order (upstream has no defined order);
 * readers parse the block into a map.
 *
 * <p>One release difference, on the 4.9.0 line only, {@link #RELEASE_ONLY}: 4.9.8's
 * {@code SendMessageProcessor#asyncConsumerSendMsgBack} sets delay level 0 on a message it sends to the DLQ (a
 * {@code DELAY\10} segment), 4.9.0's does not; both run for real here, so the 4.9.0 line expects 4.9.8's DLQ record
 * without WAIT and without that segment, which 4.9.8's record must hold.
 *
 * <p>Paths: normal, delayed (CommitLog delay branch), schedule re-put, batch, consumer send-back, transaction half and
 * commit, the transaction check service's re-puts (renew, immunity, discard to TRANS_CHECK_MAX_TIME_TOPIC), the admin
 * resume, the op record, the offset-moved event. Two sites stamp the born timestamp with the clock (op, offset-moved):
 * masked after checking it is this run's. {@link #bothStoresDispatchEveryRecordAlike} compares what each store's
 * dispatch built from each record.
 *
 * <p>The controls, that the equality is the patch's doing: on the 4.9.0 line,
 * {@link #stock490DiffersFrom498WithoutWaitOnEveryPath} runs the same probe on the unpatched 4.9.0 store and broker
 * (every record differs); on the 4.9.8 line, {@link #stock498DistributionStoresWhatCentral498Stores}: every record of
 * the STOCK 4.9.8 distribution equals Central's 4.9.8 store's with the broker compiled here, WAIT included. On the 4.9.8 line, the records of the
 * paths where 4.9.8 already trims (normal send, offset-moved) are equal byte for byte.
 *
 * <p>The test classpath's MessageDecoder is the line's stock one (the root pom: the line's rocketmq-common), so
 * {@link #stockDecoderOfTheLineReadsOursAs498PropertiesWithoutWait} is a stock 4.9.0 reader on the 4.9.0 line and a
 * stock 4.9.8 reader on the 4.9.8 line.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.8")
class Upstream498StoreComparisonTest {

    private static final byte SEP = 2;

    private static final String U1 = "UNIQ_KEY\0017F0000010B5718B4AAC2170C8D5000";

    /** What 4.9.0 producers send (4.9.0 client: WAIT, trailing separator); a DELAY entry makes it a delayed message. */
    static final List<String> SENDS = List.of(
        "KEYS\1OrderID188\2" + U1 + "00\2WAIT\1true\2TAGS\1TagA\2",
        "TAGS\1TagB\2WAIT\1false\2hotpath.note\1h\u00e9llo \u4e16\u754c \ud83d\ude00\2" + U1 + "01\2",
        "KEYS\1k1 k2\2" + U1 + "02\2WAIT\1true\2TAGS\1TagC\2a\1b\2",
        "KEYS\1delayed\2" + U1 + "03\2WAIT\1true\2TAGS\1TagD\2DELAY\0011\2",
        // delayed, 13 entries in 4.9.8's schedule record (10 from the client + CLUSTER, REAL_TOPIC, REAL_QID): see ORDER_ONLY
        "KEYS\1d13\2" + U1 + "04\2WAIT\1true\2TAGS\1TagE\2DELAY\0011\2hotpath.a\1v1\2hotpath.b\1v2\2hotpath.c\1\u00e9\2"
            + "hotpath.d\1v4\2hotpath.e\1v5\2");
    /** One batch: 4.9.0-client blocks (WAIT, trailing separator) and 4.9.1+-client blocks (no trailing separator). */
    static final List<String> BATCH_INNER = List.of(
        "KEYS\1b0\2" + U1 + "B0\2WAIT\1true\2TAGS\1TagA\2",
        "KEYS\1b1\2" + U1 + "B1\2WAIT\1true\2TAGS\1TagB\2hotpath.note\1h\u00e9llo \u4e16\u754c\2",
        U1 + "B2\2WAIT\1true\2TAGS\1TagC",
        "KEYS\1b3\2" + U1 + "B3\2WAIT\1true\2TAGS\1TagD\2hotpath.note\1\ud83d\ude00");
    /** The batch request's own properties, as 4.9.0's MessageBatch carries them (WAIT of the first message). */
    static final String BATCH_OUTER = "WAIT\1true\2";
    /** A transactional message (13 entries in 4.9.8's half record: see ORDER_ONLY). */
    static final String HALF = "KEYS\1tx\2" + U1 + "T0\2WAIT\1true\2TAGS\1TagT\2TRAN_MSG\1true\2PGROUP\1hotpath_tx_group\2"
        + "t1\1v1\2t2\1v2\2t3\1v3\2t4\1v4\2";

    /** Paths where 4.9.8 still stores WAIT (every other record must come out of 4.9.8 without it). */
    static final List<String> WAIT_IN_498 = List.of("send/3", "send/4", "batch/0", "batch/1", "batch/2", "batch/3",
        "sendback-retry", "sendback-dlq", "half", "commit", "check-renew", "check-immunity", "check-discard", "resume", "op",
        "reput/hotpath_cmp/" + uniq("03"), "reput/hotpath_cmp/" + uniq("04"), "reput/%RETRY%hotpath_cmp_group/" + uniq("00"));
    /** Sites that stamp the born timestamp with the clock (op, offset-moved): masked after checking it is this run's. */
    static final List<String> BORN_NOW = List.of("op", "offset-moved");
    /** The one path where stock 4.9.0 stores no WAIT either (a fresh MessageExtBrokerInner): it differs by the trailing separator. */
    static final String NO_WAIT_IN_490 = "offset-moved";
    /**
     * Records that may differ from 4.9.8's without WAIT in segment order only (see the class comment), each with the
     * record its site decoded: the re-put of the 13-entry delayed message and the commit of the 13-entry half.
     */
    static final Map<String, String> ORDER_ONLY = Map.of("reput/hotpath_cmp/" + uniq("04"), "send/4", "commit", "half");

    /**
     * Per path, a segment 4.9.8's site writes and 4.9.0's does not (see the class comment): on the 4.9.0 line the
     * expected record is 4.9.8's without WAIT and without it.
     */
    static final Map<String, String> RELEASE_ONLY = Map.of("sendback-dlq", MessageConst.PROPERTY_DELAY_TIME_LEVEL + "\1" + "0");

    private static Release patchedRelease;
    private static Map<String, StoredRecord> patched;
    /**
     * The 4.9.8 records every assertion compares with: on the 4.9.8 line the STOCK 4.9.8 distribution's (store and broker
     * sites real), on the 4.9.0 line Central's 4.9.8 store's with the broker classes compiled here (see {@link #central}).
     */
    private static Map<String, StoredRecord> upstream;
    /**
     * Central's rocketmq-store 4.9.8 with upstream's broker 4.9.8 classes compiled from Central's source release
     * (rocketmq-broker 4.9.8 is on no Maven repository, only in the stock 4.9.8 tree, which a 4.9.0-line build does not
     * build): the 4.9.0 line's reference, and on the 4.9.8 line what
     * {@link #stock498DistributionStoresWhatCentral498Stores} checks against upstream's own build of those classes.
     */
    private static Map<String, StoredRecord> central;
    private static long startedAt;

    @BeforeAll
    static void runBothStores() throws Exception {
        Path target = BuiltDistributions.target();
        startedAt = System.currentTimeMillis();
        patchedRelease = patchedReleaseOfThisBuild();
        PatchedBrokerLoader patchedLoader = PatchedBrokerLoader.withProbe();
        assertThat(patchedLoader.load("org.apache.rocketmq.store.DefaultMessageStore").getProtectionDomain().getCodeSource()
            .getLocation().getPath()).endsWith("rocketmq-store-" + BuiltDistributions.upstreamVersion() + ".jar");
        patched = run(patchedLoader.load(StoreSiteProbe.class.getName()), patchedRelease,
            Files.createTempDirectory(target, "cmp-store-" + patchedRelease.name().toLowerCase(java.util.Locale.ROOT) + "-"));
        try (Upstream498StoreLoader upstreamLoader = Upstream498StoreLoader.create()) {
            Class<?> probe = upstreamLoader.load(StoreSiteProbe.class.getName());
            assertThat(probe.getClassLoader()).isSameAs(upstreamLoader);
            assertThat(upstreamLoader.load(StoredRecord.class.getName())).as("the results are the test's own classes")
                .isSameAs(StoredRecord.class);
            assertThat(upstreamLoader.load("org.apache.rocketmq.store.DefaultMessageStore").getProtectionDomain().getCodeSource()
                .getLocation().getPath()).endsWith("rocketmq-store-4.9.8.jar");
            assertThat(upstreamLoader.load("org.apache.rocketmq.common.message.MessageDecoder").getProtectionDomain().getCodeSource()
                .getLocation().getPath()).endsWith("rocketmq-common-4.9.8.jar");
            central = run(probe, Release.UPSTREAM_498, Files.createTempDirectory(target, "cmp-store-upstream498-"));
        }
        upstream = patchedRelease == Release.PATCHED_498 ? stock498Distribution() : central;
    }

    /**
     * The probe on the STOCK 4.9.8 distribution (upstream's source release built by upstream's build): its own store and
     * its own broker sites ({@code LoadedBrokerSites}, the real 4.9.8 {@code TransactionalMessageBridge},
     * {@code EndTransactionProcessor}, ... by reflection), so that no restated code is the 4.9.8 line's reference.
     */
    private static Map<String, StoredRecord> stock498Distribution() throws Exception {
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWithProbe();
        assertThat(stockLoader.load("org.apache.rocketmq.broker.processor.SendMessageProcessor").getProtectionDomain().getCodeSource()
            .getLocation().getPath()).endsWith("rocketmq-broker-4.9.8.jar").contains("stock");
        assertThat(stockLoader.load("org.apache.rocketmq.store.DefaultMessageStore").getProtectionDomain().getCodeSource()
            .getLocation().getPath()).endsWith("rocketmq-store-4.9.8.jar").contains("stock");
        return run(stockLoader.load(StoreSiteProbe.class.getName()), Release.STOCK_498,
            Files.createTempDirectory(BuiltDistributions.target(), "cmp-store-stock498-"));
    }

    /** The line this build assembled, as the probe's release: its patched distribution is what is compared. */
    private static Release patchedReleaseOfThisBuild() {
        String line = BuiltDistributions.upstreamVersion();
        switch (line) {
            case "4.9.0":
                return Release.PATCHED_490;
            case "4.9.8":
                return Release.PATCHED_498;
            default:
                throw new IllegalStateException("no store probe for line " + line);
        }
    }

    private static Map<String, StoredRecord> run(Class<?> probe, Release release, Path root) throws Exception {
        assertThat(probe).isNotSameAs(StoreSiteProbe.class);
        StorePaths paths = (StorePaths) probe.getConstructor().newInstance();
        return paths.runAllPaths(release, root.toString(), SENDS, BATCH_INNER, BATCH_OUTER, HALF);
    }

    @Test
    void bothStoresStoredEveryPath() {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < SENDS.size(); i++) {
            labels.add("send/" + i);
        }
        for (int i = 0; i < BATCH_INNER.size(); i++) {
            labels.add("batch/" + i);
        }
        labels.addAll(List.of("sendback-retry", "sendback-dlq", "half", "commit", "check-renew", "check-immunity", "check-discard",
            "resume", "op", "offset-moved", "reput/hotpath_cmp/" + uniq("03"), "reput/hotpath_cmp/" + uniq("04"),
            "reput/%RETRY%hotpath_cmp_group/" + uniq("00")));
        assertThat(upstream.keySet()).containsExactlyInAnyOrderElementsOf(labels);
        assertThat(patched.keySet()).containsExactlyInAnyOrderElementsOf(labels);
    }

    /** Per path: equal to 4.9.8's record without WAIT, masked; ORDER_ONLY records in segment order only. */
    @Test
    void patchedRecordIs498RecordWithoutWait() {
        Map<String, String> outcome = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (String label : upstream.keySet()) {
            byte[] ours = record(patched, label);
            byte[] theirs = record(upstream, label);
            byte[] expected = withoutWait(theirs);
            int removed = theirs.length - expected.length;
            assertThat(removed > 0).as("%s: 4.9.8 stores WAIT: %s", label, escaped(properties(theirs))).isEqualTo(WAIT_IN_498.contains(label));
            if (patchedRelease == Release.PATCHED_490 && RELEASE_ONLY.containsKey(label)) {
                expected = withoutSegment(expected, RELEASE_ONLY.get(label));
            }
            assertThat(properties(ours)).as("%s: ours has no WAIT", label).doesNotContain("WAIT\1");

            maskWhatDiffersByStore(label, ours, patched);
            maskWhatDiffersByStore(label, expected, upstream);
            if (java.util.Arrays.equals(masked(ours), masked(expected))) {
                outcome.put(label, removed == 0 ? "equal" : "equal without WAIT (-" + removed + " bytes)");
                continue;
            }
            String source = ORDER_ONLY.get(label);
            if (source != null && sameExceptSegmentOrder(ours, expected)) {
                int entries = upstream.get(label).properties().size();
                assertThat(bucketsFor(entries)).as("%s: %d entries with WAIT in 4.9.8's decoded map", label, entries)
                    .isNotEqualTo(bucketsFor(entries - 1));
                assertThat(properties(ours)).as("%s: the block 4.9.8's site would make from %s without WAIT", label, source)
                    .isEqualTo(reSerializedWithoutWait(record(upstream, source)));
                outcome.put(label, "equal without WAIT (-" + removed + " bytes) but for segment order: 4.9.8 decoded " + entries
                    + " entries from " + source + " into " + bucketsFor(entries) + " buckets, ours " + (entries - 1) + " into "
                    + bucketsFor(entries - 1));
                continue;
            }
            failures.add(label + ":\n  " + patchedRelease + "  " + escaped(properties(ours)) + "\n  4.9.8 -WAIT  "
                + escaped(properties(expected)) + "\n  " + patchedRelease + "  " + HexFormat.of().formatHex(masked(ours))
                + "\n  4.9.8 -WAIT  " + HexFormat.of().formatHex(masked(expected)));
        }
        outcome.forEach((label, what) -> System.out.println("[store 4.9.8 comparison] " + label + ": " + what));
        assertThat(failures).as("records that differ from 4.9.8's without WAIT").isEmpty();
        assertThat(outcome.entrySet().stream().filter(e -> e.getValue().contains("segment order")).map(Map.Entry::getKey).toList())
            .as("order-only differences, exactly where documented").containsExactlyInAnyOrderElementsOf(ORDER_ONLY.keySet());
    }

    /**
     * What each store's dispatch (its own ReputMessageService: ConsumeQueue, IndexService, the schedule topic's
     * delivery time) built from each compared record, read back through that store's public API
     * ({@link StoredRecord#dispatched}) once it had dispatched everything: the same for every record. Each entry
     * points at its own record (physical offset and size, so sizes differ by the removed WAIT bytes), a pull at its
     * queue offset finds it, the tags code is the TAGS hash, the index finds it by every KEYS key and by UNIQ_KEY, and
     * on the schedule topic the delivery time is the store time plus the DELAY level's delay (level n = n s here).
     */
    @Test
    void bothStoresDispatchEveryRecordAlike() {
        Map<String, String> outcome = new TreeMap<>();
        for (String label : upstream.keySet()) {
            Dispatched ours = patched.get(label).dispatched();
            Dispatched theirs = upstream.get(label).dispatched();
            assertThat(ours).as("%s: what the %s store dispatched vs 4.9.8", label, patchedRelease).isEqualTo(theirs);

            MessageExt decoded = MessageDecoder.decode(ByteBuffer.wrap(record(patched, label)), true, false);
            assertThat(ours.queueEntryIsThisRecord()).as("%s: consume queue entry is this record", label).isEqualTo(Boolean.TRUE);
            assertThat(ours.pullStatus()).as("%s: pull at its queue offset", label).isEqualTo("FOUND");
            assertThat(ours.pulledThisRecord()).as("%s: pull at its queue offset finds this record", label).isTrue();
            if (decoded.getTopic().equals("SCHEDULE_TOPIC_XXXX")) {
                long level = Long.parseLong(decoded.getProperty(MessageConst.PROPERTY_DELAY_TIME_LEVEL));
                assertThat(ours.deliveryTimeMinusStoreTime()).as("%s: delivery time - store time", label).isEqualTo(level * 1000);
            } else {
                String tags = decoded.getTags();
                assertThat(ours.tagsCode()).as("%s: tags code", label).isEqualTo(tags == null ? 0L : (long) tags.hashCode());
            }
            List<String> lookups = new ArrayList<>();
            if (decoded.getKeys() != null) {
                for (String key : decoded.getKeys().split(MessageConst.KEY_SEPARATOR)) {
                    lookups.add("KEYS " + key);
                }
            }
            if (decoded.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX) != null) {
                lookups.add("UNIQ_KEY " + decoded.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
            }
            for (String lookup : lookups) {
                assertThat(ours.foundByIndex()).as("%s: found by the index", label).containsEntry(lookup, true);
            }
            assertThat(ours.foundByIndex().keySet()).as(label).containsExactlyInAnyOrderElementsOf(lookups);
            outcome.put(label, ours.toString());
        }
        outcome.forEach((label, what) -> System.out.println("[store 4.9.8 dispatch] " + label + ": same in both: " + what));
    }

    /**
     * What a site that decodes {@code source498} and re-serializes the decoded map (before changing it) stores
     * when the source record has no WAIT: parse into a fresh {@code HashMap} in block order (stock 4.9.0's
     * {@code string2messageProperties}; 4.9.8's builds the same map for these blocks), serialize, no trailing
     * separator, no WAIT.
     */
    private static String reSerializedWithoutWait(byte[] source498) {
        Map<String, String> decoded = MessageDecoder.string2messageProperties(properties(withoutWait(source498)));
        decoded.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
        String block = MessageDecoder.messageProperties2String(decoded);
        return block.endsWith("\2") ? block.substring(0, block.length() - 1) : block;
    }
    /**
     * The control: the same probe on the UNPATCHED 4.9.0 store and broker (the stock jars of this test's classpath)
     * stores WAIT on every path, so no record equals 4.9.8's without WAIT: the equality above is the patch's doing.
     */
    @Test
    void stock490DiffersFrom498WithoutWaitOnEveryPath() throws Exception {
        // the test classpath holds stock 4.9.0's store and broker with the LINE's rocketmq-common: 4.9.0's only there
        Assumptions.assumeTrue(patchedRelease == Release.PATCHED_490, "the 4.9.0 line's control");
        Path root = Files.createTempDirectory(BuiltDistributions.target(), "cmp-store-stock490-");
        Map<String, StoredRecord> stock = new StoreSiteProbe().runAllPaths(Release.STOCK_490, root.toString(), SENDS, BATCH_INNER,
            BATCH_OUTER, HALF);
        assertThat(stock.keySet()).containsExactlyInAnyOrderElementsOf(upstream.keySet());
        for (String label : upstream.keySet()) {
            byte[] ours = record(stock, label);
            if (label.equals(NO_WAIT_IN_490)) {
                assertThat(properties(ours)).as("%s: stock 4.9.0 stores no WAIT but the trailing separator", label)
                    .doesNotContain("WAIT\1").endsWith("\2");
            } else {
                assertThat(properties(ours)).as("%s: stock 4.9.0 stores WAIT", label).contains("WAIT\1");
            }
            assertThat(ours.length).as("%s: stock 4.9.0 is longer than 4.9.8 without WAIT", label)
                .isGreaterThan(withoutWait(record(upstream, label)).length);
        }
    }

    /**
     * The 4.9.8 line: the STOCK 4.9.8 distribution (the reference above) stores exactly what Central's 4.9.8 store
     * stores with the broker classes compiled here (the 4.9.0 line's reference), WAIT included: the check that the
     * compiled classes are upstream's build's; and every record of a path where 4.9.8 writes WAIT differs
     * from the patched one.
     */
    @Test
    void stock498DistributionStoresWhatCentral498Stores() throws Exception {
        Assumptions.assumeTrue(patchedRelease == Release.PATCHED_498, "the 4.9.8 line's control");
        Map<String, StoredRecord> stock = upstream;
        assertThat(stock).isNotSameAs(central);
        assertThat(stock.keySet()).containsExactlyInAnyOrderElementsOf(central.keySet());
        for (String label : central.keySet()) {
            byte[] theirs = record(stock, label);
            byte[] compiled = record(central, label);
            maskWhatDiffersByStore(label, theirs, stock);
            maskWhatDiffersByStore(label, compiled, central);
            assertThat(HexFormat.of().formatHex(masked(theirs))).as("%s: stock 4.9.8 distribution vs Central's 4.9.8 store", label)
                .isEqualTo(HexFormat.of().formatHex(masked(compiled)));
            byte[] ours = record(patched, label);
            maskWhatDiffersByStore(label, ours, patched);
            // where 4.9.8 writes WAIT the patch changes the record; elsewhere it stores the same bytes
            assertThat(java.util.Arrays.equals(masked(theirs), masked(ours))).as("%s: stock 4.9.8 equals patched", label)
                .isEqualTo(!WAIT_IN_498.contains(label));
            assertThat(properties(theirs).contains("WAIT\1")).as("%s: stock 4.9.8 writes WAIT", label).isEqualTo(WAIT_IN_498.contains(label));
        }
    }

    /**
     * The line's stock MessageDecoder (4.9.0 or 4.9.8) reads our record with 4.9.8's properties (as 4.9.8 decodes them)
     * minus WAIT.
     */
    @Test
    void stockDecoderOfTheLineReadsOursAs498PropertiesWithoutWait() {
        for (String label : upstream.keySet()) {
            byte[] ours = record(patched, label);
            MessageExt decoded = MessageDecoder.decode(ByteBuffer.wrap(ours), true, false);
            Map<String, String> theirs = new LinkedHashMap<>(upstream.get(label).properties());
            theirs.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
            if (patchedRelease == Release.PATCHED_490 && RELEASE_ONLY.containsKey(label)) {
                String[] segment = RELEASE_ONLY.get(label).split("\1");
                assertThat(theirs.remove(segment[0])).as("%s: 4.9.8's only", label).isEqualTo(segment[1]);
            }
            if (theirs.containsKey(MessageConst.PROPERTY_ORIGIN_MESSAGE_ID)) {
                // store host + offset of the sent-back record in each store
                assertThat(theirs.get(MessageConst.PROPERTY_ORIGIN_MESSAGE_ID)).isEqualTo(offsetMsgId(record(upstream, "send/0")));
                theirs.put(MessageConst.PROPERTY_ORIGIN_MESSAGE_ID, offsetMsgId(record(patched, "send/0")));
            }
            assertThat(decoded.getProperties()).as("%s: stock %s decode of %s", label, BuiltDistributions.upstreamVersion(),
                escaped(properties(ours))).isEqualTo(theirs);
            assertThat(decoded.getBody()).as(label).isEqualTo(MessageDecoder.decode(ByteBuffer.wrap(record(upstream, label)), true, false).getBody());
        }
    }

    /** Both masks below, in place: what legitimately differs between two stores' records of one path. */
    private static void maskWhatDiffersByStore(String label, byte[] record, Map<String, StoredRecord> store) {
        maskOffsetsOfOtherRecords(label, record, store);
        maskBornTimestampOfSitesThatReadTheClock(label, record);
    }

    /**
     * PREPARED_TX_OFFSET of the commit and the ORIGIN_MESSAGE_ID of records sent back are offsets of another record
     * of the same store: checked to be so, then overwritten with a fixed value.
     */
    private static void maskOffsetsOfOtherRecords(String label, byte[] record, Map<String, StoredRecord> store) {
        ByteBuffer b = ByteBuffer.wrap(record);
        if (label.equals("commit")) {
            long halfOffset = ByteBuffer.wrap(record(store, "half")).getLong(PHYSICALOFFSET);
            assertThat(b.getLong(PREPARED_TX_OFFSET)).as("commit: PREPARED_TX_OFFSET is the half's offset").isEqualTo(halfOffset);
            b.putLong(PREPARED_TX_OFFSET, -1);
        } else {
            assertThat(b.getLong(PREPARED_TX_OFFSET)).as(label).isZero();
        }
        String key = MessageConst.PROPERTY_ORIGIN_MESSAGE_ID + "\1";
        String text = new String(record, StandardCharsets.ISO_8859_1); // byte positions = char positions
        int at = text.indexOf(key);
        if (at >= 0) {
            String id = offsetMsgId(record(store, "send/0"));
            assertThat(text.substring(at + key.length(), at + key.length() + id.length())).as("%s: ORIGIN_MESSAGE_ID", label).isEqualTo(id);
            byte[] mask = "X".repeat(id.length()).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(mask, 0, record, at + key.length(), mask.length);
        }
    }

    /** The op and offset-moved sites set the born timestamp from the clock: checked to be this run's, then masked. */
    private static void maskBornTimestampOfSitesThatReadTheClock(String label, byte[] record) {
        ByteBuffer b = ByteBuffer.wrap(record);
        if (BORN_NOW.contains(label)) {
            assertThat(b.getLong(BORNTIMESTAMP)).as("%s: born now", label).isBetween(startedAt, System.currentTimeMillis());
            b.putLong(BORNTIMESTAMP, -1);
        } else {
            assertThat(b.getLong(BORNTIMESTAMP)).as(label).isEqualTo(StoreSiteProbe.BORN_TIMESTAMP);
        }
    }

    /** {@code MessageDecoder.createMessageId} of a record: store host + physical offset, as 4.9.x decode sets msgId. */
    private static String offsetMsgId(byte[] record) {
        ByteBuffer b = ByteBuffer.wrap(record);
        ByteBuffer storeHost = ByteBuffer.wrap(record, STOREHOST, 8).slice();
        return MessageDecoder.createMessageId(ByteBuffer.allocate(16), storeHost, b.getLong(PHYSICALOFFSET));
    }

    /**
     * The record with each {@code WAIT\1..} segment of its properties block removed together with one adjacent
     * separator (the following one, or the preceding one for a last segment), TOTALSIZE and PROPLEN adjusted.
     */
    static byte[] withoutWait(byte[] record) {
        int propertiesAt = propertiesOffset(record);
        byte[] block = java.util.Arrays.copyOfRange(record, propertiesAt + 2, record.length);
        byte[] newBlock = WaitSegments.removed(block);
        ByteBuffer out = ByteBuffer.allocate(propertiesAt + 2 + newBlock.length);
        out.put(record, 0, propertiesAt);
        out.putShort((short) newBlock.length);
        out.put(newBlock);
        out.putInt(0, out.capacity()); // TOTALSIZE
        return out.array();
    }

    /**
     * The record with the one properties segment {@code segment} removed together with one adjacent separator (the
     * following one, or the preceding one for a last segment), TOTALSIZE and PROPLEN adjusted; fails if the block does
     * not hold it exactly once.
     */
    static byte[] withoutSegment(byte[] record, String segment) {
        int propertiesAt = propertiesOffset(record);
        List<String> segments = new ArrayList<>(List.of(properties(record).split("\2", -1)));
        assertThat(segments).as("4.9.8's block holds %s once", escaped(segment)).containsOnlyOnce(segment);
        segments.remove(segment);
        byte[] newBlock = String.join("\2", segments).getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(propertiesAt + 2 + newBlock.length);
        out.put(record, 0, propertiesAt);
        out.putShort((short) newBlock.length);
        out.put(newBlock);
        out.putInt(0, out.capacity()); // TOTALSIZE
        return out.array();
    }

    /** Everything but the properties block equal, and the block's segments equal as a multiset. */
    private static boolean sameExceptSegmentOrder(byte[] ours, byte[] expected) {
        int at = propertiesOffset(ours);
        if (ours.length != expected.length || at != propertiesOffset(expected)
            || !java.util.Arrays.equals(masked(ours), 0, at + 2, masked(expected), 0, at + 2)) {
            return false;
        }
        List<String> a = new ArrayList<>(List.of(properties(ours).split("\2", -1)));
        List<String> b = new ArrayList<>(List.of(properties(expected).split("\2", -1)));
        a.sort(null);
        b.sort(null);
        return a.equals(b) && !properties(ours).equals(properties(expected));
    }

    /** Buckets of a {@code new HashMap<>()} after {@code entries} puts (load factor 0.75). */
    private static int bucketsFor(int entries) {
        int buckets = 16;
        while (entries > buckets * 3 / 4) {
            buckets *= 2;
        }
        return buckets;
    }

    private static byte[] record(Map<String, StoredRecord> store, String label) {
        StoredRecord entry = store.get(label);
        assertThat(entry).as(label).isNotNull();
        return entry.bytes().clone();
    }

    private static String uniq(String suffix) {
        return U1.substring("UNIQ_KEY\1".length()) + suffix;
    }
}
