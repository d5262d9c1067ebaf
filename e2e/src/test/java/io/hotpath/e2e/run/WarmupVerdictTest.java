package io.hotpath.e2e.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.hotpath.e2e.check.DeliveryAudit;
import io.hotpath.e2e.check.WarmupVerdict;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.load.StoredMessages;
import io.hotpath.e2e.spec.RoundSpec;
import io.hotpath.e2e.spec.SmokeOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up load is judged like the measured load (issue 37): an acknowledged warm-up message lost, or a warm-up send
 * that failed after the cluster's first SEND_OK, fails the round; a send that failed before a fresh cluster's first
 * SEND_OK does not. Each round here has a lossless measured load, so only the warm-up decides.
 */
class WarmupVerdictTest {

    private static final MessageQueue A0 = new MessageQueue(Round.WARMUP_LOAD_TOPIC, "broker-a", 0);
    private static final RoundSpec PACED = SmokeOptions.parse("--seconds", "12", "--rate", "300").round();
    private static final int SLICE = 10;

    @TempDir
    Path dir;

    private final SeededMessages slice1 = new SeededMessages(Round.WARMUP_LOAD_TOPIC, "run-warmup-0", 64);
    private final SeededMessages slice2 = new SeededMessages(Round.WARMUP_LOAD_TOPIC, "run-warmup-1", 64);

    private static void ack(SendLedger ledger, int seq) {
        ledger.recordResult(seq, new SendResult(SendStatus.SEND_OK, StoredMessages.uniqKey(seq), "o", A0, seq), 1_000_000);
    }

    /** The broker's flow control: what a warm-up that overran the cluster gets back. */
    private static MQClientException systemBusy() {
        return new MQClientException("Send [3] times, still failed", SyntheticResults.systemBusy());
    }

    /** What a fresh cluster answers before its route settles: the client's 3 s send timeout. */
    private static RemotingTooMuchRequestException callTimeout() {
        return new RemotingTooMuchRequestException("sendDefaultImpl call timeout");
    }

    /** The read-back of {@code ledger}'s acknowledged sends, each stored where acknowledged, but for {@code missing}. */
    private static DeliveryAudit.DeliveryReport readBack(SeededMessages messages, SendLedger ledger, int... missing) {
        DeliveryAudit audit = new DeliveryAudit(messages, ledger);
        for (int seq = 0; seq < ledger.size(); seq++) {
            int s = seq;
            if (ledger.outcome(seq) == SendLedger.Outcome.ACKED && Arrays.stream(missing).noneMatch(m -> m == s)) {
                audit.record(A0, StoredMessages.stored(messages.build(seq), A0, seq, StoredMessages.uniqKey(seq)));
            }
        }
        return audit.report();
    }

    private RoundResult roundWith(WarmupVerdict warmup) throws IOException {
        RoundResult r = SyntheticResults.run(Files.createDirectories(dir.resolve("round")), PACED, "4.9.8", SyntheticResults.ledger(100, 100), Map.of());
        return new RoundResult(r.flavor(), r.distribution(), r.runDir(), r.options(), r.load(), r.delivery(), r.extraReadBacks(),
                r.failedSends(), r.bootSeconds(), r.totalSeconds(), r.metrics(), r.network(), warmup);
    }

    private static WarmupVerdict judge(List<SendLedger> ledgers, DeliveryAudit.DeliveryReport delivery) {
        return WarmupVerdict.judge(ledgers, 30, delivery, 1.5, "4.9.8");
    }

    @Test
    void aWarmupWhoseEveryAckedMessageCameBackKeepsTheRoundPassing() throws Exception {
        SendLedger ledger = new SendLedger(SLICE);
        for (int seq = 0; seq < SLICE; seq++) {
            ack(ledger, seq);
        }

        RoundResult result = roundWith(judge(List.of(ledger), readBack(slice1, ledger)));

        assertThat(result.verdict()).isEqualTo("PASS");
        assertThat(result.summary()).contains("warm-up (1 load, 30.0 s, reported apart): PASS; sent 10, acked 10;"
                + " failed before the cluster's first SEND_OK 0 (not judged), after it 0");
        JsonObject warmup = JsonParser.parseString(Files.readString(result.writeJson())).getAsJsonObject().getAsJsonObject("warmup");
        assertThat(warmup.get("result").getAsString()).isEqualTo("PASS");
        assertThat(warmup.get("confirmed").getAsLong()).isEqualTo(10);
        assertThat(warmup.get("readBackSeconds").getAsDouble()).isEqualTo(1.5);
    }

    @Test
    void aLostAcknowledgedWarmupMessageFailsTheRound() throws Exception {
        SendLedger ledger = new SendLedger(SLICE);
        for (int seq = 0; seq < SLICE; seq++) {
            ack(ledger, seq);
        }

        RoundResult result = roundWith(judge(List.of(ledger), readBack(slice1, ledger, 7)));

        // the measured load alone passes: before the warm-up was read back, this round passed
        assertThat(result.delivery().passed()).isTrue();
        assertThat(result.failedSends().unexpected()).isZero();
        assertThat(result.verdict()).isEqualTo("FAIL");
        assertThat(result.failureReasons()).containsExactly("warm-up: lost 1, corrupt 0, misplaced 0");
        assertThat(result.summary()).contains("warm-up: lost: seq 7 acked at");
        JsonObject json = JsonParser.parseString(Files.readString(result.writeJson())).getAsJsonObject();
        assertThat(json.get("result").getAsString()).isEqualTo("FAIL");
        assertThat(json.getAsJsonObject("warmup").get("lost").getAsLong()).isEqualTo(1);
        // reported apart: the measured load's own figures do not carry it
        assertThat(json.get("lost").getAsLong()).isZero();
    }

