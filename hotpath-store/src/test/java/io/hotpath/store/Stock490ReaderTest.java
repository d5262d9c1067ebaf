package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.codec.Escapes;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/**
 * Item 3(c): the stock 4.9.0 reader, {@code MessageDecoder.decode} of the real 4.9.0 jar, reads a
 * CommitLog record that carries our properties block. The record is the one 4.9.0's own
 * {@code MessageDecoder.encode} lays out (the CommitLog layout), with only the properties block
 * (and TOTALSIZE) replaced by ours, so every other field is upstream's.
 */
class Stock490ReaderTest {

    @Test
    void readsThePlainProducerMessageWithoutWaitAndStillReportsWaitStoreMsgOk() {
        Map<String, String> map = PersistedPropertiesContract.plainProducerMessage();
        MessageExt stock = decode(stockRecord(map));
        MessageExt ours = decode(ourRecord(map));

        assertThat(ours.getProperties()).isEqualTo(without(stock.getProperties(), "WAIT"))
            .containsOnlyKeys("KEYS", "UNIQ_KEY", "CLUSTER", "TAGS");
        assertThat(ours.getStoreSize()).isEqualTo(stock.getStoreSize() - 11);
        assertThat(ours.getMsgId()).isEqualTo(stock.getMsgId());
        assertThat(ours.getTags()).isEqualTo("TagA");
        assertThat(ours.getKeys()).isEqualTo("OrderID188");
        // an absent WAIT reads as true, as the stored WAIT=true did
        assertThat(ours.isWaitStoreMsgOK()).isTrue().isEqualTo(stock.isWaitStoreMsgOK());
    }

    @Test
    void turnsAStoredWaitFalseIntoAnAbsentWaitThatReadsTrue() {
        // what send-back stores (msgExt.setWaitStoreMsgOK(false)): a reader that re-puts the record
        // and asks isWaitStoreMsgOK() gets a different answer; see the README, per path
        Map<String, String> map = PersistedPropertiesContract.plainProducerMessage();
        map.put("WAIT", "false");
        assertThat(decode(stockRecord(map)).isWaitStoreMsgOK()).isFalse();
        assertThat(decode(ourRecord(map)).isWaitStoreMsgOK()).isTrue();
    }

    @Test
    void mayDecodeIntoAMapOfOtherCapacityWhenWaitWasTheThirteenthEntry() throws ReflectiveOperationException {
        // 4.9.0 parses into new HashMap(): 12 entries fit 16 buckets, 13 resize to 32. Same
        // entries, other iteration order, so a broker that re-serializes the decoded map (send-back)
        // writes them in another order than stock 4.9.0 would; 4.9.8 does the same as ours.
        Map<String, String> map = PersistedPropertiesContract.plainProducerMessage();
        for (int i = 0; map.size() < 13; i++) {
            map.put("user" + i, "v" + i);
        }
        Map<String, String> stock = decode(stockRecord(map)).getProperties();
        Map<String, String> ours = decode(ourRecord(map)).getProperties();
        assertThat(ours).isEqualTo(without(stock, "WAIT"));
        assertThat(buckets(stock)).isEqualTo(32);
        assertThat(buckets(ours)).isEqualTo(16);
    }

    @Test
    void decodesAnEmptyBlockIntoNullPropertiesThatReadAsEmpty() {
        Map<String, String> onlyWait = new HashMap<>(Map.of("WAIT", "true"));
        MessageExt ours = decode(ourRecord(onlyWait));
        assertThat(ours.getProperties()).isNull();
        assertThat(ours.getProperty("WAIT")).isNull();
        assertThat(decode(stockRecord(onlyWait)).getProperties()).containsOnlyKeys("WAIT");
    }

    /** Any map: the reader sees exactly 4.9.0's parse of the 4.9.8 block, and every other field of the record. */
    @Property
    void readsOurBlockAs490ParsesThe498Block(@ForAll("nastyMaps") Map<String, String> properties) {
        final byte[] stockRecord = stockRecordOrNull(properties);
        Assume.that(stockRecord != null);
        final MessageExt stock = decode(stockRecord);
        final MessageExt ours = decode(ourRecord(properties));
        // last: 4.9.8's WAIT remove/re-put may reorder the map within a bucket
        final byte[] block = PersistedPropertiesImpl.upstream498().persist(properties);
        assertThat(propertiesOf(ours))
            .as(() -> "properties of " + Escapes.escape(properties))
            .isEqualTo(MessageDecoder.string2messageProperties(new String(block, StandardCharsets.UTF_8)));
        assertSameRecordApartFromProperties(ours, stock, stockRecord.length, properties);
    }

    /**
     * Keys and values without separators (real messages): the reader sees exactly what it sees in
     * the stock 4.9.0 record, minus WAIT.
     */
    @Property
    void readsStockPropertiesMinusWait(@ForAll("separatorFreeMaps") Map<String, String> properties) {
        final byte[] stockRecord = stockRecordOrNull(properties);
        Assume.that(stockRecord != null);
        final MessageExt stock = decode(stockRecord);
        final MessageExt ours = decode(ourRecord(properties));
        assertThat(propertiesOf(ours))
            .as(() -> "properties of " + Escapes.escape(properties))
            .isEqualTo(without(propertiesOf(stock), "WAIT"));
        assertSameRecordApartFromProperties(ours, stock, stockRecord.length, properties);
    }

