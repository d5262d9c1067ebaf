package io.hotpath.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.check.DeliveryAudit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class LedgerFileTest {

    private static final MessageQueue B3 = new MessageQueue("hotpath_smoke_498", "broker-b", 3);

    @Test
    void aLedgerReadBackFromItsFileOwesTheSameMessagesAtTheSamePositions() throws Exception {
        SendLedger sent = new SendLedger(5);
        sent.recordResult(0, new SendResult(SendStatus.SEND_OK, "id0", "o", B3, 11), 1_000);
        sent.recordResult(1, new SendResult(SendStatus.SLAVE_NOT_AVAILABLE, "id1", "o", B3, 12), 1_000);
        sent.recordFailure(2, new MQClientException("timeout", null), 1_000);
        sent.recordResult(4, new SendResult(SendStatus.SEND_OK, "id4", "o", B3, 13), 1_000);
        Path file = Files.createDirectories(Path.of("target", "test-ledger-file")).resolve("sent.tsv");

        LedgerFile.write(sent, file);
        SendLedger read = LedgerFile.read(file);

        assertThat(read.size()).isEqualTo(5);
        for (int seq = 0; seq < 5; seq++) {
            assertThat(read.outcome(seq)).as("seq %d", seq).isEqualTo(sent.outcome(seq));
            assertThat(read.queue(seq)).as("seq %d", seq).isEqualTo(sent.queue(seq));
        }
        assertThat(read.queueOffset(4)).isEqualTo(13);
        assertThat(read.msgId(0)).isEqualTo("id0");
        assertThat(List.of(read.acked(), read.notOk(), read.failed())).containsExactly(2L, 1L, 1L);
        assertThat(read.ackedQueueEnds()).isEqualTo(sent.ackedQueueEnds());
        // the reasons travel too: the controller judges the child's failed sends against the run's fault
        assertThat(read.failuresByReason()).isEqualTo(sent.failuresByReason())
            .containsOnlyKeys("status SLAVE_NOT_AVAILABLE", "MQClientException");
    }

    @Test
    void aDeliveryReportSurvivesItsTextForm() {
        DeliveryAudit.DeliveryReport report = new DeliveryAudit.DeliveryReport(56, 1, 56, 40, 0, 0, 0, 2, 0, 0, 40, 16,
            List.of("known defect (x), e.g. seq 40: property TAGS is \"TagA\u0001\" instead of \"TagA\""));

        DeliveryAudit.DeliveryReport parsed = DeliveryAudit.DeliveryReport.parse(report.toText().lines().toList());

        assertThat(parsed).isEqualTo(report);
    }

    @Test
    void twoReportsAddUpAndKeepWhoseProblemIsWhose() {
        DeliveryAudit.DeliveryReport a = new DeliveryAudit.DeliveryReport(10, 0, 10, 10, 0, 0, 0, 0, 0, 0, 0, List.of());
        DeliveryAudit.DeliveryReport b = new DeliveryAudit.DeliveryReport(5, 0, 5, 4, 1, 0, 0, 0, 0, 0, 5, List.of("lost: seq 3"));

        DeliveryAudit.DeliveryReport sum = a.plus("t by 4.9.8", b);

        assertThat(sum.acked()).isEqualTo(15);
        assertThat(sum.lost()).isEqualTo(1);
        assertThat(sum.passed()).isFalse();
        assertThat(sum.problems()).containsExactly("t by 4.9.8: lost: seq 3");
    }
}
