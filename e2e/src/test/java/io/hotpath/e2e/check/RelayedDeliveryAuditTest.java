package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.load.StoredMessages;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

/**
 * Delayed and transactional messages: acknowledged with the offset of the system topic they are parked
 * in, consumed from the acknowledged queue at another offset, with the broker's relay keys added.
 */
class RelayedDeliveryAuditTest {

    private static final MessageQueue A1 = new MessageQueue("hotpath_smoke_relay", "broker-a", 1);
    private static final MessageQueue B0 = new MessageQueue("hotpath_smoke_relay", "broker-b", 0);

    private final SeededMessages relayed = SeededMessages.relayed("hotpath_smoke_relay", "run-1", 64);
    private final SendLedger ledger = new SendLedger(2);

    /** Acked at offset 57 of SCHEDULE_TOPIC_XXXX queue 0, as the broker answers; the client names queue A1. */
    private void ackParked(int seq) {
        ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(seq), "x", A1, 57), 1_000);
    }

    /** As a 4.9.0 broker re-puts a delayed message: DELAY, REAL_TOPIC and REAL_QID still in the record. */
    private MessageExt rePut(SeededMessages messages, int seq, MessageQueue queue, long offset) {
        MessageExt stored = StoredMessages.stored(messages.build(seq), queue, offset, StoredMessages.uniqKey(seq));
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_DELAY_TIME_LEVEL, "1");
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_REAL_TOPIC, queue.getTopic());
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_REAL_QUEUE_ID, Integer.toString(queue.getQueueId()));
        return stored;
    }

    @Test
    void aRelayedMessageInItsAckedQueueAtAnotherOffsetIsConfirmed() {
        ackParked(0);
        DeliveryAudit audit = new DeliveryAudit(relayed, ledger);

        audit.record(A1, rePut(relayed, 0, A1, 3));

        assertThat(audit.report().passed()).isTrue();
        assertThat(audit.report().confirmed()).isEqualTo(1);
    }

    @Test
    void aRelayedMessageInAnotherQueueIsMisplaced() {
        ackParked(0);
        DeliveryAudit audit = new DeliveryAudit(relayed, ledger);

        audit.record(B0, rePut(relayed, 0, B0, 3));

        assertThat(audit.report().misplaced()).isEqualTo(1);
        assertThat(audit.report().passed()).isFalse();
    }

    @Test
    void aPlainAuditStillOwesTheAckedOffset() {
        SeededMessages plain = new SeededMessages("hotpath_smoke_relay", "run-1", 64);
        ackParked(0);
        DeliveryAudit audit = new DeliveryAudit(plain, ledger);

        audit.record(A1, StoredMessages.stored(plain.build(0), A1, 3, StoredMessages.uniqKey(0)));

        assertThat(audit.report().misplaced()).isEqualTo(1);
    }

    @Test
    void relayKeysAreAcceptedOnlyOnRelayedMessages() {
        SeededMessages plain = new SeededMessages("hotpath_smoke_relay", "run-1", 64);

        assertThat(relayed.difference(0, rePut(relayed, 0, A1, 3))).isNull();
        assertThat(plain.difference(0, rePut(plain, 0, A1, 3))).startsWith("unexpected property \"");
    }

    @Test
    void aRealQueueIdThatIsNotTheConsumedQueueIsCorruption() {
        MessageExt stored = rePut(relayed, 0, A1, 3);
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_REAL_QUEUE_ID, "0");

        assertThat(relayed.difference(0, stored)).isEqualTo("property REAL_QID is \"0\" but the message is in queue 1");
    }

    @Test
    void aRealTopicThatIsNotTheTopicIsCorruption() {
        MessageExt stored = rePut(relayed, 0, A1, 3);
        MessageAccessor.putProperty(stored, MessageConst.PROPERTY_REAL_TOPIC, "SCHEDULE_TOPIC_XXXX");

        assertThat(relayed.difference(0, stored)).startsWith("property REAL_TOPIC is \"SCHEDULE_TOPIC_XXXX\"");
    }

    @Test
    void aFiveXTransactionIdIsAcceptedWhenItIsTheUniqueKey() {
        // a 5.x broker stores __transactionId__ = UNIQ_KEY when it parks a transactional message
        MessageExt stored = rePut(relayed, 0, A1, 3);
        MessageAccessor.putProperty(stored, "__transactionId__", stored.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));

        assertThat(relayed.difference(0, stored)).isNull();

        MessageAccessor.putProperty(stored, "__transactionId__", "7F000001");
        assertThat(relayed.difference(0, stored)).startsWith("property __transactionId__ is \"7F000001\" instead of the UNIQ_KEY");
    }

    @Test
    void anUnknownPropertyOnARelayedMessageIsStillCorruption() {
        MessageExt stored = rePut(relayed, 0, A1, 3);
        MessageAccessor.putProperty(stored, "SURPRISE", "1");

        assertThat(relayed.difference(0, stored)).isEqualTo("unexpected property \"SURPRISE\"=\"1\"");
    }

    @Test
    void confirmedCountsWhatWasFoundSoFarForTheRelayWait() {
        ackParked(0);
        ackParked(1);
        DeliveryAudit audit = new DeliveryAudit(relayed, ledger);
        audit.record(A1, rePut(relayed, 1, A1, 0));

        assertThat(audit.confirmed()).isEqualTo(1);
        assertThat(audit.report().lost()).isEqualTo(1);
    }
}
