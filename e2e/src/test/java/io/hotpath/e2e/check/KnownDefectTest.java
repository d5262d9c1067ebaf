package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.load.StoredMessages;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

/**
 * The 4.9.0 batch-separator defect with a 4.9.8 client's batch ({@link NewerClientCheck}): the stored
 * properties end {@code TAGS\1TagA} + {@code CLUSTER\1DefaultCluster} with no separator in between.
 */
class KnownDefectTest {

    private static final MessageQueue A0 = new MessageQueue(NewerClientCheck.CLIENT_498.topic(), "broker-a", 0);
    private static final int BATCH_SEQ = NewerClientCheck.SINGLE_MESSAGES;
    private static final String GLUE = "CLUSTER\u0001DefaultCluster";

    private final SeededMessages messages = new SeededMessages(NewerClientCheck.CLIENT_498.topic(), "run-1", 64);
    private final SendLedger ledger = new SendLedger(NewerClientCheck.SINGLE_MESSAGES + NewerClientCheck.BATCH_MESSAGES);

    private MessageExt stored(int seq) {
        return StoredMessages.stored(messages.build(seq), A0, seq, StoredMessages.uniqKey(seq));
    }

    /** As a 4.9.8 consumer parses it: the last entry's value carries the glued CLUSTER entry. */
    private MessageExt gluedAsRead498(int seq) {
        MessageExt stored = stored(seq);
        Map<String, String> properties = stored.getProperties();
        properties.remove(MessageConst.PROPERTY_CLUSTER);
        properties.put(MessageConst.PROPERTY_TAGS, properties.get(MessageConst.PROPERTY_TAGS) + GLUE);
        return stored;
    }

    /** As a 4.9.0 consumer parses it: an entry with two \1 is dropped. */
    private MessageExt gluedAsRead490(int seq) {
        MessageExt stored = stored(seq);
        stored.getProperties().remove(MessageConst.PROPERTY_CLUSTER);
        stored.getProperties().remove(MessageConst.PROPERTY_TAGS);
        return stored;
    }

    @Test
    void recognisesTheGluedClusterAsEitherClientParsesIt() {
        assertThat(NewerClientCheck.batchSeparatorDefect(messages, BATCH_SEQ, gluedAsRead498(BATCH_SEQ))).isTrue();
        assertThat(NewerClientCheck.batchSeparatorDefect(messages, BATCH_SEQ, gluedAsRead490(BATCH_SEQ))).isTrue();
    }

    @Test
    void neverExplainsASingleMessage() {
        assertThat(NewerClientCheck.batchSeparatorDefect(messages, 0, gluedAsRead498(0))).isFalse();
    }

    @Test
    void neverExplainsAnyOtherDifference() {
        MessageExt body = gluedAsRead498(BATCH_SEQ);
        body.getBody()[5] ^= 1;
        MessageExt twoMissing = gluedAsRead490(BATCH_SEQ);
        twoMissing.getProperties().remove(MessageConst.PROPERTY_KEYS);
        MessageExt clusterKept = gluedAsRead498(BATCH_SEQ);
        MessageAccessor.putProperty(clusterKept, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        MessageExt otherValue = gluedAsRead498(BATCH_SEQ);
        MessageAccessor.putProperty(otherValue, SeededMessages.NOTE, "changed");

        for (MessageExt stored : List.of(body, twoMissing, clusterKept, otherValue)) {
            assertThat(NewerClientCheck.batchSeparatorDefect(messages, BATCH_SEQ, stored)).isFalse();
        }
    }

    @Test
    void aKnownDefectIsNeitherDeliveredNorLostAndTheRunPasses() {
        ledger.recordResult(BATCH_SEQ, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(BATCH_SEQ), "x", A0, BATCH_SEQ), 1_000);
        DeliveryAudit audit = new DeliveryAudit(messages, ledger, NewerClientCheck.batchDefect(messages, true));

        audit.record(A0, gluedAsRead498(BATCH_SEQ));
        DeliveryAudit.DeliveryReport report = audit.report();

        assertThat(report.passed()).isTrue();
        assertThat(report.knownDefect()).isEqualTo(1);
        assertThat(report.confirmed()).isZero();
        assertThat(report.corrupt()).isZero();
        assertThat(report.problems()).singleElement().asString().startsWith("known defect (" + NewerClientCheck.BATCH_SEPARATOR_DEFECT);
    }

    @Test
    void withoutTheKnownDefectTheSameCopyIsCorruptAndLost() {
        ledger.recordResult(BATCH_SEQ, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(BATCH_SEQ), "x", A0, BATCH_SEQ), 1_000);
        // a distribution with patch 0003 does not tolerate it: its batch encoder writes the separator
        DeliveryAudit audit = new DeliveryAudit(messages, ledger, NewerClientCheck.batchDefect(messages, false));

        audit.record(A0, gluedAsRead498(BATCH_SEQ));

        assertThat(audit.report().passed()).isFalse();
        assertThat(audit.report().corrupt()).isEqualTo(1);
        assertThat(audit.report().lost()).isEqualTo(1);
    }

    @Test
    void aFiveXClientsBatchMessageReadBackWithTheBatchsUniqueKeyIsTheKnownDefectOfThatClientOnly() {
        ledger.recordResult(BATCH_SEQ, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(BATCH_SEQ), "x", A0, BATCH_SEQ), 1_000);
        ledger.recordResult(0, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(0), "x", A0, 0), 1_000);
        String batchKey = StoredMessages.uniqKey(BATCH_SEQ + NewerClientCheck.BATCH_MESSAGES); // the batch's own key
        DeliveryAudit audit = new DeliveryAudit(messages, ledger, NewerClientCheck.batchDefect(NewerClientCheck.CLIENT_533, messages, false));

        audit.record(A0, StoredMessages.stored(messages.build(BATCH_SEQ), A0, BATCH_SEQ, batchKey));
        audit.record(A0, StoredMessages.stored(messages.build(0), A0, 0, batchKey)); // a single message: no excuse

        assertThat(audit.report().knownDefect()).isEqualTo(1);
        assertThat(audit.report().corrupt()).isEqualTo(1);
        assertThat(audit.report().problems()).anySatisfy(p -> assertThat(p).startsWith("known defect (" + NewerClientCheck.BATCH_UNIQ_KEY_DEFECT));

        DeliveryAudit strict = new DeliveryAudit(messages, ledger, NewerClientCheck.batchDefect(NewerClientCheck.CLIENT_498, messages, false));
        strict.record(A0, StoredMessages.stored(messages.build(BATCH_SEQ), A0, BATCH_SEQ, batchKey));
        assertThat(strict.report().corrupt()).isEqualTo(1);
    }
}
