package io.hotpath.e2e.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * A {@link SendLedger} as a tab-separated file, so that the sends of one JVM can be audited by
 * another: the smoke's controller (rocketmq-client 4.9.0) reads back what the 4.9.8 child JVM
 * acknowledged, and the child reads back what the controller's compat sends acknowledged. One line
 * per sequence number that was handed to the producer: {@code seq outcome [topic broker queueId
 * queueOffset msgId]}, the position only where the broker answered; then one line per reason a send failed
 * for ({@link SendLedger#failuresByReason()}): {@code failures reason count}, so that the other JVM's verdict
 * can tell expected failures from unexpected ones.
 */
public final class LedgerFile {

    private static final String HEADER = "# seq\toutcome\ttopic\tbroker\tqueueId\tqueueOffset\tmsgId";

    private static final String FAILURES = "failures";

    private LedgerFile() {
    }

    public static void write(SendLedger ledger, Path file) throws IOException {
        StringBuilder out = new StringBuilder(HEADER).append("\nsize\t").append(ledger.size()).append('\n');
        for (int seq = 0; seq < ledger.size(); seq++) {
            SendLedger.Outcome outcome = ledger.outcome(seq);
            if (outcome == SendLedger.Outcome.NOT_SENT) {
                continue;
            }
            out.append(seq).append('\t').append(outcome);
            MessageQueue q = ledger.queue(seq);
            if (q != null) {
                out.append('\t').append(q.getTopic()).append('\t').append(q.getBrokerName()).append('\t').append(q.getQueueId())
                    .append('\t').append(ledger.queueOffset(seq)).append('\t').append(ledger.msgId(seq));
            }
            out.append('\n');
        }
        ledger.failuresByReason().forEach((reason, count) -> out.append(FAILURES).append('\t').append(reason.replace('\t', ' '))
            .append('\t').append(count).append('\n'));
        Files.writeString(file, out, StandardCharsets.UTF_8);
    }

    public static SendLedger read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        SendLedger ledger = null;
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f[0].equals("size")) {
                ledger = new SendLedger(Integer.parseInt(f[1]));
                continue;
            }
            if (ledger == null) {
                throw new IOException(file + ": a result before the size line: " + line);
            }
            if (f[0].equals(FAILURES)) {
                ledger.restoreFailures(f[1], Long.parseLong(f[2]));
                continue;
            }
            SendLedger.Outcome outcome = SendLedger.Outcome.valueOf(f[1]);
            if (f.length >= 7) {
                ledger.restore(Integer.parseInt(f[0]), outcome, new MessageQueue(f[2], f[3], Integer.parseInt(f[4])),
                    Long.parseLong(f[5]), f[6]);
            } else {
                ledger.restore(Integer.parseInt(f[0]), outcome, null, -1, null);
            }
        }
        if (ledger == null) {
            throw new IOException(file + " has no size line");
        }
        return ledger;
    }
}