    @Test
    void aWarmupSendThatFailedAfterTheFirstSendOkFailsTheRound() throws Exception {
        SendLedger ledger = new SendLedger(SLICE);
        for (int seq = 0; seq < SLICE - 1; seq++) {
            ack(ledger, seq);
        }
        // began after the first SEND_OK had come back (round trip 0: it began when it was recorded)
        ledger.recordFailure(SLICE - 1, systemBusy(), 0);

        RoundResult result = roundWith(judge(List.of(ledger), readBack(slice1, ledger)));

        assertThat(result.warmup().delivery().passed()).isTrue();
        assertThat(result.verdict()).isEqualTo("FAIL");
        assertThat(result.failureReasons()).containsExactly("warm-up: failed sends after the cluster's first SEND_OK 1"
                + " {MQClientException caused by MQBrokerException code 2=1}");
        assertThat(result.summary()).contains("after it 1 {MQClientException caused by MQBrokerException code 2=1} UNEXPECTED");
    }

    @Test
    void aWarmupSendThatFailedBeforeTheFreshClustersFirstSendOkDoesNotFailTheRound() throws Exception {
        SendLedger ledger = new SendLedger(SLICE);
        ledger.recordFailure(0, callTimeout(), 3_000_000_000L);
        for (int seq = 1; seq < SLICE; seq++) {
            ack(ledger, seq);
        }

        RoundResult result = roundWith(judge(List.of(ledger), readBack(slice1, ledger)));

        assertThat(result.verdict()).isEqualTo("PASS");
        assertThat(result.warmup().failedBeforeFirstAck()).containsExactly(Map.entry("RemotingTooMuchRequestException call timeout", 1L));
        assertThat(result.summary()).contains("failed before the cluster's first SEND_OK 1"
                + " {RemotingTooMuchRequestException call timeout=1} (not judged), after it 0");
    }

    @Test
    void aSendBegunBeforeTheFirstSendOkCountsAsBeforeThoughItsTimeoutEndedAfter() {
        SendLedger ledger = new SendLedger(SLICE);
        for (int seq = 0; seq < SLICE - 1; seq++) {
            ack(ledger, seq);
        }
        // recorded after the acks, but handed over 3 s before it was recorded: before the first of them came back
        ledger.recordFailure(SLICE - 1, callTimeout(), 3_000_000_000L);

        WarmupVerdict warmup = judge(List.of(ledger), readBack(slice1, ledger));

        assertThat(warmup.passed()).isTrue();
        assertThat(warmup.failedBeforeFirstAckTotal()).isEqualTo(1);
    }

    @Test
    void aLaterSliceIsJudgedFromTheClustersFirstSendOkInAnEarlierOne() {
        SendLedger first = new SendLedger(SLICE);
        for (int seq = 0; seq < SLICE; seq++) {
            ack(first, seq);
        }
        // the next slice's first send fails before that slice saw any SEND_OK, but long after the cluster's first
        SendLedger second = new SendLedger(SLICE);
        second.recordFailure(0, systemBusy(), 0);
        for (int seq = 1; seq < SLICE; seq++) {
            ack(second, seq);
        }
        DeliveryAudit.DeliveryReport delivery = readBack(slice1, first).plus("slice 2", readBack(slice2, second));

        WarmupVerdict warmup = judge(List.of(first, second), delivery);

        assertThat(warmup.passed()).isFalse();
        assertThat(warmup.unexpectedFailedSends()).isEqualTo(1);
        assertThat(warmup.sent()).isEqualTo(2 * SLICE);
    }

    @Test
    void aWarmupThatGotNothingAcknowledgedFailsTheRound() throws Exception {
        SendLedger ledger = new SendLedger(SLICE);
        for (int seq = 0; seq < SLICE; seq++) {
            ledger.recordFailure(seq, callTimeout(), 3_000_000_000L);
        }

        RoundResult result = roundWith(judge(List.of(ledger), readBack(slice1, ledger)));

        assertThat(result.verdict()).isEqualTo("FAIL");
        assertThat(result.failureReasons()).containsExactly("warm-up: nothing acknowledged");
    }

    @Test
    void aRoundWithoutWarmupSaysSo() throws Exception {
        RoundResult result = roundWith(null);

        assertThat(result.verdict()).isEqualTo("PASS");
        assertThat(result.summary()).doesNotContain("warm-up");
        JsonObject json = JsonParser.parseString(Files.readString(result.writeJson())).getAsJsonObject();
        assertThat(json.getAsJsonObject("warmup").get("ran").getAsBoolean()).isFalse();
    }
}
