package io.hotpath.e2e.cluster;

import io.hotpath.e2e.UsageException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * What goes wrong during a run ({@code --fault}); every scenario ends in the same zero-loss check.
 * Mid-run faults fire half-way through a {@code --seconds} run, or {@link #COUNT_RUN_DELAY} into a
 * count-bounded one.
 */
public enum FaultScenario {
    NONE("none", "no fault"),
    /**
     * SYNC_MASTER broker-a then stores but does not acknowledge: 4.9.x answers SLAVE_NOT_AVAILABLE at once, 5.x waits
     * {@code slaveTimeout} (3 s) for the replica it needs and answers FLUSH_SLAVE_TIMEOUT, so the client's send times out.
     */
    KILL_SLAVE("kill-slave", "kill -9 broker-a's slave mid-run and leave it down"),
    /** broker-a recovers from its abort file; acknowledged messages were on its slave and in the page cache. */
    KILL_MASTER("kill-master", "kill -9 master broker-a mid-run, restart it 3 s later"),
    /** All five JVMs stopped after the load and started again on the same stores before the read-back. */
    RESTART_CLUSTER("restart-cluster", "stop the whole cluster after the load and start it again before reading back");

    public static final Duration COUNT_RUN_DELAY = Duration.ofSeconds(5);
    // keep in step with KILL_MASTER's description
    static final Duration MASTER_DOWN = Duration.ofSeconds(3);
    static final String VICTIM_SLAVE = "broker-a-s";
    static final String VICTIM_MASTER = "broker-a";

    private final String option;
    private final String description;

    FaultScenario(String option, String description) {
        this.option = option;
        this.description = description;
    }

    public String option() {
        return option;
    }

    public String description() {
        return description;
    }

    public boolean midRun() {
        return this == KILL_SLAVE || this == KILL_MASTER;
    }

    public static FaultScenario parse(String text) {
        return Arrays.stream(values()).filter(f -> f.option.equals(text.toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new UsageException("--fault must be one of "
                        + Arrays.stream(values()).map(FaultScenario::option).toList() + ", got '" + text + "'"));
    }

    /** Fires the mid-run fault on {@code cluster}; called from a timer thread while the load runs. */
    public void inject(LocalCluster cluster) {
        switch (this) {
            case KILL_SLAVE -> cluster.killNode(VICTIM_SLAVE);
            case KILL_MASTER -> {
                cluster.killNode(VICTIM_MASTER);
                try {
                    Thread.sleep(MASTER_DOWN.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                cluster.restartNode(VICTIM_MASTER, Duration.ofMinutes(2));
            }
            default -> {
            }
        }
    }
}
