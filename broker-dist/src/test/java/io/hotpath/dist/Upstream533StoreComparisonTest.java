package io.hotpath.dist;

import static io.hotpath.dist.RecordLayout.BORNTIMESTAMP;
import static io.hotpath.dist.RecordLayout.PHYSICALOFFSET;
import static io.hotpath.dist.RecordLayout.PREPARED_TX_OFFSET;
import static io.hotpath.dist.RecordLayout.QUEUEOFFSET;
import static io.hotpath.dist.RecordLayout.STORETIMESTAMP;
import static io.hotpath.dist.RecordLayout.escaped;
import static io.hotpath.dist.RecordLayout.properties;
import static io.hotpath.dist.RecordLayout.propertiesOffset;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import io.hotpath.dist.store.shared.Store533Paths;
import io.hotpath.dist.store.shared.Store533Run;
import io.hotpath.dist.store.shared.Stored533;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Patch 0003 of the 5.3.3 line, store-level: a REAL stock 5.3.3 {@code DefaultMessageStore} (classes from the stock
 * distribution's lib/) and the PATCHED one (patched lib/), each in its own class loader
 * ({@code PatchedBrokerLoader#stockWith533Probe} / {@code #with533Probe}) and its own temp store under target/, are given
 * the same messages on every path that sets a properties String, and every CommitLog record is compared byte for byte.
 * The probe, {@code io.hotpath.dist.store.probe533.Store533Probe} ({@code src/test/probe-5.3.3}, compiled against the
 * stock lib/ by {@link Probe533Classes}), says which paths run 5.3.3's own site code and which are restated; every
 * String is made by the loader's own {@code MessageDecoder.messageProperties2String} (stock for the stock store, patched
 * for the patched store).
 *
 * <p>Three store configurations, each run on both stores: {@link Config#PLAIN}, {@link Config#CRC}
 * ({@code enabledAppendPropCRC}) and {@link Config#LMQ} ({@code enableLmq} + {@code enableMultiDispatch}: the
 * {@code lmq/*} messages take CommitLog's LMQ append branch, which re-serializes the map WITH WAIT).
 *
 * <p>Expected per record: the patched record is the stock one with every {@code WAIT\1..} segment of its properties
 * block removed together with one separator, and the trailing separator removed, TOTALSIZE and PROPLEN smaller by
 * exactly the removed bytes. With CRC the block before the {@code __CRC32#} entry is trimmed that way and the entry
 * still follows a separator; both CRCs are checked to be valid for their own record (the CRC covers the store timestamp
 * and offsets too, so its digits are masked). Masked, as in {@code Upstream498StoreComparisonTest}: STORETIMESTAMP,
 * QUEUEOFFSET, PHYSICALOFFSET, the commit's PREPARED_TX_OFFSET (the half's physical offset, checked first) and the born
 * timestamp of the two sites that read the clock (op, pop check point; checked to be this run's).
 *
 * <p>The 5.5.1 line runs the same test on its own stores (the probes compile against its stock lib/; the real sites
 * are 5.5.1's): the paths whose callers are restated from 5.3.3 put what 5.3.3's callers put, and 5.5.1's batch has no batch block (each message
 * keeps its client's block), so the expectation is the same rule.
 *
 * <p>Also: stock 5.3.3's {@code MessageDecoder} (stock loader) reads every patched record as the stock record's
 * properties minus WAIT; both stores dispatch every record alike (ConsumeQueue entry, pull, index, LMQ queues).
 * Controls: the same messages through the stock store twice store identical records, and the normal send's record
 * differs between stock and patched (so this test can fail).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class Upstream533StoreComparisonTest {

    /** A store configuration; every configuration runs every path. */
    enum Config {
        PLAIN(false, false), CRC(true, false), LMQ(false, true);

        final boolean crc;
        final boolean lmq;

        Config(boolean crc, boolean lmq) {
            this.crc = crc;
            this.lmq = lmq;
        }
    }

    static final List<String> LABELS = List.of("send/0", "send/1", "send/2", "send-delay", "send-timer", "reply", "lmq/0", "lmq/1",
        "delay-reput", "timer-roll", "junk/0", "junk/1", "junk/2", "junk/3", "junk/4", "junk/5", "junk/6", "batch/0", "batch/1", "batch/2", "batch/3", "half",
        "commit", "tx-renew", "tx-immunity", "tx-from-half", "op", "sendback-retry", "sendback-dlq", "pop-ck");
    /** Sites that stamp the born timestamp with the clock: masked after checking it is this run's. */
    static final List<String> BORN_NOW = List.of("op", "pop-ck");
    /**
     * The records both stores write alike: the empty block; with CRC also the pop check point's, which has no WAIT (the
     * patched store drops its trailing separator and puts one back before the CRC entry).
     */
    static final Map<Config, List<String>> UNCHANGED = Map.of(Config.PLAIN, List.of("junk/0"), Config.LMQ, List.of("junk/0"),
        Config.CRC, List.of("junk/0", "pop-ck"));
    /** Junk blocks ending with more than one separator: the patched block drops one and still ends with one. */
    static final List<String> ENDS_WITH_EMPTY_SEGMENTS = List.of("junk/5", "junk/6");

    /** The line under test: 5.3.3, or 5.5.1 (whose store API the probes compile against unchanged). */
    private static final String RELEASE = BuiltDistributions.line().release();
    private static final String STORE_JAR = "rocketmq-store-" + RELEASE + ".jar";
    private static final long BORN_TIMESTAMP = 1_700_000_000_000L;
    private static final byte SEP = 2;
    private static final byte[] CRC_PREFIX = "__CRC32#\1".getBytes(StandardCharsets.US_ASCII);
    /** CommitLog.CRC32_RESERVED_LEN: {@code __CRC32#}, {@code \1}, 10 digits, {@code \2}. */
    private static final int CRC_LEN = 8 + 1 + 10 + 1;

    private static final Map<Config, Map<String, Stored533>> STOCK = new EnumMap<>(Config.class);
    private static final Map<Config, Map<String, Stored533>> PATCHED = new EnumMap<>(Config.class);
    private static Map<String, Stored533> stockAgain;
    private static Store533Paths stockReader;
    private static long startedAt;

    @BeforeAll
    static void runBothStores() throws Exception {
        startedAt = System.currentTimeMillis();
        PatchedBrokerLoader stockLoader = PatchedBrokerLoader.stockWith533Probe();
        PatchedBrokerLoader patchedLoader = PatchedBrokerLoader.with533Probe();
        stockReader = probe(stockLoader);
        assertThat(stockReader.encoderLocation()).as("stock MessageExtEncoder")
            .isEqualTo(stockLoader.lib.resolve(STORE_JAR).toUri().getPath());
        assertThat(probe(patchedLoader).encoderLocation()).as("patched MessageExtEncoder")
            .isEqualTo(patchedLoader.lib.resolve(STORE_JAR).toUri().getPath());
        assertThat(patchedLoader.load("io.hotpath.store.PersistedProperties").getProtectionDomain().getCodeSource().getLocation()
            .getPath()).as("patch 0003's class").isEqualTo(patchedLoader.lib.resolve(STORE_JAR).toUri().getPath());
        assertThat(stockLoader.findResource("io/hotpath/store/PersistedProperties.class")).as("stock has no patch").isNull();

        // in the future, so that the timer transform keeps it, and the same for every store
        long timerDeliverMs = startedAt + 3_600_000L;
        for (Config config : Config.values()) {
            Store533Run run = new Store533Run(config.crc, config.lmq, BORN_TIMESTAMP, timerDeliverMs);
            STOCK.put(config, run(stockLoader, "stock-" + config, run));
            PATCHED.put(config, run(patchedLoader, "patched-" + config, run));
        }
        stockAgain = run(stockLoader, "stock-again-" + Config.PLAIN, new Store533Run(false, false, BORN_TIMESTAMP, timerDeliverMs));
    }

    private static Store533Paths probe(PatchedBrokerLoader loader) throws Exception {
        Class<?> type = loader.load(Probe533Classes.PACKAGE + "Store533Probe");
        assertThat(type.getClassLoader()).isSameAs(loader);
        return (Store533Paths) type.getConstructor().newInstance();
    }

    /**
     * One store run inside {@code loader}, with it as the context class loader (5.3.3's shaded slf4j finds its logback
     * provider through it; the test classpath's rocketmq-common 5.3.3 brings another copy), which the store's threads
     * inherit.
     */
    private static Map<String, Stored533> run(PatchedBrokerLoader loader, String name, Store533Run run) throws Exception {
        Path root = Files.createTempDirectory(BuiltDistributions.target(), "cmp533-" + name.toLowerCase(Locale.ROOT) + "-");
        return loader.callInside(() -> probe(loader).runAllPaths(root.toString(), run));
    }

    @Test
    void everyStoreStoredEveryPath() {
        for (Config config : Config.values()) {
            assertThat(STOCK.get(config).keySet()).as("stock %s", config).containsExactlyElementsOf(LABELS);
            assertThat(PATCHED.get(config).keySet()).as("patched %s", config).containsExactlyElementsOf(LABELS);
        }
        assertThat(stockAgain.keySet()).containsExactlyElementsOf(LABELS);
    }

    /** Per configuration and path: the stock record without WAIT and trailing separator, masked, byte for byte. */
    @Test
    void patchedRecordIsStockRecordWithoutWaitAndTrailingSeparator() {
        List<String> failures = new ArrayList<>();
        for (Config config : Config.values()) {
            for (String label : LABELS) {
                byte[] theirs = record(STOCK.get(config), label);
                byte[] ours = record(PATCHED.get(config), label);
                byte[] expected = expectedPatched(theirs, config.crc);
                assertThat(segments(block(ours, config.crc))).as("%s %s: no WAIT segment in ours", config, label)
                    .noneMatch(s -> s.startsWith("WAIT\1"));
                if (!config.crc && !ENDS_WITH_EMPTY_SEGMENTS.contains(label)) {
                    assertThat(properties(ours)).as("%s %s: no trailing separator", config, label).doesNotEndWith("\2");
                }
                byte[] oursMasked = masked(label, ours, PATCHED.get(config), config.crc);
                byte[] expectedMasked = masked(label, expected, STOCK.get(config), config.crc);
                int removed = theirs.length - ours.length;
                if (Arrays.equals(oursMasked, expectedMasked)) {
                    System.out.println("[store " + RELEASE + " comparison] " + config + " " + label + ": " + theirs.length + " -> "
                        + ours.length + " bytes (-" + removed + ")  stock " + escaped(properties(theirs)));
                } else {
                    failures.add(config + " " + label + ":\n  patched  " + escaped(properties(ours)) + "\n  expected "
                        + escaped(properties(expected)) + "\n  patched  " + HexFormat.of().formatHex(oursMasked)
                        + "\n  expected " + HexFormat.of().formatHex(expectedMasked));
                }
                assertThat(removed == 0).as("%s %s: unchanged", config, label).isEqualTo(UNCHANGED.get(config).contains(label));
            }
        }
        assertThat(failures).as("records that differ from stock %s's without WAIT and trailing separator", RELEASE).isEmpty();
    }

    /**
     * {@code enabledAppendPropCRC}: in both stores the {@code __CRC32#} entry is the last, its value is the CRC32 of the
     * record before it (CommitLog's own computation); in ours it follows a separator wherever the block is not empty.
     */
    @Test
    void withCrcTheCrcEntryFollowsASeparatorAndIsValidInBothStores() {
        for (String label : LABELS) {
            for (Map<String, Stored533> store : List.of(STOCK.get(Config.CRC), PATCHED.get(Config.CRC))) {
                byte[] record = record(store, label);
                int crcAt = record.length - CRC_LEN;
                assertThat(Arrays.copyOfRange(record, crcAt, crcAt + CRC_PREFIX.length)).as(label).isEqualTo(CRC_PREFIX);
                assertThat(record[record.length - 1]).as(label).isEqualTo(SEP);
                CRC32 crc = new CRC32();
                crc.update(record, 0, crcAt);
                int expected = (int) (crc.getValue() & 0x7FFFFFFF);
                assertThat(crcValue(record)).as("%s: CRC", label).isEqualTo(expected);
                boolean emptyBlock = crcAt == propertiesOffset(record) + 2;
                if (!emptyBlock) {
                    assertThat(record[crcAt - 1]).as("%s: a separator before the CRC entry", label).isEqualTo(SEP);
                }
            }
        }
    }

    /** Stock 5.3.3's MessageDecoder (the stock loader's) reads every patched record as the stock record minus WAIT. */
    @Test
    void stockDecoderReadsPatchedRecordsAsStockPropertiesWithoutWait() {
        for (Config config : Config.values()) {
            for (String label : LABELS) {
                // 5.3.3's decode leaves the map null for an empty block (junk/0 in both, junk/1 = only WAIT in ours): as empty
                Map<String, String> ours = orEmpty(stockReader.decodeProperties(record(PATCHED.get(config), label)));
                Map<String, String> theirs = orEmpty(STOCK.get(config).get(label).properties());
                theirs.remove("WAIT");
                if (config.crc) {
                    // the CRC covers offsets and the store timestamp: checked above, not compared
                    assertThat(ours.remove("__CRC32#")).as(label).isNotNull();
                    assertThat(theirs.remove("__CRC32#")).as(label).isNotNull();
                }
                assertThat(ours).as("%s %s: stock %s decode of %s", config, label, RELEASE, escaped(properties(record(PATCHED.get(config), label))))
                    .isEqualTo(theirs);
            }
        }
    }

    /**
     * What each store's dispatch built from each record, read back through its public API once it had dispatched
     * everything: the same in both stores, for every record of every configuration; in the LMQ store, each LMQ message
     * is found in both of its LMQ queues.
     */
    @Test
    void bothStoresDispatchEveryRecordAlike() {
        for (Config config : Config.values()) {
            for (String label : LABELS) {
                Stored533 theirs = STOCK.get(config).get(label);
                Stored533 ours = PATCHED.get(config).get(label);
                assertThat(ours.dispatched()).as("%s %s", config, label).isEqualTo(theirs.dispatched());
                assertThat(ours.foundInLmq()).as("%s %s", config, label).isEqualTo(theirs.foundInLmq());
                assertThat(ours.dispatched().foundByIndex().values()).as("%s %s: found by the index", config, label)
                    .doesNotContain(false);
                if (config.lmq && label.startsWith("lmq/")) {
                    assertThat(ours.foundInLmq()).as("%s %s", config, label).hasSize(2).doesNotContainValue(false);
                } else {
                    assertThat(ours.foundInLmq()).as("%s %s", config, label).isEmpty();
                }
                System.out.println("[store " + RELEASE + " dispatch] " + config + " " + label + ": same in both: " + ours.dispatched()
                    + (ours.foundInLmq().isEmpty() ? "" : " lmq " + ours.foundInLmq()));
            }
        }
        assertThat(STOCK.get(Config.PLAIN).get("send/0").dispatched().pulledThisRecord()).isTrue();
        assertThat(STOCK.get(Config.PLAIN).get("send-delay").dispatched().deliveryTimeMinusStoreTime()).as("level 3").isEqualTo(3000L);
    }

    /** Control: the same messages through the stock store twice give identical records (masked). */
    @Test
    void stockStoresIdenticalRecordsTwice() {
        for (String label : LABELS) {
            assertThat(HexFormat.of().formatHex(masked(label, record(stockAgain, label), stockAgain, false))).as(label)
                .isEqualTo(HexFormat.of().formatHex(masked(label, record(STOCK.get(Config.PLAIN), label), STOCK.get(Config.PLAIN), false)));
        }
    }

    /** Control: the normal send's record (and every record with WAIT) differs between stock and patched. */
    @Test
    void normalSendDiffersBetweenStockAndPatched() {
        for (Config config : Config.values()) {
            Map<String, Stored533> stock = STOCK.get(config);
            Map<String, Stored533> patched = PATCHED.get(config);
            for (String label : LABELS) {
                boolean same = Arrays.equals(masked(label, record(stock, label), stock, config.crc),
                    masked(label, record(patched, label), patched, config.crc));
                assertThat(same).as("%s %s: stock equals patched", config, label).isEqualTo(UNCHANGED.get(config).contains(label));
            }
            assertThat(properties(record(stock, "send/0"))).contains("WAIT\1true\2");
            assertThat(properties(record(patched, "send/0"))).doesNotContain("WAIT\1");
        }
    }

    /**
     * The record the patched store must write for a stock record: its properties block (before the CRC entry, if any)
     * trimmed ({@link #trimmed}), one separator before the CRC entry if the trimmed block is not empty and does not end
     * with one (only a junk block with empty last segments does), TOTALSIZE and PROPLEN adjusted.
     */
    static byte[] expectedPatched(byte[] stock, boolean crc) {
        int at = propertiesOffset(stock);
        byte[] block = Arrays.copyOfRange(stock, at + 2, stock.length);
        byte[] crcEntry = crc ? Arrays.copyOfRange(block, block.length - CRC_LEN, block.length) : new byte[0];
        byte[] trimmed = trimmed(Arrays.copyOf(block, block.length - crcEntry.length));
        ByteArrayOutputStream newBlock = new ByteArrayOutputStream();
        newBlock.writeBytes(trimmed);
        if (crc && trimmed.length > 0 && trimmed[trimmed.length - 1] != SEP) {
            newBlock.write(SEP); // the single-message encoders' needAppendLastPropertySeparator
        }
        newBlock.writeBytes(crcEntry);
        ByteBuffer out = ByteBuffer.allocate(at + 2 + newBlock.size());
        out.put(stock, 0, at);
        out.putShort((short) newBlock.size());
        out.put(newBlock.toByteArray());
        out.putInt(0, out.capacity()); // TOTALSIZE
        return out.array();
    }

    /**
     * The block with each {@code WAIT\1..} segment removed together with one separator (the following one, or for a last
     * segment the nearest preceding one not taken already), then one trailing separator removed.
     */
    static byte[] trimmed(byte[] block) {
        byte[] out = WaitSegments.removed(block);
        return out.length > 0 && out[out.length - 1] == SEP ? Arrays.copyOf(out, out.length - 1) : out;
    }

    /**
     * A copy with what legitimately differs between two stores' records of one path overwritten: store timestamp, queue
     * and physical offsets; the commit's PREPARED_TX_OFFSET (checked to be the half's offset in that store); the born
     * timestamp of the sites that read the clock (checked to be this run's; every other record's is the client's); the
     * CRC digits.
     */
    private static byte[] masked(String label, byte[] record, Map<String, Stored533> store, boolean crc) {
        byte[] copy = RecordLayout.masked(record);
        ByteBuffer b = ByteBuffer.wrap(copy);
        if (label.equals("commit")) {
            long halfOffset = ByteBuffer.wrap(record(store, "half")).getLong(PHYSICALOFFSET);
            assertThat(b.getLong(PREPARED_TX_OFFSET)).as("commit: PREPARED_TX_OFFSET is the half's offset").isEqualTo(halfOffset);
            b.putLong(PREPARED_TX_OFFSET, -1);
        } else {
            assertThat(b.getLong(PREPARED_TX_OFFSET)).as(label).isZero();
        }
        if (BORN_NOW.contains(label)) {
            assertThat(b.getLong(BORNTIMESTAMP)).as("%s: born now", label).isBetween(startedAt, System.currentTimeMillis());
            b.putLong(BORNTIMESTAMP, -1);
        } else {
            assertThat(b.getLong(BORNTIMESTAMP)).as(label).isEqualTo(BORN_TIMESTAMP);
        }
        if (crc) {
            Arrays.fill(copy, copy.length - 11, copy.length - 1, (byte) 'X');
        }
        return copy;
    }

    private static Map<String, String> orEmpty(Map<String, String> decoded) {
        return decoded == null ? new LinkedHashMap<>() : new LinkedHashMap<>(decoded);
    }

    /** CommitLog's CRC entry: 10 digits, least significant first. */
    private static int crcValue(byte[] record) {
        long value = 0;
        for (int i = record.length - 2; i >= record.length - 11; i--) {
            value = value * 10 + (record[i] - '0');
        }
        return (int) value;
    }

    /** The block without its CRC entry. */
    private static String block(byte[] record, boolean crc) {
        String properties = properties(record);
        return crc ? properties.substring(0, properties.length() - CRC_LEN) : properties;
    }

    private static List<String> segments(String block) {
        return List.of(block.split("\2", -1));
    }

    private static byte[] record(Map<String, Stored533> store, String label) {
        Stored533 entry = store.get(label);
        assertThat(entry).as(label).isNotNull();
        return entry.bytes().clone();
    }
}
