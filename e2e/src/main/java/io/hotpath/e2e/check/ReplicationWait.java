package io.hotpath.e2e.check;

import io.hotpath.lines.ReleaseLine;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * How long a release's SYNC_MASTER waits for its slave's acknowledgement before it answers FLUSH_SLAVE_TIMEOUT, so that a
 * client can wait longer and observe that answer. Upstream (CommitLog's replica request, HAService's GroupTransferService):
 * <ul>
 *   <li>4.9.0 - 4.9.2: {@code syncFlushTimeout} (default 5000 ms), counted from when the GroupTransferService reaches the
 *       request: it serves the waiting sends one after the other, so with n sends waiting the last is answered after
 *       n times the wait ({@link #queued}).</li>
 *   <li>4.9.3 and later, 5.x: {@code slaveTimeout} (default 3000 ms), a deadline fixed when the message is put: waiting
 *       sends time out together.</li>
 * </ul>
 * A 4.9.x master answers SLAVE_NOT_AVAILABLE at once when no slave is connected (or it is too far behind); a 5.x master
 * without controller mode waits for the slave in every case.
 *
 * @param key    the MessageStoreConfig property that bounds the wait
 * @param millis its effective value: the broker's configuration, else the release's default
 * @param queued whether waiting sends are served one after the other, each wait starting when its turn comes
 */
public record ReplicationWait(String key, long millis, boolean queued) {

    /** Beyond the master's wait: its answer still has to be written, sent and read on a busy 2-core machine. */
    static final Duration MARGIN = Duration.ofSeconds(3);
    private static final String FIRST_DEADLINE_RELEASE = "4.9.3";

    /** The wait of {@code release}'s master run with {@code brokerConfig} (the properties the cluster wrote for it). */
    public static ReplicationWait of(String release, Properties brokerConfig) {
        boolean queued = ReleaseLine.compareVersions(release, FIRST_DEADLINE_RELEASE) < 0;
        String key = queued ? "syncFlushTimeout" : "slaveTimeout";
        long defaultMillis = queued ? 5000 : 3000;
        String configured = brokerConfig.getProperty(key);
        long millis;
        try {
            millis = configured == null ? defaultMillis : Long.parseLong(configured.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the broker's " + key + " is not a number: '" + configured + "'", e);
        }
        return new ReplicationWait(key, millis, queued);
    }

    /**
     * How long a client must wait to see the master's answer to each of {@code concurrentSends} sends that wait together:
     * the master's wait (times the sends ahead of it where they queue) plus {@link #MARGIN}.
     */
    public Duration clientTimeout(int concurrentSends) {
        return Duration.ofMillis(millis * (queued ? concurrentSends : 1)).plus(MARGIN);
    }

    /** E.g. {@code slaveTimeout 3000 ms}. */
    public String describe() {
        return String.format(Locale.ROOT, "%s %d ms%s", key, millis, queued ? ", one waiting send after the other" : "");
    }
}
