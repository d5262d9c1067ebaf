package io.hotpath.e2e.audit;

import io.hotpath.e2e.Console;
import io.hotpath.e2e.cli.ClientLogging;
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
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.message.Message;

/**
 * The child JVM of {@link NewerClientCheck}: rocketmq-client 4.9.8 (compiled against it, and nothing of
 * 4.9.0 on the classpath) produces to and consumes from the patched cluster. Arguments: name server
 * address (127.0.0.1:port), run id, body size, the directory to write into. Writes {@code sent.tsv}
 * (its ledger, {@link LedgerFile}) and {@code result.txt} (the client version and both read-backs);
 * exit 0 when it ran to the end, whatever the verdict: the controller judges.
 */
public final class Client498Check {

    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(1);

    private Client498Check() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: Client498Check <namesrv host:port> <run id> <body bytes> <dir> <tolerate batch defect: true|false>");
            System.exit(2);
        }
        String namesrv = args[0];
        String runId = args[1];
        int bodySize = Integer.parseInt(args[2]);
        Path dir = Path.of(args[3]);
        boolean toleratesBatchDefect = Boolean.parseBoolean(args[4]);
        ClientLogging.logTo(dir.resolve("logs"));
        String version = MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION);
        Console.progress("rocketmq-client %s, name server %s", version, namesrv);

        SeededMessages messages = new SeededMessages(NewerClientCheck.TOPIC, runId, bodySize);
        SendLedger ledger = send(namesrv, runId, messages);
        LedgerFile.write(ledger, dir.resolve(NewerClientCheck.SENT_FILE));
        Console.progress("sent %d single messages and a batch of %d: acked %d, not OK %d, failed %d", NewerClientCheck.SINGLE_MESSAGES,
            NewerClientCheck.BATCH_MESSAGES, ledger.acked(), ledger.notOk(), ledger.failed());

        DeliveryAudit.DeliveryReport own = new Verifier(namesrv, VERIFY_TIMEOUT).verify(messages, ledger, NewerClientCheck.batchDefect(messages, toleratesBatchDefect));
        Console.progress("read back %s: %s", NewerClientCheck.TOPIC, own.line());
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

    private static SendLedger send(String namesrv, String runId, SeededMessages messages) throws MQClientException {
        int singles = NewerClientCheck.SINGLE_MESSAGES;
        int batchSize = NewerClientCheck.BATCH_MESSAGES;
        SendLedger ledger = new SendLedger(singles + batchSize);
        DefaultMQProducer producer = new DefaultMQProducer("hotpath_client498_producer");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("hotpath-498-" + runId);
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
