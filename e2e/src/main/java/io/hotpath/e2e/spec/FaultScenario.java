package io.hotpath.e2e.spec;

import io.hotpath.e2e.UsageException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

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
    /**
     * As kill-slave, but the slave is started again {@link #SLAVE_DOWN} later and catches up from its own store while the
     * load goes on: the sends its master completes on the restarted slave's acknowledgements must all be read back.
     */
    KILL_SLAVE_RESTART("kill-slave-restart", "kill -9 broker-a's slave mid-run, restart it 3 s later"),
    /** broker-a recovers from its abort file; acknowledged messages were on its slave and in the page cache. */
    KILL_MASTER("kill-master", "kill -9 master broker-a mid-run, restart it 3 s later"),
    /** All five JVMs stopped after the load and started again on the same stores before the read-back. */
    RESTART_CLUSTER("restart-cluster", "stop the whole cluster after the load and start it again before reading back");

    /**
     * A failed send a scenario expects: a {@code SendLedger} reason it matches, and why the fault causes it. Reasons are
     * those of every client the smoke sends with (4.9.0, 4.9.8, 5.3.3: a 5.x client puts a client error code on its
     * MQClientException and retries what 4.9.x throws at once).
     */
    public record ExpectedFailure(Pattern reason, String why) {

        boolean matches(String failure) {
            return reason.matcher(failure).matches();
        }
    }

    /** A broker's SYSTEM_BUSY answer (code 2), alone or as the cause the client gave up on: the two faults that expect it. */
    private static final Pattern SYSTEM_BUSY = Pattern.compile("(MQClientException( code \\d+)? caused by )?MQBrokerException code 2");
    /** The master answers a send it stored but its slave did not confirm: 4.9.x at once when no slave is connected. */
    private static final ExpectedFailure SLAVE_NOT_AVAILABLE = new ExpectedFailure(Pattern.compile("status SLAVE_NOT_AVAILABLE"),
            "a 4.9.x SYNC_MASTER without a connected slave answers SLAVE_NOT_AVAILABLE at once");
    /** 5.x waits {@code slaveTimeout} (3 s) for the replica and then answers FLUSH_SLAVE_TIMEOUT, when the client still waits. */
    private static final ExpectedFailure FLUSH_SLAVE_TIMEOUT = new ExpectedFailure(Pattern.compile("status FLUSH_SLAVE_TIMEOUT"),
            "a 5.x SYNC_MASTER waits slaveTimeout (3 s) for the missing replica and answers FLUSH_SLAVE_TIMEOUT");
    /**
     * The client's own 3 s send timeout (rocketmq-client's "sendDefaultImpl call timeout", alone or, from a transactional
     * send, as the cause of "send message Exception"; or the attempt's RemotingTimeoutException, as the cause of "Send [N]
     * times, still failed" with client code 10002, seen in campaign --ci on 5.3.3; or that code-10002 exception itself as
     * the cause of a transactional send's "send message Exception", seen from the 4.9.0 relay client in campaign --ci's
     * kill-slave round on 5.3.3, 2026-11-28): a 5.x master's 3 s wait for the replica ends about when the client
     * gives up, and 4.9.x keeps sends in flight at the kill waiting syncFlushTimeout (5 s) for acks that never come.
     * Code 10002 is rocketmq-client's ACCESS_BROKER_TIMEOUT, which it sets only when the last attempt timed out.
     */
    private static final ExpectedFailure CLIENT_CALL_TIMEOUT = new ExpectedFailure(Pattern.compile("(MQClientException( code \\d+)? caused by )?"
            + "(RemotingTooMuchRequestException call timeout|RemotingTimeoutException|MQClientException code 10002)"),
            "the client's 3 s send timeout ran out while the master waited for its slave");
    /**
     * 5.x only, while its slave is gone: every send to broker-a holds its answer for {@code slaveTimeout} (3 s), the send
     * requests behind them wait in the broker's queue, and one that waited longer than {@code waitTimeMillsInSendQueue}
     * is answered SYSTEM_BUSY (code 2) by the broker's queue cleaner. Seen once in 3600 sends of campaign --ci's kill-slave
     * round on 5.3.3 on a quiet machine (2026-11-26). Named here so that flow control stays unexpected everywhere else.
     */
    private static final ExpectedFailure QUEUED_BEHIND_MISSING_SLAVE = new ExpectedFailure(
            SYSTEM_BUSY,
            "a 5.x SYNC_MASTER holds each send 3 s for the missing replica; a send queued behind them longer than"
                + " waitTimeMillsInSendQueue is answered SYSTEM_BUSY");
    /**
     * 5.x, kill-master: while broker-a is down its share of the load goes to broker-b, and the restarted broker-a takes
     * its own back on a cold JVM while it recovers and its slave catches up, on the same two cores; a send that waited
     * in a master's send queue longer than {@code waitTimeMillsInSendQueue} (200 ms) is answered SYSTEM_BUSY (code 2) by
     * the broker's queue cleaner. Seen once in ~3600 sends of campaign --ci's kill-master round on 5.3.3 (patched arm,
     * CI's machine, 2026-11-28; the stock arm of the same run had none). Named here, like
     * {@link #QUEUED_BEHIND_MISSING_SLAVE}, so that flow control stays unexpected without a fault.
     */
    private static final ExpectedFailure SHED_WHILE_MASTER_RECOVERS = new ExpectedFailure(
            SYSTEM_BUSY,
            "broker-b carries the killed master's share and the restarted broker-a takes its own back on a cold JVM;"
                + " a send queued longer than waitTimeMillsInSendQueue is answered SYSTEM_BUSY");
    /**
     * Sends to a master that is down or restarting: no connection, the request not written, or no answer; from a
     * transactional send, the client's CONNECT_BROKER_EXCEPTION (10001) or ACCESS_BROKER_TIMEOUT (10002) exception as the
     * cause (the wrap {@link #CLIENT_CALL_TIMEOUT} describes).
     */
    private static final ExpectedFailure MASTER_UNREACHABLE = new ExpectedFailure(Pattern.compile("(MQClientException( code \\d+)? caused by )?"
            + "(RemotingConnectException|RemotingSendRequestException|RemotingTimeoutException|MQClientException code 1000[12])"),
            "the killed master could not be reached, or closed the connection with the send in flight");

    public static final Duration COUNT_RUN_DELAY = Duration.ofSeconds(5);
    // keep in step with KILL_MASTER's description
    public static final Duration MASTER_DOWN = Duration.ofSeconds(3);
    // keep in step with KILL_SLAVE_RESTART's description
    public static final Duration SLAVE_DOWN = Duration.ofSeconds(3);
    public static final String VICTIM_SLAVE = "broker-a-s";
    public static final String VICTIM_MASTER = "broker-a";

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
        return this == KILL_SLAVE || this == KILL_SLAVE_RESTART || this == KILL_MASTER;
    }

    /**
     * The failed sends this scenario expects on a broker of {@code release}; empty for a run without a fault and for
     * restart-cluster (the cluster stops after the last send). Flow control (SYSTEM_BUSY, code 2) is among them only
     * where the fault itself queues sends (kill-slave and kill-master on 5.x); elsewhere a rejection says the load was
     * more than the cluster holds.
     */
    public List<ExpectedFailure> expectedFailures(String release) {
        boolean v4 = release.startsWith("4.");
        return switch (this) {
            case NONE, RESTART_CLUSTER -> List.of();
            // kill-slave: broker-a stays without its slave until the run ends, and the extra sends after the load meet it
            // too; kill-slave-restart: until the slave is back and has caught up
            case KILL_SLAVE, KILL_SLAVE_RESTART -> v4 ? List.of(SLAVE_NOT_AVAILABLE, CLIENT_CALL_TIMEOUT)
                    : List.of(FLUSH_SLAVE_TIMEOUT, CLIENT_CALL_TIMEOUT, QUEUED_BEHIND_MISSING_SLAVE);
            // down for MASTER_DOWN, then restarted without its slave until the slave reconnects
            case KILL_MASTER -> v4 ? List.of(MASTER_UNREACHABLE, CLIENT_CALL_TIMEOUT, SLAVE_NOT_AVAILABLE)
                    : List.of(MASTER_UNREACHABLE, CLIENT_CALL_TIMEOUT, FLUSH_SLAVE_TIMEOUT, SHED_WHILE_MASTER_RECOVERS);
        };
    }

    /** Why this scenario on {@code release} expects a send to fail for {@code reason}, or empty when it does not. */
    public Optional<ExpectedFailure> expectation(String reason, String release) {
        return expectedFailures(release).stream().filter(e -> e.matches(reason)).findFirst();
    }

    public static FaultScenario parse(String text) {
        return Arrays.stream(values()).filter(f -> f.option.equals(text.toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new UsageException("--fault must be one of "
                        + Arrays.stream(values()).map(FaultScenario::option).toList() + ", got '" + text + "'"));
    }
}
