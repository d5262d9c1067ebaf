package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ReplicationWaitTest {

    private static Properties config(String key, String value) {
        Properties properties = new Properties();
        properties.setProperty(key, value);
        return properties;
    }

    @Test
    void releasesBefore493WaitSyncFlushTimeoutPerSendOneAfterTheOther() {
        ReplicationWait wait = ReplicationWait.of("4.9.0", new Properties());

        assertThat(wait).isEqualTo(new ReplicationWait("syncFlushTimeout", 5000, true));
        // the fourth of four waiting sends is answered after four waits
        assertThat(wait.clientTimeout(4)).isEqualTo(Duration.ofSeconds(23));
        assertThat(ReplicationWait.of("4.9.2", new Properties()).key()).isEqualTo("syncFlushTimeout");
    }

    @Test
    void from493AndOn5xTheWaitIsSlaveTimeoutFromThePut() {
        for (String release : new String[] {"4.9.3", "4.9.8", "5.3.3", "5.5.1"}) {
            ReplicationWait wait = ReplicationWait.of(release, new Properties());

            assertThat(wait).as(release).isEqualTo(new ReplicationWait("slaveTimeout", 3000, false));
            assertThat(wait.clientTimeout(4)).as(release).isEqualTo(Duration.ofSeconds(6));
        }
    }

    @Test
    void theBrokersConfiguredValueWinsOverTheDefault() {
        assertThat(ReplicationWait.of("4.9.8", config("slaveTimeout", " 4500 ")).clientTimeout(4)).isEqualTo(Duration.ofMillis(7500));
        assertThat(ReplicationWait.of("4.9.8", config("syncFlushTimeout", "9000")).millis()).isEqualTo(3000);
        assertThat(ReplicationWait.of("4.9.0", config("syncFlushTimeout", "2000")).clientTimeout(4)).isEqualTo(Duration.ofSeconds(11));
    }

    @Test
    void aValueThatIsNoNumberIsRefused() {
        assertThatThrownBy(() -> ReplicationWait.of("5.5.1", config("slaveTimeout", "3s")))
                .hasMessage("the broker's slaveTimeout is not a number: '3s'");
    }
}
