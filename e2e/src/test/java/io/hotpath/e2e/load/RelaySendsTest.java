package io.hotpath.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Set;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

class RelaySendsTest {

    private final SeededMessages messages = SeededMessages.relayed(RelaySends.TOPIC, "relay-test", 64);

    private MessageExt checked(int seq) {
        Message sent = messages.build(seq);
        MessageExt message = new MessageExt();
        message.setTopic(RelaySends.TOPIC);
        message.setBody(sent.getBody());
        MessageAccessor.setProperties(message, new HashMap<>(sent.getProperties()));
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
        // the owed check-back comes later, from the other broker
        Thread broker = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            listener.checkLocalTransaction(checked(owedUnknown));
        });
        broker.start();

        long first = listener.awaitCheckBacks(Set.of(owedUnknown), Duration.ofSeconds(10));
        broker.join();

        assertThat(first).as("the wait lasted until the owed check-back").isNotEqualTo(-1);
        assertThat(listener.checkedBackOf(Set.of(owedUnknown))).isEqualTo(1);
    }

    @Test
    void withoutTheOwedCheckBackTheWaitTimesOutAndCountsNone() throws InterruptedException {
        RelaySends.Listener listener = new RelaySends.Listener(messages);
        int owedUnknown = RelaySends.MESSAGES - 1;
        listener.checkLocalTransaction(checked(RelaySends.DELAYED + 1));

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
