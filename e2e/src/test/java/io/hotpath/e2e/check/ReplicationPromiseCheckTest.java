package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.check.ReplicationPromiseCheck.Report;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ReplicationPromiseCheckTest {

    private static final String OK = ReplicationPromiseCheck.SEND_OK;
    private static final String TIMEOUT = "FLUSH_SLAVE_TIMEOUT";
    private static final String CLIENT_TIMEOUT = "RemotingTimeoutException";
    private static final ReplicationWait WAIT = ReplicationWait.of("5.5.1", new Properties());

    private static List<String> frozen(String... firstAnswers) {
        List<String> answers = new ArrayList<>(List.of(firstAnswers));
        answers.addAll(Collections.nCopies(ReplicationPromiseCheck.FROZEN_SENDS - firstAnswers.length, TIMEOUT));
        return answers;
    }

    private static Report report(String label, List<String> before, List<String> whileFrozen, List<String> afterResume) {
        return new Report(label, WAIT, before, whileFrozen, afterResume, 0.1);
    }

    @Test
    void passesWhenTheMasterRefusedEverySendWhileFrozenAndBothControlsAcknowledged() {
        Report report = new Report("stock", WAIT, List.of(OK), frozen(), List.of(TIMEOUT, OK), 1.5);

        assertThat(report.problems()).isEmpty();
        assertThat(report.line()).contains("slave frozen (master waits slaveTimeout 3000 ms, client 6 s): 8 sends, 0 SEND_OK"
                + " {FLUSH_SLAVE_TIMEOUT=8}").contains("resumed: SEND_OK after 1.5 s").endsWith("PASS");
    }

    @Test
    void slaveNotAvailableAfterTheMasterDroppedTheSilentSlaveIsARefusalToo() {
        // 4.9.x: once the frozen slave's connection is closed (haHousekeepingInterval), the master answers at once
        Report report = report("stock", List.of(OK), frozen("SLAVE_NOT_AVAILABLE", "SLAVE_NOT_AVAILABLE"), List.of(OK));

        assertThat(report.problems()).isEmpty();
    }

    @Test
    void oneSendOkWhileTheSlaveIsFrozenBreaksThePromise() {
        Report report = report("patched+tuned", List.of(OK), frozen(OK), List.of(OK));

        assertThat(report.passed()).isFalse();
        assertThat(report.problems()).containsExactly("1 of 8 sends answered SEND_OK while the slave was frozen:"
                + " the master acknowledged messages its slave could not have");
        assertThat(report.line()).endsWith("FAIL");
    }

    @Test
    void aClientTimeoutIsNotTheMastersAnswerAndFails() {
        Report report = report("stock", List.of(OK), frozen(CLIENT_TIMEOUT), List.of(OK));

        assertThat(report.problems()).containsExactly("1 of 8 sends while the slave was frozen got no refusal from the master"
                + " within the client's 6 s {RemotingTimeoutException=1}: what the master answered was not observed");
    }

    @Test
    void theOldObservationAllClientTimeoutsFails() {
        // what ci-check-4.9.8-2026-11-27 saw on both arms: the client gave up before the master answered
        List<String> allTimedOut = Collections.nCopies(ReplicationPromiseCheck.FROZEN_SENDS, CLIENT_TIMEOUT);
        Report report = new Report("stock", ReplicationWait.of("4.9.8", new Properties()), List.of(OK), allTimedOut, List.of(OK), 0.0);

        assertThat(report.passed()).isFalse();
        assertThat(report.problems()).containsExactly(
                "8 of 8 sends while the slave was frozen got no refusal from the master within the client's 6 s"
                        + " {RemotingTimeoutException=8}: what the master answered was not observed",
                "no send while the slave was frozen was answered FLUSH_SLAVE_TIMEOUT {RemotingTimeoutException=8}: the master"
                        + " never waited for the frozen slave, so its connected slave was not tested");
        assertThat(report.line()).endsWith("FAIL");
    }

    @Test
    void onlySlaveNotAvailableMeansTheMasterNeverSawItsSlaveConnected() {
        Report report = report("stock", List.of(OK), Collections.nCopies(8, "SLAVE_NOT_AVAILABLE"), List.of(OK));

        assertThat(report.problems()).containsExactly("no send while the slave was frozen was answered FLUSH_SLAVE_TIMEOUT"
                + " {SLAVE_NOT_AVAILABLE=8}: the master never waited for the frozen slave, so its connected slave was not tested");
    }

    @Test
    void withoutSendOkBeforeTheFreezeTheCheckCouldNotTellAndFails() {
        Report report = report("stock", List.of("SLAVE_NOT_AVAILABLE"), frozen(), List.of(OK));

        assertThat(report.problems()).containsExactly(
                "control: no SEND_OK before the slave was frozen {SLAVE_NOT_AVAILABLE=1}, so the check could not tell");
    }

    @Test
    void aSlaveThatNeverCatchesUpAfterResumingFails() {
        Report report = report("stock", List.of(OK), frozen(), List.of(TIMEOUT, TIMEOUT));

        assertThat(report.problems()).containsExactly("control: no SEND_OK within 60 s after the slave resumed {FLUSH_SLAVE_TIMEOUT=2}");
    }

    @Test
    void sendsThatNeverReturnedAreCountedMissing() {
        Report report = report("stock", List.of(OK), List.of(TIMEOUT, TIMEOUT), List.of(OK));

        assertThat(report.problems()).containsExactly("2 sends while the slave was frozen, expected 8");
    }
}
