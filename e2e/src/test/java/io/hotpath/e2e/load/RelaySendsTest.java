package io.hotpath.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Set;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

class RelaySendsTest {

    private final SeededMessages messages = SeededMessages.relayed(RelaySends.TOPIC, "relay-test", 64);

    private MessageExt checked(int seq) {
        MessageExt message = new MessageExt();
        message.setTopic(RelaySends.TOPIC);
        message.setBody(messages.build(seq).getBody());
        MessageAccessor.setProperties(message, new HashMap<>(messages.build(seq).getProperties()));
        return message;
    }

    @Test
    void onlyTheUnknownTransactionAnswersUnknownFirst() {
        RelaySends.Listener listener = new RelaySends.Listener(messages);
        assertThat(listener.executeLocalTransaction(messages.build(RelaySends.DELAYED), null)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(listener.executeLocalTransaction(messages.build(RelaySends.MESSAGES - 1), null)).isEqualTo(LocalTransactionState.UNKNOW);
    }

    /** campaign --ci, 2026-11-26: the check-back of a failed send's stored half ended the wait for the acked UNKNOW one. */
    @Test
    void aCheckBackOfAFailedSendDoesNotEndTheWaitForTheOwedOne() throws InterruptedException {
        RelaySends.Listener listener = new RelaySends.Listener(messages);
        int failedCommitAtOnce = RelaySends.DELAYED + 1;
        int owedUnknown = RelaySends.MESSAGES - 1;
        assertThat(listener.checkLocalTransaction(checked(failedCommitAtOnce))).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);

        long first = listener.awaitCheckBacks(Set.of(owedUnknown), Duration.ofMillis(200));

        assertThat(first).isEqualTo(-1);
        assertThat(listener.checkedBackOf(Set.of(owedUnknown))).isZero();
    }

    @Test
    void theOwedCheckBackEndsTheWaitAndCountsOnce() throws InterruptedException {
        RelaySends.Listener listener = new RelaySends.Listener(messages);
        int owedUnknown = RelaySends.MESSAGES - 1;
        listener.checkLocalTransaction(checked(owedUnknown));
        listener.checkLocalTransaction(checked(owedUnknown));

        long first = listener.awaitCheckBacks(Set.of(owedUnknown), Duration.ofSeconds(5));

        assertThat(first).isNotEqualTo(-1);
        assertThat(listener.checkedBackOf(Set.of(owedUnknown))).isEqualTo(1);
    }
}
