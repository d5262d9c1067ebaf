package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.RelaySends;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The per-topic WAIT report: judged only on a 0003 distribution, for every reported topic. */
class PersistedPropertiesCheckTest {

    private static final Map<String, CommitLogScan.TopicWait> RELAY_WITH_WAIT = Map.of(
        "SCHEDULE_TOPIC_XXXX", new CommitLogScan.TopicWait(4, 0),
        "RMQ_SYS_TRANS_HALF_TOPIC", new CommitLogScan.TopicWait(6, 6),
        "RMQ_SYS_TRANS_OP_HALF_TOPIC", new CommitLogScan.TopicWait(5, 5),
        RelaySends.TOPIC, new CommitLogScan.TopicWait(9, 5));

    private static final java.util.List<String> REPORTED = PersistedPropertiesCheck.REPORTED_TOPICS;

    @Test
    void everyReportedTopicMustBeWaitFreeOnA0003Distribution() {
        assertThat(PersistedPropertiesCheck.WAIT_FREE_RELAY_TOPICS).containsExactlyInAnyOrderElementsOf(PersistedPropertiesCheck.REPORTED_TOPICS);
        for (String line : new String[] {"4.9.0", "4.9.8", "5.3.3", "5.5.1"}) {
            assertThat(PersistedPropertiesCheck.waitFreeTopics(line)).containsExactlyInAnyOrderElementsOf(PersistedPropertiesCheck.reportedTopics(line));
        }
    }

    @Test
    void theNewerClientsTopicsAreReportedForTheLinesTheyRunOn() {
        assertThat(PersistedPropertiesCheck.reportedTopics("4.9.8")).startsWith("hotpath_smoke_compat", "hotpath_smoke_498", "hotpath_smoke_relay")
            .doesNotContain("hotpath_smoke_533", "hotpath_smoke_550");
        assertThat(PersistedPropertiesCheck.reportedTopics("5.3.3"))
            .startsWith("hotpath_smoke_compat", "hotpath_smoke_498", "hotpath_smoke_533", "hotpath_smoke_relay")
            .doesNotContain("hotpath_smoke_550");
        assertThat(PersistedPropertiesCheck.reportedTopics("5.5.1"))
            .startsWith("hotpath_smoke_compat", "hotpath_smoke_498", "hotpath_smoke_550", "hotpath_smoke_relay")
            .doesNotContain("hotpath_smoke_533");
    }

    @Test
    void topicsOutsideTheJudgedSetAreReportedOnly() {
        assertThat(PersistedPropertiesCheck.checkTopics("patched", true, RELAY_WITH_WAIT, REPORTED, Set.of())).isEmpty();
    }

    @Test
    void withTheSwitchOnEveryRelayTopicStoringWaitFailsAPatchedRun() {
        assertThat(PersistedPropertiesCheck.checkTopics("patched", true, RELAY_WITH_WAIT, REPORTED, PersistedPropertiesCheck.RELAY_PATH_TOPICS))
            .containsExactlyInAnyOrder(
                "patched: 5 of 9 CommitLog records of hotpath_smoke_relay store WAIT\\1",
                "patched: 6 of 6 CommitLog records of RMQ_SYS_TRANS_HALF_TOPIC store WAIT\\1",
                "patched: 5 of 5 CommitLog records of RMQ_SYS_TRANS_OP_HALF_TOPIC store WAIT\\1");
    }

    @Test
    void aSwitchedOnTopicWithNoRecordProvesNothingAndFails() {
        assertThat(PersistedPropertiesCheck.checkTopics("patched", true, Map.of(), REPORTED, Set.of("SCHEDULE_TOPIC_XXXX")))
            .containsExactly("patched: no CommitLog record of SCHEDULE_TOPIC_XXXX to check");
    }

    @Test
    void stockIsNeverJudged() {
        assertThat(PersistedPropertiesCheck.checkTopics("stock", false, RELAY_WITH_WAIT, REPORTED, PersistedPropertiesCheck.RELAY_PATH_TOPICS))
            .isEmpty();
    }
}
