package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.check.ReplicationPromiseCheck.Report;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicationPromiseCheckTest {

    private static final String OK = ReplicationPromiseCheck.SEND_OK;
    private static final String TIMEOUT = "FLUSH_SLAVE_TIMEOUT";

    private static List<String> frozen(String... firstAnswers) {
        List<String> answers = new ArrayList<>(List.of(firstAnswers));
        answers.addAll(Collections.nCopies(ReplicationPromiseCheck.FROZEN_SENDS - firstAnswers.length, TIMEOUT));
        return answers;
    }

    @Test
    void passesWhenNothingSentWhileFrozenIsAcknowledgedAndBothControlsAre() {
        Report report = new Report("stock", List.of(OK), frozen("RemotingTimeoutException"), List.of(TIMEOUT, OK), 1.5);

        assertThat(report.problems()).isEmpty();
        assertThat(report.line()).contains("slave frozen: 8 sends, 0 SEND_OK {FLUSH_SLAVE_TIMEOUT=7, RemotingTimeoutException=1}")
                .contains("resumed: SEND_OK after 1.5 s").endsWith("PASS");
    }

    @Test
    void oneSendOkWhileTheSlaveIsFrozenBreaksThePromise() {
        Report report = new Report("patched+tuned", List.of(OK), frozen(OK), List.of(OK), 0.1);

        assertThat(report.passed()).isFalse();
        assertThat(report.problems()).containsExactly("1 of 8 sends answered SEND_OK while the slave was frozen:"
                + " the master acknowledged messages its slave could not have");
        assertThat(report.line()).endsWith("FAIL");
    }

    @Test
    void withoutSendOkBeforeTheFreezeTheCheckCouldNotTellAndFails() {
        Report report = new Report("stock", List.of("SLAVE_NOT_AVAILABLE"), frozen(), List.of(OK), 0.1);

        assertThat(report.problems()).containsExactly(
                "control: no SEND_OK before the slave was frozen {SLAVE_NOT_AVAILABLE=1}, so the check could not tell");
    }

    @Test
    void aSlaveThatNeverCatchesUpAfterResumingFails() {
        Report report = new Report("stock", List.of(OK), frozen(), List.of(TIMEOUT, TIMEOUT), 60.2);

        assertThat(report.problems()).containsExactly("control: no SEND_OK within 60 s after the slave resumed {FLUSH_SLAVE_TIMEOUT=2}");
    }

    @Test
    void sendsThatNeverReturnedAreCountedMissing() {
        Report report = new Report("stock", List.of(OK), List.of(TIMEOUT, TIMEOUT), List.of(OK), 0.1);

        assertThat(report.problems()).containsExactly("2 sends while the slave was frozen, expected 8");
    }
}
