package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.load.StoredMessages;
import java.util.List;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

/** A topic sent to in parts (the warm-up's slices, each seq 0 up) is read back in one pass, each message audited by its part. */
class VerifierPartsTest {

    private static final MessageQueue A0 = new MessageQueue("hotpath_warmup_load", "broker-a", 0);
    private static final MessageQueue B0 = new MessageQueue("hotpath_warmup_load", "broker-b", 0);

    private final SeededMessages first = new SeededMessages("hotpath_warmup_load", "run-warmup-0", 64);
    private final SeededMessages second = new SeededMessages("hotpath_warmup_load", "run-warmup-1", 64);
    private final SeededMessages otherRun = new SeededMessages("hotpath_warmup_load", "another-run", 64);

    private static SendLedger acked(MessageQueue queue, long firstOffset, int messages) {
        SendLedger ledger = new SendLedger(messages);
        for (int seq = 0; seq < messages; seq++) {
            ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(seq), "o", queue, firstOffset + seq), 1_000);
        }
        return ledger;
    }

    @Test
    void eachMessageIsAuditedByThePartOfItsRunAndOneOfNoPartIsForeign() {
        // both slices wrote seq 0 and 1 to the same queue, one after the other
        SendLedger firstLedger = acked(A0, 0, 2);
        SendLedger secondLedger = acked(A0, 2, 2);
        Verifier.Audits audits = new Verifier.Audits(List.of(new Verifier.Part(first, firstLedger),
                new Verifier.Part(second, secondLedger)));

        audits.record(A0, StoredMessages.stored(first.build(0), A0, 0, StoredMessages.uniqKey(0)));
        audits.record(A0, StoredMessages.stored(first.build(1), A0, 1, StoredMessages.uniqKey(1)));
        audits.record(A0, StoredMessages.stored(second.build(0), A0, 2, StoredMessages.uniqKey(0)));
        audits.record(A0, StoredMessages.stored(otherRun.build(1), A0, 3, StoredMessages.uniqKey(1)));

        List<DeliveryAudit.DeliveryReport> reports = audits.reports();
        assertThat(reports.get(0).passed()).isTrue();
        assertThat(reports.get(0).foreign()).isEqualTo(1);
        assertThat(reports.get(1).confirmed()).isEqualTo(1);
        assertThat(reports.get(1).lost()).isEqualTo(1);
        assertThat(reports.get(1).problems()).singleElement().asString().startsWith("lost: seq 1");
        assertThat(audits.read()).isEqualTo(4);
        assertThat(audits.acked()).isEqualTo(4);
    }

    @Test
    void theQueuesMustReachTheHighestAcknowledgedOffsetOfAnyPart() {
        Verifier.Audits audits = new Verifier.Audits(List.of(new Verifier.Part(first, acked(A0, 0, 3)),
                new Verifier.Part(second, acked(A0, 3, 2)), new Verifier.Part(otherRun, acked(B0, 0, 1))));

        assertThat(audits.ackedQueueEnds()).containsEntry(A0, 5L).containsEntry(B0, 1L).hasSize(2);
    }
}
