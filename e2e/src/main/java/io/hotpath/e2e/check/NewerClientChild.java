package io.hotpath.e2e.check;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.ClientLogging;
import io.hotpath.e2e.load.CompatSends;
import io.hotpath.e2e.load.LedgerFile;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.node.LocalCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;

/**
 * The body of a {@link NewerClientCheck} child JVM, run by a client module's main class (e2e-client498's
 * {@code Client498Check}, e2e-client533's {@code Client533Check}) with that module's rocketmq-client on the classpath and
 * nothing of 4.9.0: it produces to and consumes from the cluster through the API every 4.9.x and 5.x remoting client has
 * ({@code DefaultMQProducer}, the pull consumer of {@link Verifier}). Arguments: name server address (127.0.0.1:port),
 * run id, body size, the directory to write into, whether the batch defect is tolerated. Writes {@code sent.tsv} (its
 * ledger, {@link LedgerFile}) and {@code result.txt} (the client version and both read-backs); exits 0 when it ran to the
 * end, whatever the verdict: the controller judges.
 */
public final class NewerClientChild {

    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(1);
    /** Sends to the probe topic that must be answered before the counted sends: 2 queues, one per master, round-robin. */
    static final int WARMUP_ANSWERS = 4;
    /**
     * At most this many warm-up sends: under kill-slave every send to broker-a runs out its 3 s timeout, and a warm-up
     * bounded by time only spent a minute there (CI rehearsal, 2026-11-28: 1 of 21 answered in 61.5 s).
     */
    static final int WARMUP_ATTEMPTS = 8;
    private static final Duration WARMUP_TIMEOUT = Duration.ofSeconds(30);

    private NewerClientChild() {
    }

    /** {@code version}: the module's own {@code MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION)}, read where it is compiled. */
    public static void main(NewerClientCheck.Client client, String version, String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: " + client.mainClass() + " <namesrv host:port> <run id> <body bytes> <dir> <tolerate batch defect: true|false>");
            System.exit(2);
        }
        String namesrv = args[0];
        String runId = args[1];
        int bodySize = Integer.parseInt(args[2]);
        Path dir = Path.of(args[3]);
        boolean toleratesBatchDefect = Boolean.parseBoolean(args[4]);
        ClientLogging.logTo(dir.resolve("logs"));
        Console.progress("rocketmq-client %s, name server %s", version, namesrv);

        SeededMessages messages = new SeededMessages(client.topic(), runId, bodySize);
        SendLedger ledger = send(client, namesrv, runId, messages);
        LedgerFile.write(ledger, dir.resolve(NewerClientCheck.SENT_FILE));
        Console.progress("sent %d single messages and a batch of %d: acked %d, not OK %d, failed %d", NewerClientCheck.SINGLE_MESSAGES,
            NewerClientCheck.BATCH_MESSAGES, ledger.acked(), ledger.notOk(), ledger.failed());

        DeliveryAudit.DeliveryReport own = new Verifier(namesrv, VERIFY_TIMEOUT).verify(messages, ledger,
            NewerClientCheck.batchDefect(client, messages, toleratesBatchDefect));
        Console.progress("read back %s: %s", client.topic(), own.line());
        // what the controller's 4.9.0 client sent with V1 headers and as a batch
        SendLedger compatLedger = LedgerFile.read(dir.resolve(NewerClientCheck.COMPAT_LEDGER_FILE));
        DeliveryAudit.DeliveryReport compat = new Verifier(namesrv, VERIFY_TIMEOUT)
            .verify(new SeededMessages(CompatSends.TOPIC, runId, bodySize), compatLedger);
        Console.progress("read back %s: %s", CompatSends.TOPIC, compat.line());

        String result = NewerClientCheck.section("version", version) + NewerClientCheck.section("own", own.toText())
            + NewerClientCheck.section("compat", compat.toText());
        Files.writeString(dir.resolve(NewerClientCheck.RESULT_FILE), result, StandardCharsets.UTF_8);
        // the client leaves non-daemon threads behind
        System.exit(0);
    }

    private static SendLedger send(NewerClientCheck.Client client, String namesrv, String runId, SeededMessages messages)
            throws MQClientException {
        int singles = NewerClientCheck.SINGLE_MESSAGES;
        int batchSize = NewerClientCheck.BATCH_MESSAGES;
        SendLedger ledger = new SendLedger(singles + batchSize);
        String name = client.release().replace(".", "");
        DefaultMQProducer producer = new DefaultMQProducer("hotpath_client" + name + "_producer");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("hotpath-" + name + "-" + runId);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.start();
        try {
            warmUp(producer);
            for (int seq = 0; seq < singles; seq++) {
                long begin = System.nanoTime();
                try {
                    ledger.recordResult(seq, producer.send(messages.build(seq)), System.nanoTime() - begin);
                } catch (Exception e) {
                    ledger.recordFailure(seq, e, System.nanoTime() - begin);
                }
            }
            List<Message> batch = new ArrayList<>();
            for (int seq = singles; seq < singles + batchSize; seq++) {
                batch.add(messages.build(seq));
            }
            long begin = System.nanoTime();
            try {
                CompatSends.recordBatch(ledger, producer.send(batch), singles, batchSize, System.nanoTime() - begin);
            } catch (Exception e) {
                for (int seq = singles; seq < singles + batchSize; seq++) {
                    ledger.recordFailure(seq, e, System.nanoTime() - begin);
                }
            }
        } finally {
            producer.shutdown();
        }
        return ledger;
    }

    /**
     * A cold client JVM's first requests (class loading, the remoting codec, its first connections) can outlast the client's
     * 3 s timeouts while the cluster, the relay and another client JVM share this machine's 2 cores: the first one or two
     * counted sends failed that way, stock and patched alike (the route query to the name server timed out, or the first
     * send was stored but answered after the client had given up). So the child first sends to the cluster's probe topic,
     * uncounted, until {@value #WARMUP_ANSWERS} sends were answered (any status: under an injected fault a master may
     * answer non-OK), {@value #WARMUP_ATTEMPTS} were tried or {@link #WARMUP_TIMEOUT} passed. The counted sends keep
     * upstream's default timeouts, and every one of them that fails still fails the run.
     */
    private static void warmUp(DefaultMQProducer producer) {
        long start = System.nanoTime();
        long deadline = start + WARMUP_TIMEOUT.toNanos();
        int answered = 0;
        int attempts = 0;
        Exception last = null;
        while (answered < WARMUP_ANSWERS && attempts < WARMUP_ATTEMPTS && System.nanoTime() < deadline) {
            attempts++;
            try {
                producer.send(new Message(LocalCluster.WARMUP_TOPIC, "client warm-up".getBytes(StandardCharsets.UTF_8)));
                answered++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                last = e;
            }
        }
        Console.progress("warm-up on %s (not counted): %d of %d sends answered in %.1f s%s", LocalCluster.WARMUP_TOPIC, answered,
            attempts, (System.nanoTime() - start) / 1e9, last == null ? "" : "; last failure: " + last);
    }
}
