package io.hotpath.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException;
import org.junit.jupiter.api.Test;

class SendLedgerTest {

    private static final MessageQueue A0 = new MessageQueue("t", "broker-a", 0);
    private static final MessageQueue A1 = new MessageQueue("t", "broker-a", 1);

    @Test
    void keepsAckedPositionAndRtPerSequence() {
        SendLedger ledger = new SendLedger(3);
        ledger.recordResult(0, new SendResult(SendStatus.SEND_OK, "id0", "o", A0, 7), 2_000_000);
        ledger.recordResult(2, new SendResult(SendStatus.SEND_OK, "id2", "o", A1, 3), 4_000_000);

        assertThat(ledger.outcome(0)).isEqualTo(SendLedger.Outcome.ACKED);
        assertThat(ledger.outcome(1)).isEqualTo(SendLedger.Outcome.NOT_SENT);
        assertThat(ledger.queue(2)).isEqualTo(A1);
        assertThat(ledger.queueOffset(0)).isEqualTo(7);
        assertThat(ledger.msgId(2)).isEqualTo("id2");
        assertThat(ledger.ackedQueueEnds()).containsEntry(A0, 8L).containsEntry(A1, 4L);
        assertThat(ledger.sortedAckedRtMicros()).containsExactly(2_000, 4_000);
    }

    @Test
    void countsNonOkStatusesAndExceptionsByReason() {
        SendLedger ledger = new SendLedger(3);
        ledger.recordResult(0, new SendResult(SendStatus.SLAVE_NOT_AVAILABLE, "id0", "o", A0, 1), 1_000);
        ledger.recordFailure(1, new MQBrokerException(2, "[TIMEOUT_CLEAN_QUEUE]broker busy"), 1_000);
        ledger.recordFailure(2, new MQClientException("Send [3] times, still failed", new RemotingTimeoutException("t")), 1_000);

        assertThat(ledger.acked()).isZero();
        assertThat(ledger.completed()).isEqualTo(3);
        assertThat(ledger.failuresByReason()).containsOnlyKeys("status SLAVE_NOT_AVAILABLE", "MQBrokerException code 2",
                "MQClientException caused by RemotingTimeoutException");
        assertThat(ledger.exampleByReason().get("MQBrokerException code 2")).contains("broker busy");
    }

    @Test
    void namesTheClientsOwnSendTimeoutApartFromOtherTooManyRequests() {
        SendLedger ledger = new SendLedger(4);
        ledger.recordFailure(0, new RemotingTooMuchRequestException("sendDefaultImpl call timeout"), 1_000);
        ledger.recordFailure(1, new MQClientException("send message Exception", new RemotingTooMuchRequestException("sendDefaultImpl call timeout")), 1_000);
        ledger.recordFailure(2, new RemotingTooMuchRequestException("invokeAsyncImpl invoke too fast"), 1_000);
        ledger.recordFailure(3, new MQClientException("Send [2] times, still failed", new MQBrokerException(2, "busy")), 1_000);

        assertThat(ledger.failuresByReason()).containsOnlyKeys("RemotingTooMuchRequestException call timeout",
                "MQClientException caused by RemotingTooMuchRequestException call timeout", "RemotingTooMuchRequestException",
                "MQClientException caused by MQBrokerException code 2");
    }

    @Test
    void loadResultReportsRetriesAsAttemptsBeyondOnePerSend() {
        SendLedger ledger = new SendLedger(2);
        ledger.recordAttempt();
        ledger.recordAttemptFailure(new RemotingTimeoutException("t"));
        ledger.recordAttempt();
        ledger.recordResult(0, new SendResult(SendStatus.SEND_OK, "id0", "o", A0, 0), 3_000_000);
        ledger.recordAttempt();
        ledger.recordResult(1, new SendResult(SendStatus.SEND_OK, "id1", "o", A0, 1), 1_000_000);

        LoadResult result = new LoadResult(ledger, 1_000_000_000L);

        assertThat(result.clientRetries()).isEqualTo(1);
        assertThat(result.tps()).isEqualTo(2.0);
        assertThat(result.avgRtMillis()).isEqualTo(2.0);
        assertThat(result.maxRtMillis()).isEqualTo(3.0);
        assertThat(result.rtPercentilesMillis()).containsEntry("p50", 1.0).containsEntry("p99", 3.0);
        assertThat(ledger.attemptFailuresByReason()).containsEntry("RemotingTimeoutException", 1L);
    }
}
