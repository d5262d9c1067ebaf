package io.hotpath.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class SeededMessagesTest {

    private final SeededMessages messages = new SeededMessages("hotpath_smoke", "20250101-000000-stock", 1024);
    private final MessageQueue queue = new MessageQueue("hotpath_smoke", "broker-a", 3);

    @Test
    void bodiesAreDeterministicPerSequenceAndDifferBetweenSequences() {
        assertThat(messages.body(7)).isEqualTo(messages.body(7)).hasSize(1024);
        assertThat(messages.body(7)).isNotEqualTo(messages.body(8));
        assertThat(new String(messages.body(7), StandardCharsets.US_ASCII)).startsWith("seq=7 ");
    }

    @Test
    void bodiesDependOnTheRun() {
        SeededMessages otherRun = new SeededMessages("hotpath_smoke", "20250101-000000-patched", 1024);

        assertThat(otherRun.body(7)).isNotEqualTo(messages.body(7));
    }

    @Test
    void tinyBodiesAreCutNotPadded() {
        assertThat(new SeededMessages("t", "r", 3).body(123456)).hasSize(3);
    }

    @Test
    void carriesTagsKeysUserPropertiesAndWaitLikeAProducer() {
        Message message = messages.build(42);

        assertThat(message.getTags()).isEqualTo("TagC");
        assertThat(message.getKeys()).isEqualTo("OrderID42");
        assertThat(message.getUserProperty(SeededMessages.SEQ)).isEqualTo("42");
        assertThat(message.getUserProperty(SeededMessages.NOTE)).contains("𝄞");
        assertThat(message.getProperty(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)).isEqualTo("true");
        assertThat(messages.sequenceOf(message)).isEqualTo(42);
    }

    @Test
    void aFaithfulRoundTripThroughThe490CodecHasNoDifference() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));

        assertThat(messages.difference(42, stored)).isNull();
    }

    @Test
    void aStoreThatDropsWaitIsStillFaithful() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        MessageAccessor.clearProperty(stored, MessageConst.PROPERTY_WAIT_STORE_MSG_OK);

        assertThat(messages.difference(42, stored)).isNull();
    }

    @Test
    void reportsAChangedBodyByte() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        stored.getBody()[500] ^= 1;

        assertThat(messages.difference(42, stored)).startsWith("body differs");
    }

    @Test
    void reportsAChangedUserPropertyEscapingControlCharacters() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        MessageAccessor.putProperty(stored, SeededMessages.NOTE, "x\u0001y");

        assertThat(messages.difference(42, stored)).isEqualTo("property hotpath.note is \"x\\u0001y\" instead of \"Grüße € 𝄞 #42\"");
    }

    @Test
    void reportsAMissingTag() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        MessageAccessor.clearProperty(stored, MessageConst.PROPERTY_TAGS);

        assertThat(messages.difference(42, stored)).isEqualTo("property TAGS is null instead of \"TagC\"");
    }

    @Test
    void reportsAnUnexpectedKeySuchAsAMergedSegment() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        MessageAccessor.putProperty(stored, "KEYSOrderID42", "");

        assertThat(messages.difference(42, stored)).startsWith("unexpected property \"KEYSOrderID42\"");
    }

    @Test
    void acceptsTheRegionAndTraceSwitchA5xBrokerStores() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_MSG_REGION, "DefaultRegion");
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_TRACE_SWITCH, "true");

        assertThat(messages.difference(42, stored)).isNull();
    }

    @Test
    void reportsAWaitValueOtherThanTrue() {
        MessageExt stored = StoredMessages.stored(messages.build(42), queue, 9, StoredMessages.uniqKey(42));
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_WAIT_STORE_MSG_OK, "false");

        assertThat(messages.difference(42, stored)).contains("WAIT");
    }

    @Test
    void messagesOfOtherRunsOrWithoutSequenceAreNotOurs() {
        Message probe = new Message("hotpath_smoke", "probe", new byte[] {1});
        Message otherRun = new SeededMessages("hotpath_smoke", "another-run", 16).build(3);

        assertThat(messages.sequenceOf(probe)).isEqualTo(-1);
        assertThat(messages.sequenceOf(otherRun)).isEqualTo(-1);
    }
}
