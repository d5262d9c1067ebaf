package io.hotpath.e2e.load;

import io.hotpath.e2e.ClusterException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The send shapes the measured load does not use, so that the patched broker's other send-header
 * paths also carry real traffic: single messages with V1 headers (SEND_MESSAGE, code 10) and one
 * batch (SEND_BATCH_MESSAGE, code 320). Sent after the measured load window to a topic of their own,
 * so that no load metric (TPS, RT, CPU, allocation, CommitLog bytes per message of the smoke topic)
 * sees them; read back and audited like the load (zero loss, intact body and properties).
 *
 * <p>V1 headers: a 4.9.0 client sends them when {@code org.apache.rocketmq.client.sendSmartMsg=false},
 * a system property {@code MQClientAPIImpl} reads once, into a private static, when the class is
 * initialised, which the load producer has done long before. So for the V1 phase that static is set to
 * false (and restored afterwards) while no other producer of this JVM sends, and an {@link RPCHook}
 * on this producer records the code of every request it puts on the wire: the phase fails unless
 * every send request was code 10 (and the batch code 320), so the V1 path provably ran.
 */
public final class CompatSends {

    public static final String TOPIC = "hotpath_smoke_compat";
    public static final int QUEUES_PER_MASTER = 2;
    public static final int V1_MESSAGES = 40;
    public static final int BATCH_MESSAGES = 16;

    private CompatSends() {
    }

    /** What was sent (the ledger, for the audit) and the request codes seen on the wire per phase. */
    public record Sent(SeededMessages messages, SendLedger ledger, Map<Integer, Integer> v1PhaseCodes, Map<Integer, Integer> batchPhaseCodes) {

        /** Problems with the wire codes; empty if the V1 phase sent only code 10 and the batch phase only code 320. */
        public List<String> codeProblems() {
            List<String> problems = new ArrayList<>();
            if (!v1PhaseCodes.keySet().equals(java.util.Set.of(RequestCode.SEND_MESSAGE))
                || v1PhaseCodes.get(RequestCode.SEND_MESSAGE) < V1_MESSAGES) {
                problems.add("V1 phase: expected >= " + V1_MESSAGES + " requests with code " + RequestCode.SEND_MESSAGE
                    + " (SEND_MESSAGE) and no other send code, saw " + v1PhaseCodes);
            }
            if (!batchPhaseCodes.keySet().equals(java.util.Set.of(RequestCode.SEND_BATCH_MESSAGE))) {
                problems.add("batch phase: expected only code " + RequestCode.SEND_BATCH_MESSAGE + " (SEND_BATCH_MESSAGE), saw "
                    + batchPhaseCodes);
            }
            return problems;
        }
    }

    public static Sent send(String namesrvAddress, String runId, int bodySize) {
        SeededMessages messages = new SeededMessages(TOPIC, runId, bodySize);
        SendLedger ledger = new SendLedger(V1_MESSAGES + BATCH_MESSAGES);
        CodeRecorder codes = new CodeRecorder();
        DefaultMQProducer producer = new DefaultMQProducer("hotpath_compat_producer", codes);
        producer.setNamesrvAddr(namesrvAddress);
        producer.setInstanceName("hotpath-compat-" + runId);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        try {
            producer.start();
        } catch (MQClientException e) {
            throw new ClusterException("cannot start the compat producer: " + e.getMessage(), e);
        }
        try {
            Map<Integer, Integer> v1Codes;
            boolean previous = sendSmartMsg(false);
            try {
                codes.reset();
                for (int seq = 0; seq < V1_MESSAGES; seq++) {
                    sendOne(producer, messages, ledger, seq);
                }
                v1Codes = codes.reset();
            } finally {
                sendSmartMsg(previous);
            }
            List<Message> batch = new ArrayList<>();
            for (int seq = V1_MESSAGES; seq < V1_MESSAGES + BATCH_MESSAGES; seq++) {
                batch.add(messages.build(seq));
            }
            long begin = System.nanoTime();
            try {
                recordBatch(ledger, producer.send(batch), V1_MESSAGES, BATCH_MESSAGES, System.nanoTime() - begin);
            } catch (Exception e) {
                for (int seq = V1_MESSAGES; seq < V1_MESSAGES + BATCH_MESSAGES; seq++) {
                    ledger.recordFailure(seq, e, System.nanoTime() - begin);
                }
            }
            return new Sent(messages, ledger, v1Codes, codes.reset());
        } finally {
            producer.shutdown();
        }
    }

    private static void sendOne(DefaultMQProducer producer, SeededMessages messages, SendLedger ledger, int seq) {
        long begin = System.nanoTime();
        try {
            ledger.recordResult(seq, producer.send(messages.build(seq)), System.nanoTime() - begin);
        } catch (Exception e) {
            ledger.recordFailure(seq, e, System.nanoTime() - begin);
        }
    }

    /**
     * A 4.9.x batch result: one status and queue, the first message's queue offset (the batch is stored
     * at consecutive offsets), and the messages' UNIQ_KEYs (and offset ids) joined by commas, in order.
     */
    public static void recordBatch(SendLedger ledger, SendResult result, int firstSeq, int count, long rtNanos) {
        String[] ids = result.getMsgId() == null ? new String[0] : result.getMsgId().split(",");
        String[] offsetIds = result.getOffsetMsgId() == null ? new String[0] : result.getOffsetMsgId().split(",");
        for (int i = 0; i < count; i++) {
            SendResult one = new SendResult(result.getSendStatus(), i < ids.length ? ids[i] : null,
                i < offsetIds.length ? offsetIds[i] : null, result.getMessageQueue(), result.getQueueOffset() + i);
            ledger.recordResult(firstSeq + i, one, rtNanos);
        }
    }

    /** Sets 4.9.0's {@code MQClientAPIImpl.sendSmartMsg} (see the class comment); returns the previous value. */
    static boolean sendSmartMsg(boolean value) {
        try {
            Field field = MQClientAPIImpl.class.getDeclaredField("sendSmartMsg");
            field.setAccessible(true);
            boolean previous = field.getBoolean(null);
            field.setBoolean(null, value);
            return previous;
        } catch (ReflectiveOperationException e) {
            throw new ClusterException("rocketmq-client has no MQClientAPIImpl.sendSmartMsg to switch to V1 headers: " + e, e);
        }
    }

    /** Counts the codes of the send requests this producer puts on the wire. */
    private static final class CodeRecorder implements RPCHook {
        private final Map<Integer, Integer> codes = new TreeMap<>();

        @Override
        public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
            int code = request.getCode();
            if (code == RequestCode.SEND_MESSAGE || code == RequestCode.SEND_MESSAGE_V2 || code == RequestCode.SEND_BATCH_MESSAGE
                || code == RequestCode.SEND_REPLY_MESSAGE || code == RequestCode.SEND_REPLY_MESSAGE_V2) {
                synchronized (codes) {
                    codes.merge(code, 1, Integer::sum);
                }
            }
        }

        @Override
        public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
        }

        Map<Integer, Integer> reset() {
            synchronized (codes) {
                Map<Integer, Integer> seen = new TreeMap<>(codes);
                codes.clear();
                return seen;
            }
        }
    }
}
