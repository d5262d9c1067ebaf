package io.hotpath.e2e.check;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.ClientLogging;
import io.hotpath.e2e.load.CompatSends;
import io.hotpath.e2e.load.LedgerFile;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
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
}
