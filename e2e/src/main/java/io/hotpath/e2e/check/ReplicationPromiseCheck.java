package io.hotpath.e2e.check;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.node.ClusterNetwork;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.spec.ClusterLayout;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.FaultScenario;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * What a SYNC_MASTER's SEND_OK promises, checked with its slave frozen: {@link FaultScenario#VICTIM_SLAVE} gets SIGSTOP, so
 * its JVM keeps its connection open but receives and acknowledges nothing, and every send to that master's queue from
 * then on must be answered by the master with its refusal: FLUSH_SLAVE_TIMEOUT once its wait for the slave ran out
 * ({@link ReplicationWait}), or SLAVE_NOT_AVAILABLE from a 4.9.x master that dropped the silent slave's connection
 * (haHousekeepingInterval, 20 s). A message sent after the freeze cannot be on the slave, so one SEND_OK breaks the
 * promise; and a send the client gave up on proves nothing either way, so the client waits longer than the master
 * (the effective wait of the master's written configuration plus a margin) and a client timeout fails the check. The
 * controls run on the same producer and queue: a SEND_OK before the freeze, and again after SIGCONT, so a check that saw
 * none while frozen could have seen one.
 *
 * <p>Knobs and levers that move work between threads (the tuned configuration's codec switch) must keep the promise:
 * {@code campaign --ci} runs this on stock and on patched with the line's tuned configuration (as it is where the line
 * ships none).
 */
public final class ReplicationPromiseCheck {

    static final String TOPIC = "hotpath_promise";
    static final String SEND_OK = "SEND_OK";
    static final String FLUSH_SLAVE_TIMEOUT = "FLUSH_SLAVE_TIMEOUT";
    /** The master's answers that say it could not replicate: what every send while the slave is frozen must get. */
    static final Set<String> REFUSALS = Set.of(FLUSH_SLAVE_TIMEOUT, "SLAVE_NOT_AVAILABLE");
    /** Sends while the slave is frozen: {@link #SENDERS} threads, each one after the other. */
    static final int FROZEN_SENDS = 8;
    static final int SENDERS = 4;
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration TOPIC_TIMEOUT = Duration.ofMinutes(1);
    /** How long the resumed slave may take to catch up before a send to its master is acknowledged again. */
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration BEFORE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(200);
    private static final Duration MARGIN_FOR_THREADS = Duration.ofSeconds(10);

    private ReplicationPromiseCheck() {
    }

    /**
     * The answers to each phase's sends ({@link #SEND_OK}, another send status, or the client's exception as
     * {@link SendLedger#reason}), in the order they came.
     */
    public record Report(String label, ReplicationWait masterWait, List<String> before, List<String> whileFrozen,
                         List<String> afterResume, double resumeSeconds) {

        public Report {
            before = List.copyOf(before);
            whileFrozen = List.copyOf(whileFrozen);
            afterResume = List.copyOf(afterResume);
        }

        /** Why the check failed; empty when the promise held and both controls saw SEND_OK. */
        public List<String> problems() {
            List<String> problems = new ArrayList<>();
            if (!endsWithSendOk(before)) {
                problems.add("control: no SEND_OK before the slave was frozen " + counts(before) + ", so the check could not tell");
            }
            long acknowledged = whileFrozen.stream().filter(SEND_OK::equals).count();
            if (acknowledged > 0) {
                problems.add(acknowledged + " of " + whileFrozen.size() + " sends answered SEND_OK while the slave was frozen:"
                        + " the master acknowledged messages its slave could not have");
            }
            List<String> unobserved = whileFrozen.stream().filter(a -> !SEND_OK.equals(a) && !REFUSALS.contains(a)).toList();
            if (!unobserved.isEmpty()) {
                problems.add(unobserved.size() + " of " + whileFrozen.size() + " sends while the slave was frozen got no refusal"
                        + " from the master within the client's " + clientTimeout().toSeconds() + " s " + counts(unobserved)
                        + ": what the master answered was not observed");
            }
            if (!whileFrozen.isEmpty() && !whileFrozen.contains(FLUSH_SLAVE_TIMEOUT)) {
                problems.add("no send while the slave was frozen was answered " + FLUSH_SLAVE_TIMEOUT + " " + counts(whileFrozen)
                        + ": the master never waited for the frozen slave, so its connected slave was not tested");
            }
            if (whileFrozen.size() != FROZEN_SENDS) {
                problems.add(whileFrozen.size() + " sends while the slave was frozen, expected " + FROZEN_SENDS);
            }
            if (!endsWithSendOk(afterResume)) {
                problems.add("control: no SEND_OK within " + RESUME_TIMEOUT.toSeconds() + " s after the slave resumed "
                        + counts(afterResume));
            }
            return problems;
        }

        public boolean passed() {
            return problems().isEmpty();
        }

        /** One line: what each phase was answered, and the verdict. */
        public String line() {
            return String.format(Locale.ROOT, "%-13s before: %s; slave frozen (master waits %s, client %d s): %d sends, %d SEND_OK %s;"
                    + " resumed: %s -> %s", label, counts(before), masterWait.describe(), clientTimeout().toSeconds(),
                    whileFrozen.size(), whileFrozen.stream().filter(SEND_OK::equals).count(), counts(whileFrozen),
                    endsWithSendOk(afterResume) ? String.format(Locale.ROOT, "SEND_OK after %.1f s", resumeSeconds) : counts(afterResume),
                    passed() ? "PASS" : "FAIL");
        }

        /** How long each send waited for its answer. */
        public Duration clientTimeout() {
            return masterWait.clientTimeout(SENDERS);
        }

        private static boolean endsWithSendOk(List<String> answers) {
            return !answers.isEmpty() && SEND_OK.equals(answers.get(answers.size() - 1));
        }

        private static String counts(List<String> answers) {
            Map<String, Long> byAnswer = answers.stream().collect(Collectors.groupingBy(Function.identity(), TreeMap::new,
                    Collectors.counting()));
            return byAnswer.toString();
        }
    }

    /** Boots {@code distribution}'s cluster in {@code runDir}, runs the check on it, and stops it. */
    public static Report run(String label, Distribution distribution, ClusterNetwork network, Path runDir)
            throws InterruptedException {
        // the pair the fault scenarios use: the slave kill-slave kills, and its master
        ClusterLayout layout = network.layout();
        ClusterLayout.Node master = layout.brokers().stream().filter(n -> n.name().equals(FaultScenario.VICTIM_MASTER)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + FaultScenario.VICTIM_MASTER + " in " + layout.nodes()));
        try (LocalCluster cluster = new LocalCluster(distribution, network, runDir, List.of())) {
            cluster.start(BOOT_TIMEOUT);
            cluster.createTopic(TOPIC, 1, TOPIC_TIMEOUT);
            DefaultMQProducer producer = new DefaultMQProducer("hotpath_promise_producer");
            producer.setNamesrvAddr(cluster.namesrvAddress());
            producer.setInstanceName("hotpath-promise-" + runDir.getFileName());
            // the client outwaits the master, so that each send while the slave is frozen shows the master's own answer
            ReplicationWait wait = ReplicationWait.of(distribution.release(), cluster.config(master));
            Duration clientTimeout = wait.clientTimeout(SENDERS);
            producer.setSendMsgTimeout(Math.toIntExact(clientTimeout.toMillis()));
            try {
                producer.start();
            } catch (MQClientException e) {
                throw new ClusterException("cannot start the replication-promise producer: " + e.getMessage(), e);
            }
            try {
                MessageQueue queue = new MessageQueue(TOPIC, master.brokerName(), 0);
                // a new topic's route may reach the producer a moment after createTopic returns: retry until acknowledged
                List<String> before = sendUntilOk(producer, queue, "before", System.nanoTime() + BEFORE_TIMEOUT.toNanos());
                List<String> whileFrozen;
                cluster.freezeNode(FaultScenario.VICTIM_SLAVE, true);
                try {
                    whileFrozen = sendConcurrently(producer, queue, clientTimeout);
                } finally {
                    cluster.freezeNode(FaultScenario.VICTIM_SLAVE, false);
                }
                long resumed = System.nanoTime();
                List<String> afterResume = sendUntilOk(producer, queue, "after", resumed + RESUME_TIMEOUT.toNanos());
                Report report = new Report(label, wait, before, whileFrozen, afterResume, (System.nanoTime() - resumed) / 1e9);
                Console.progress("replication promise: %s", report.line());
                return report;
            } finally {
                producer.shutdown();
            }
        }
    }

    /** Sends one after the other until one is answered SEND_OK or {@code deadline} (System.nanoTime) passed; every answer. */
    private static List<String> sendUntilOk(DefaultMQProducer producer, MessageQueue queue, String key, long deadline)
            throws InterruptedException {
        List<String> answers = new ArrayList<>();
        int attempt = 0;
        while (answers.isEmpty() || !SEND_OK.equals(answers.get(answers.size() - 1))) {
            if (System.nanoTime() > deadline) {
                break;
            }
            if (attempt > 0) {
                Thread.sleep(RETRY_PAUSE.toMillis());
            }
            answers.add(send(producer, queue, key + "-" + attempt++));
        }
        return answers;
    }

    /** {@link #FROZEN_SENDS} sends from {@link #SENDERS} threads at once, so that group commit sees more than one waiting. */
    private static List<String> sendConcurrently(DefaultMQProducer producer, MessageQueue queue, Duration clientTimeout)
            throws InterruptedException {
        List<String> answers = Collections.synchronizedList(new ArrayList<>());
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int sender = s;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < FROZEN_SENDS / SENDERS; i++) {
                    answers.add(send(producer, queue, "frozen-" + sender + "-" + i));
                }
            }, "hotpath-promise-" + s);
            thread.setDaemon(true);
            senders.add(thread);
            thread.start();
        }
        // each thread's sends one after the other, each bounded by the client's timeout; a send still out after that is
        // missing from the answers, which the report counts
        long deadline = System.nanoTime() + clientTimeout.multipliedBy(FROZEN_SENDS / SENDERS).plus(MARGIN_FOR_THREADS).toNanos();
        for (Thread thread : senders) {
            thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        synchronized (answers) {
            return List.copyOf(answers);
        }
    }

    private static String send(DefaultMQProducer producer, MessageQueue queue, String key) {
        Message message = new Message(TOPIC, ("replication promise " + key).getBytes(StandardCharsets.UTF_8));
        message.setKeys(key);
        try {
            return producer.send(message, queue).getSendStatus().name();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return SendLedger.reason(e);
        } catch (Exception e) {
            // every other way a send can end is an answer that is not SEND_OK: the check records which
            return SendLedger.reason(e);
        }
    }
}
