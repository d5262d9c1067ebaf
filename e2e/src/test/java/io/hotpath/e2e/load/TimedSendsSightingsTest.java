package io.hotpath.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.load.TimedSends.Kind;
import io.hotpath.e2e.load.TimedSends.Observation;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/** What the consumer notes of a timed message: besides when it came, the broker's stage times of the first copy it got. */
class TimedSendsSightingsTest {

    private static final long T = 1_764_400_000_000L;
    private final SeededMessages messages = new SeededMessages(TimedSends.TOPIC, "20261130-000000-patched", 64);

    /** The copy a consumer gets of {@code seq}: what was sent, stored at {@code storedMs}, dequeued by the timer at {@code dequeuedMs}. */
    private MessageExt delivered(int seq, long storedMs, Long dequeuedMs) {
        Message sent = messages.build(seq);
        MessageExt copy = new MessageExt();
        copy.setTopic(sent.getTopic());
        copy.setBody(sent.getBody());
        sent.getProperties().forEach((k, v) -> MessageAccessor.putProperty(copy, k, v));
        copy.setStoreTimestamp(storedMs);
        if (dequeuedMs != null) {
            MessageAccessor.putProperty(copy, TimedSends.TIMER_DEQUEUE_MS, Long.toString(dequeuedMs));
        }
        return copy;
    }

    @Test
    void theFirstCopysStoreAndDequeueTimesAreKept() {
        int seq = TimedSends.PROBES + TimedSends.PLAIN;
        TimedSends.Sightings sightings = new TimedSends.Sightings(messages);

        sightings.saw(delivered(seq, T + 1004, T + 1002L), T + 2086);
        // a second copy (a retry stored twice) does not replace the first one's times
        sightings.saw(delivered(seq, T + 1500, T + 1400L), T + 2500);

        Observation o = sightings.observation(seq, Kind.TIMER, T + 1500, T + 1000, true);
        assertThat(o.copies()).isEqualTo(2);
        assertThat(o.firstSeenMs()).isEqualTo(T + 2086);
        assertThat(o.dequeuedMs()).isEqualTo(T + 1002);
        assertThat(o.storedMs()).isEqualTo(T + 1004);
    }

    @Test
    void aMessageWithoutATimerDequeueTimeHasNone() {
        TimedSends.Sightings sightings = new TimedSends.Sightings(messages);
        sightings.saw(delivered(TimedSends.PROBES, T + 3, null), T + 9);

        Observation o = sightings.observation(TimedSends.PROBES, Kind.PLAIN, T, T, true);
        assertThat(o.dequeuedMs()).isEqualTo(-1);
        assertThat(o.storedMs()).isEqualTo(T + 3);
        assertThat(sightings.observation(TimedSends.PROBES + 1, Kind.PLAIN, T, T, true).storedMs()).as("never seen").isEqualTo(-1);
        // a copy without a store time (MessageExt's 0) has none either
        sightings.saw(delivered(TimedSends.PROBES + 2, 0, null), T + 9);
        assertThat(sightings.observation(TimedSends.PROBES + 2, Kind.PLAIN, T, T, true).storedMs()).as("no store time").isEqualTo(-1);
    }
}