    private static void assertSameRecordApartFromProperties(MessageExt ours, MessageExt stock, int stockLength,
                                                            Map<String, String> input) {
        int ourBlock = PersistedProperties.messageProperties2Bytes(input).length;
        int stockBlock = MessageDecoder.messageProperties2String(input).getBytes(StandardCharsets.UTF_8).length;
        assertThat(ours.getStoreSize()).isEqualTo(stockLength - stockBlock + ourBlock);
        assertThat(List.of(ours.getTopic(), ours.getQueueId(), ours.getFlag(), ours.getQueueOffset(),
                ours.getCommitLogOffset(), ours.getSysFlag(), ours.getBornTimestamp(), ours.getBornHost(),
                ours.getStoreTimestamp(), ours.getStoreHost(), ours.getReconsumeTimes(),
                ours.getPreparedTransactionOffset(), ours.getBodyCRC(), ours.getMsgId()))
            .isEqualTo(List.of(stock.getTopic(), stock.getQueueId(), stock.getFlag(), stock.getQueueOffset(),
                stock.getCommitLogOffset(), stock.getSysFlag(), stock.getBornTimestamp(), stock.getBornHost(),
                stock.getStoreTimestamp(), stock.getStoreHost(), stock.getReconsumeTimes(),
                stock.getPreparedTransactionOffset(), stock.getBodyCRC(), stock.getMsgId()));
        assertThat(ours.getBody()).isEqualTo(stock.getBody());
    }

    /** The CommitLog record stock 4.9.0 lays out for a message with these properties. */
    static byte[] stockRecord(Map<String, String> properties) {
        MessageExt msg = new MessageExt(3, 1_700_000_000_123L, new InetSocketAddress("10.1.2.3", 51234),
            1_700_000_000_456L, new InetSocketAddress("10.9.8.7", 10911), null);
        msg.setTopic("TopicTest");
        msg.setBody("Hello RocketMQ \u4e2d".getBytes(StandardCharsets.UTF_8));
        msg.setBodyCRC(0x1234_5678);
        msg.setFlag(7);
        msg.setQueueOffset(42);
        msg.setCommitLogOffset(1_048_576);
        msg.setReconsumeTimes(2);
        MessageAccessor.setProperties(msg, properties);
        try {
            return MessageDecoder.encode(msg, false);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Null when the stock block itself does not fit the record's short length field. */
    private static byte[] stockRecordOrNull(Map<String, String> properties) {
        int stockBlock = MessageDecoder.messageProperties2String(properties).getBytes(StandardCharsets.UTF_8).length;
        return stockBlock > PersistedProperties.MAX_LENGTH ? null : stockRecord(properties);
    }

    /** The stock record with its trailing properties block (PROPLEN + bytes) replaced by ours. */
    static byte[] ourRecord(Map<String, String> properties) {
        byte[] stock = stockRecord(properties);
        ByteBuffer in = ByteBuffer.wrap(stock);
        int stockBlock = MessageDecoder.messageProperties2String(properties).getBytes(StandardCharsets.UTF_8).length;
        int head = stock.length - 2 - stockBlock;
        assertThat(in.getShort(head)).isEqualTo((short) stockBlock);
        ByteBuffer out = ByteBuffer.allocate(head + 2 + 3 * 64 * 1024);
        out.put(stock, 0, head);
        out.putShort((short) 0); // PROPLEN, set below
        int length = PersistedProperties.encode(properties, out);
        assertThat(length).isLessThanOrEqualTo(PersistedProperties.MAX_LENGTH);
        out.putShort(head, (short) length);
        out.putInt(0, head + 2 + length); // TOTALSIZE
        byte[] record = new byte[head + 2 + length];
        out.flip();
        out.get(record);
        return record;
    }

    static MessageExt decode(byte[] record) {
        return MessageDecoder.decode(ByteBuffer.wrap(record), true, true, false);
    }

    /**
     * 4.9.0's decode leaves properties null when PROPLEN is 0 (ours is empty when WAIT was the only
     * entry); {@code getProperty} treats that as empty, so compare it as empty.
     */
    private static Map<String, String> propertiesOf(MessageExt msg) {
        return msg.getProperties() == null ? Map.of() : msg.getProperties();
    }

    /** HashMap bucket count (surefire opens java.util): with insertion order it fixes iteration order. */
    private static int buckets(Map<String, String> map) throws ReflectiveOperationException {
        java.lang.reflect.Field table = HashMap.class.getDeclaredField("table");
        table.setAccessible(true);
        return ((Object[]) table.get(map)).length;
    }

    private static Map<String, String> without(Map<String, String> map, String key) {
        Map<String, String> copy = new HashMap<>(map);
        copy.remove(key);
        return copy;
    }

    @Provide
    Arbitrary<Map<String, String>> nastyMaps() {
        return PersistedPropertiesArbitraries.nastyMaps();
    }

    @Provide
    Arbitrary<Map<String, String>> separatorFreeMaps() {
        return PersistedPropertiesArbitraries.separatorFreeMaps();
    }
}
