package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.load.StoredMessages;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.junit.jupiter.api.Test;

class DeliveryAuditTest {

    private static final MessageQueue A0 = new MessageQueue("hotpath_smoke", "broker-a", 0);
    private static final MessageQueue B1 = new MessageQueue("hotpath_smoke", "broker-b", 1);

    private final SeededMessages messages = new SeededMessages("hotpath_smoke", "run-1", 64);
    private final SendLedger ledger = new SendLedger(4);
    private final DeliveryAudit audit = new DeliveryAudit(messages, ledger);

    private void ack(int seq, MessageQueue queue, long offset) {
        ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(seq), "offset-id", queue, offset), 1_000_000);
    }

    private MessageExt stored(int seq, MessageQueue queue, long offset) {
        return StoredMessages.stored(messages.build(seq), queue, offset, StoredMessages.uniqKey(seq));
    }

    @Test
    void everyAckedMessageAtItsAckedPositionPasses() {
        for (int seq = 0; seq < 4; seq++) {
            ack(seq, seq % 2 == 0 ? A0 : B1, seq / 2);
        }
        for (int seq = 0; seq < 4; seq++) {
            audit.record(seq % 2 == 0 ? A0 : B1, stored(seq, seq % 2 == 0 ? A0 : B1, seq / 2));
        }

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isTrue();
        assertThat(report.confirmed()).isEqualTo(4);
        assertThat(report.lost() + report.duplicates() + report.storedUnacked() + report.corrupt()).isZero();
    }

    @Test
    void aMissingAckedMessageIsLostAndFailsTheRun() {
        ack(0, A0, 0);
        ack(1, A0, 1);
        audit.record(A0, stored(0, A0, 0));

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isFalse();
        assertThat(report.lost()).isEqualTo(1);
        assertThat(report.problems()).singleElement().asString().startsWith("lost: seq 1");
    }

    @Test
    void aRetriedSendStoredTwiceIsADuplicateNotALoss() {
        ack(0, B1, 5);
        audit.record(A0, stored(0, A0, 0)); // first attempt timed out on the client but was stored
        audit.record(B1, stored(0, B1, 5)); // the retry that was acknowledged

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isTrue();
        assertThat(report.duplicates()).isEqualTo(1);
    }

    @Test
    void storedButUnacknowledgedSendsAreExtrasNotFailures() {
        ack(0, A0, 0);
        ledger.recordResult(1, new SendResult(SendStatus.SLAVE_NOT_AVAILABLE, StoredMessages.uniqKey(1), "x", A0, 1), 1_000);
        ledger.recordFailure(2, new MQClientException("timeout", new RemotingTimeoutException("t")), 3_000_000_000L);
        audit.record(A0, stored(0, A0, 0));
        audit.record(A0, stored(1, A0, 1));
        audit.record(A0, stored(2, A0, 2));

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isTrue();
        assertThat(report.storedNotOk()).isEqualTo(1);
        assertThat(report.storedAfterFailure()).isEqualTo(1);
        assertThat(report.storedUnacked()).isEqualTo(2);
    }

    @Test
    void aCorruptCopyDoesNotCountAsDeliveredAndFailsTheRun() {
        ack(0, A0, 0);
        MessageExt corrupt = stored(0, A0, 0);
        corrupt.getBody()[10] ^= 1;
        audit.record(A0, corrupt);

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isFalse();
        assertThat(report.corrupt()).isEqualTo(1);
        assertThat(report.lost()).isEqualTo(1);
        assertThat(report.problems().get(0)).startsWith("corrupt: seq 0 at broker-a:0 offset 0: body differs");
    }

    @Test
    void anAckedMessageFoundOnlyAwayFromItsAckedPositionIsMisplaced() {
        ack(0, A0, 0);
        audit.record(B1, stored(0, B1, 0));

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isFalse();
        assertThat(report.misplaced()).isEqualTo(1);
        assertThat(report.lost()).isZero();
    }

    @Test
    void aDifferentUniqKeyAtTheAckedPositionIsCorruption() {
        ack(0, A0, 0);
        audit.record(A0, StoredMessages.stored(messages.build(0), A0, 0, StoredMessages.uniqKey(99)));

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isFalse();
        assertThat(report.corrupt()).isEqualTo(1);
    }

    @Test
    void messagesOfOtherRunsAreCountedApart() {
        ack(0, A0, 1);
        audit.record(A0, StoredMessages.stored(new SeededMessages("hotpath_smoke", "run-0", 64).build(0), A0, 0, "X"));
        audit.record(A0, stored(0, A0, 1));

        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isTrue();
        assertThat(report.foreign()).isEqualTo(1);
        assertThat(report.read()).isEqualTo(2);
    }
}
