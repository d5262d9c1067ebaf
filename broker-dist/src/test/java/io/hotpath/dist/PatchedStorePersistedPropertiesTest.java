package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.probe.PatchedStoreProbe;
import io.hotpath.dist.store.shared.BatchPut;
import io.hotpath.dist.store.shared.PatchedStoreSites;
import io.hotpath.dist.store.shared.PutsAndRePuts;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * Patch 0003 in the PATCHED 4.9.0 DefaultMessageStore of the built broker (loaded from the patched
 * lib/ by {@link PatchedBrokerLoader#withProbe()}, store under target/): each stored record's
 * properties block is exactly the trimmed block of the message's map (no {@code WAIT\1}, no trailing
 * separator) - checked against stock 4.9.0's {@code messageProperties2String} of the same map
 * without WAIT, minus its trailing separator, as UTF-8 - the in-memory map still holds WAIT, and
 * the stock 4.9.0 {@code MessageDecoder.decode} reads the record back with the map's properties
 * minus WAIT. Paths: the normal single-message put (the probe restates the normal-send site), a
 * delayed message (the real patched CommitLog delay branch re-makes the block after adding
 * REAL_TOPIC / REAL_QID), its re-put by the real patched ScheduleMessageService when due, and a
 * batch through the real patched batch encoder. The broker-side sites (transaction half, commit, check,
 * op, resume, send-back, offset-moved) are driven, and compared with 4.9.8, by
 * {@link Upstream498StoreComparisonTest}; the 2m-2s smoke exercises the transaction path on a live broker.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
class PatchedStorePersistedPropertiesTest {

    private static final String SEP = "\2";
    /** What a 4.9.0 producer sends: KEYS, UNIQ_KEY, WAIT, TAGS, user properties (4.9.0 trailing separator). */
    private static final List<String> CLIENT_PROPERTIES = List.of(
        "KEYS\1OrderID188\2UNIQ_KEY\0017F0000010B5718B4AAC2170C8D500000\2WAIT\1true\2TAGS\1TagA\2",
        "TAGS\1TagB\2WAIT\1false\2hotpath.note\1h\u00e9llo \u4e16\u754c \ud83d\ude00\2UNIQ_KEY\0017F0000010B5718B4AAC2170C8D500001\2",
        "WAIT\1true\2",
        "KEYS\1k1 k2\2empty\1\2UNIQ_KEY\0017F0000010B5718B4AAC2170C8D500002\2WAIT\1true\2TAGS\1TagC\2",
        "KEYS\1delayed\2UNIQ_KEY\0017F0000010B5718B4AAC2170C8D500003\2WAIT\1true\2TAGS\1TagD\2");
    private static final List<Integer> DELAY_LEVELS = List.of(0, 0, 0, 0, 1);

    @Test
    void patchedStoreWritesTheTrimmedBlockThatStock490Reads() throws Exception {
        Path root = Files.createTempDirectory(BuiltDistributions.target(), "patched-store-");
        PatchedBrokerLoader loader = PatchedBrokerLoader.withProbe();
        Class<?> probe = loader.load(PatchedStoreProbe.class.getName());
        assertThat(probe.getClassLoader()).isSameAs(loader);
        assertThat(probe).isNotSameAs(PatchedStoreProbe.class);
        PutsAndRePuts results = patchedStore(loader).putAndReadBack(root.toString(), CLIENT_PROPERTIES, DELAY_LEVELS);

        long delayed = DELAY_LEVELS.stream().filter(level -> level > 0).count();
        assertThat(results.puts()).as("puts").hasSize(CLIENT_PROPERTIES.size());
        assertThat(results.rePuts()).as("the schedule service's re-puts").hasSize((int) delayed);
        for (int i = 0; i < CLIENT_PROPERTIES.size(); i++) {
            String what = "message " + i + " (" + escaped(CLIENT_PROPERTIES.get(i)) + ", delay level " + DELAY_LEVELS.get(i) + ")";
            assertThat(results.puts().get(i).status()).as(what).isEqualTo("PUT_OK");
            byte[] record = results.puts().get(i).record();
            LinkedHashMap<String, String> map = results.puts().get(i).mapAfterPut();
            assertThat(map).as("%s: the in-memory map keeps WAIT", what).containsKey(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
            if (DELAY_LEVELS.get(i) > 0) {
                assertThat(map).as(what).containsKeys(MessageConst.PROPERTY_REAL_TOPIC, MessageConst.PROPERTY_REAL_QUEUE_ID,
                    MessageConst.PROPERTY_DELAY_TIME_LEVEL);
            }

            byte[] stored = propertiesBlock(record);
            String storedText = new String(stored, StandardCharsets.UTF_8);
            assertThat(storedText).as("%s: stored block %s", what, escaped(storedText)).doesNotContain("WAIT\1").doesNotEndWith(SEP);
            assertThat(stored).as("%s: stored block %s", what, escaped(storedText)).isEqualTo(trimmedLike490(map));

            MessageExt decoded = MessageDecoder.decode(ByteBuffer.wrap(record), true, false);
            Map<String, String> withoutWait = withoutWait(map);
            if (withoutWait.isEmpty()) {
                // stock 4.9.0 decode leaves the map null for PROPLEN 0 (getProperty treats it as empty)
                assertThat(decoded.getProperties()).as(what).isNull();
            } else {
                assertThat(decoded.getProperties()).as("%s: stock 4.9.0 MessageDecoder reads it back", what).isEqualTo(withoutWait);
            }
            assertThat(new String(decoded.getBody(), StandardCharsets.UTF_8)).as(what).isEqualTo("body " + i);
        }
    }

    /**
     * The schedule service's re-put (a patched site): it makes the block from the map it decoded from the
     * schedule-topic record (before it sets WAIT=false and clears DELAY), so the re-put record's block is the
     * trimmed form of stock 4.9.0's decode of that record (0001 makes the patched decode's HashMap identical).
     */
    @Test
    void scheduleServiceRePutsADelayedMessageWithTheTrimmedBlockOfTheMapItRead() throws Exception {
        Path root = Files.createTempDirectory(BuiltDistributions.target(), "patched-store-delay-");
        PutsAndRePuts results = patchedStore(PatchedBrokerLoader.withProbe())
            .putAndReadBack(root.toString(), List.of(CLIENT_PROPERTIES.get(4)), List.of(1));
        assertThat(results.puts()).as("the put").hasSize(1);
        assertThat(results.rePuts()).as("the re-put").hasSize(1);
        MessageExt scheduled = MessageDecoder.decode(ByteBuffer.wrap(results.puts().get(0).record()), true, false);
        assertThat(scheduled.getTopic()).isEqualTo("SCHEDULE_TOPIC_XXXX");
        byte[] rePut = results.rePuts().get(0);
        MessageExt delivered = MessageDecoder.decode(ByteBuffer.wrap(rePut), true, false);
        assertThat(delivered.getTopic()).isEqualTo("hotpath_store_probe");
        String block = new String(propertiesBlock(rePut), StandardCharsets.UTF_8);
        assertThat(block).as(escaped(block)).doesNotContain("WAIT\1").doesNotEndWith(SEP)
            .contains(MessageConst.PROPERTY_DELAY_TIME_LEVEL + "\1", MessageConst.PROPERTY_REAL_TOPIC + "\1hotpath_store_probe");
        String expected = MessageDecoder.messageProperties2String(scheduled.getProperties());
        assertThat(block).as(escaped(block)).isEqualTo(expected.substring(0, expected.length() - 1));
        assertThat(delivered.getProperties()).isEqualTo(scheduled.getProperties());
        assertThat(new String(delivered.getBody(), StandardCharsets.UTF_8)).isEqualTo("body 0");
    }

    /**
     * A batch through the patched {@code CommitLog.MessageExtBatchEncoder}: each record's block is the
     * message's client-encoded segments without WAIT, then the batch's own block (CLUSTER, without WAIT),
     * one separator between them and none at the end - whether the client ended its block with a
     * separator (4.9.0) or not (4.9.1+) - and stock 4.9.0 decodes every record with those properties.
     * (That this equals 4.9.8's batch record without WAIT is hotpath-store's BatchMessageDifferentialTest.)
     */
    @Test
    void patchedBatchEncoderStoresEachMessageWithoutWait() throws Exception {
        List<String> inner = List.of(
            "KEYS\1b0\2UNIQ_KEY\0017F0000010B5718B4AAC2170C8D5000B0\2WAIT\1true\2TAGS\1TagA\2", // 4.9.0 client
            "UNIQ_KEY\0017F0000010B5718B4AAC2170C8D5000B1\2WAIT\1true\2hotpath.note\1h\u00e9llo \u4e16\u754c", // 4.9.1+ client
            "WAIT\1true\2",
            "",
            "WAIT\1false\2KEYS\1b4\2TAGS\1TagB\2");
        Path root = Files.createTempDirectory(BuiltDistributions.target(), "patched-store-batch-");
        BatchPut results = patchedStore(PatchedBrokerLoader.withProbe()).putBatchAndReadBack(root.toString(), inner, "WAIT\1true\2");
        assertThat(results.status()).isEqualTo("PUT_OK");
        LinkedHashMap<String, String> outer = results.outerProperties();
        assertThat(results.records()).as("one record per message").hasSize(inner.size());
        byte[] outerBlock = trimmedLike490(outer);
        assertThat(new String(outerBlock, StandardCharsets.UTF_8)).isEqualTo("CLUSTER\1DefaultCluster");
        for (int i = 0; i < inner.size(); i++) {
            byte[] record = results.records().get(i);
            List<String> segments = new java.util.ArrayList<>();
            String block = inner.get(i).endsWith(SEP) ? inner.get(i).substring(0, inner.get(i).length() - 1) : inner.get(i);
            for (String segment : block.isEmpty() ? new String[0] : block.split(SEP, -1)) {
                if (!segment.startsWith("WAIT\1")) {
                    segments.add(segment);
                }
            }
            segments.add(new String(outerBlock, StandardCharsets.UTF_8));
            String expected = String.join(SEP, segments);
            String stored = new String(propertiesBlock(record), StandardCharsets.UTF_8);
            String what = "batch message " + i + " (" + escaped(inner.get(i)) + ")";
            assertThat(stored).as("%s: stored %s", what, escaped(stored)).isEqualTo(expected).doesNotContain("WAIT\1").doesNotEndWith(SEP);

            MessageExt decoded = MessageDecoder.decode(ByteBuffer.wrap(record), true, false);
            Map<String, String> expectedProperties = MessageDecoder.string2messageProperties(expected);
            assertThat(decoded.getProperties()).as("%s: stock 4.9.0 decode", what).isEqualTo(expectedProperties);
            assertThat(decoded.getTopic()).isEqualTo("hotpath_store_probe_batch");
            assertThat(new String(decoded.getBody(), StandardCharsets.UTF_8)).as(what).isEqualTo("batch body " + i);
        }
    }

    /** The probe as the patched loader links it. */
    private static PatchedStoreSites patchedStore(PatchedBrokerLoader loader) throws Exception {
        return (PatchedStoreSites) loader.load(PatchedStoreProbe.class.getName()).getConstructor().newInstance();
    }

    /** Stock 4.9.0's String of the same map (same iteration order) without WAIT, without the trailing separator. */
    private static byte[] trimmedLike490(LinkedHashMap<String, String> map) {
        String text = MessageDecoder.messageProperties2String(withoutWait(map));
        if (text.endsWith(SEP)) {
            text = text.substring(0, text.length() - 1);
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static LinkedHashMap<String, String> withoutWait(LinkedHashMap<String, String> map) {
        LinkedHashMap<String, String> copy = new LinkedHashMap<>(map); // keeps the stored map's order
        copy.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
        return copy;
    }

    /** The PROPERTIES bytes of a 4.9.0 CommitLog record with IPv4 born/store hosts. */
    static byte[] propertiesBlock(byte[] record) {
        ByteBuffer b = ByteBuffer.wrap(record);
        int pos = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + 8 + 8 + 8 + 4 + 8; // up to BODYLEN, IPv4 hosts
        int sysFlag = b.getInt(4 + 4 + 4 + 4 + 4 + 8 + 8);
        assertThat(sysFlag & (1 << 4 | 1 << 5)).as("IPv4 born and store hosts").isZero();
        int bodyLength = b.getInt(pos);
        pos += 4 + bodyLength;
        int topicLength = b.get(pos) & 0xff;
        pos += 1 + topicLength;
        int propertiesLength = b.getShort(pos);
        pos += 2;
        assertThat(pos + propertiesLength).as("record length").isEqualTo(record.length);
        byte[] block = new byte[propertiesLength];
        System.arraycopy(record, pos, block, 0, propertiesLength);
        return block;
    }

    private static String escaped(String s) {
        return s.replace("\1", "\\1").replace("\2", "\\2");
    }
}
