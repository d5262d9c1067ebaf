package io.hotpath.e2e.load;

import io.hotpath.e2e.ClusterException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientExt;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Consumer send-back on a running cluster, so that the broker's send-back site
 * ({@code SendMessageProcessor#asyncConsumerSendMsgBack}) and the records it makes carry real traffic: a 4.9.0 pull
 * consumer of {@link #GROUP} takes {@link #RETRIED} + {@link #DEAD} stored messages of a topic and sends them back,
 * {@link #RETRIED} with delay level 1 (parked in SCHEDULE_TOPIC_XXXX, re-put into {@link #RETRY_TOPIC} after 1 s) and
 * {@link #DEAD} with delay level -1 (straight into {@link #DLQ_TOPIC}, which the broker creates write-only). The retries
 * are then read back: each must arrive once, with the original body, its RETRY_TOPIC and ORIGIN_MESSAGE_ID. The DLQ
 * record is counted in the CommitLog scan ({@code PersistedPropertiesCheck}), where every record of both topics must be
 * WAIT-free on a distribution with patch 0003 (stock 4.9.x stores {@code WAIT\1false} there).
 */
public final class ConsumerSendBacks {

    public static final String GROUP = "hotpath_smoke_sendback";
    public static final String RETRY_TOPIC = MixAll.getRetryTopic(GROUP);
    public static final String DLQ_TOPIC = MixAll.getDLQTopic(GROUP);
    public static final int RETRIED = 3;
    public static final int DEAD = 1;
    /** Delay level 1 of the default {@code messageDelayLevel}: 1 s. */
    static final int RETRY_DELAY_LEVEL = 1;
    /** A negative delay level sends the message to the group's DLQ at once (4.9.x broker). */
    static final int DLQ_DELAY_LEVEL = -1;
    private static final Duration READ_BACK_WAIT = Duration.ofSeconds(30);

    private ConsumerSendBacks() {
    }

    /** What was sent back, what came back in the retry topic intact, and what did not (empty when all is well). */
    public record Result(int toRetry, int toDlq, int retriesReadBack, List<String> problems) {

        public String line() {
            return String.format("%d sent back to %s (delay level %d), %d to %s; retries read back %d of %d%s", toRetry, RETRY_TOPIC,
                RETRY_DELAY_LEVEL, toDlq, DLQ_TOPIC, retriesReadBack, toRetry, problems.isEmpty() ? "" : "; PROBLEMS: " + problems);
        }
    }

    /** Sends back messages stored in {@code fromTopic}, then reads the retries back. */
    public static Result run(String namesrvAddress, String runId, String fromTopic) throws InterruptedException {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(GROUP);
        consumer.setNamesrvAddr(namesrvAddress);
        consumer.setInstanceName("hotpath-sendback-" + runId);
        try {
            consumer.start();
        } catch (MQClientException e) {
            throw new ClusterException("cannot start the send-back consumer: " + e.getMessage(), e);
        }
        try {
            List<MessageExt> taken = take(consumer, fromTopic, RETRIED + DEAD);
            // the offset message ids, which the broker stores as ORIGIN_MESSAGE_ID (it looks the message up by its
            // CommitLog offset), and the bodies to compare
            Map<String, byte[]> retried = new HashMap<>();
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < taken.size(); i++) {
                MessageExt message = taken.get(i);
                boolean dead = i >= RETRIED;
                if (!dead) {
                    retried.put(offsetMsgId(message), message.getBody());
                }
                try {
                    consumer.sendMessageBack(message, dead ? DLQ_DELAY_LEVEL : RETRY_DELAY_LEVEL, message.getBrokerName());
                } catch (Exception e) {
                    // the client would fall back to sending a new message itself: that is not the broker's send-back
                    problems.add("send-back of " + message.getMsgId() + " failed: " + e);
                }
            }
            int readBack = readRetries(consumer, fromTopic, retried, problems);
            return new Result(Math.min(taken.size(), RETRIED), Math.max(0, taken.size() - RETRIED), readBack, problems);
        } finally {
            consumer.shutdown();
        }
    }

    /** The first {@code count} messages of {@code topic}, queue by queue from offset 0. */
    private static List<MessageExt> take(DefaultMQPullConsumer consumer, String topic, int count) {
        List<MessageExt> taken = new ArrayList<>();
        try {
            for (MessageQueue queue : sorted(consumer.fetchSubscribeMessageQueues(topic))) {
                PullResult result = consumer.pull(queue, "*", 0, count - taken.size());
                if (result.getPullStatus() == PullStatus.FOUND) {
                    for (MessageExt message : result.getMsgFoundList()) {
                        message.setBrokerName(queue.getBrokerName());
                        taken.add(message);
                    }
                }
                if (taken.size() >= count) {
                    return taken;
                }
            }
        } catch (Exception e) {
            throw new ClusterException("cannot read " + topic + " for the send-back: " + e.getMessage(), e);
        }
        throw new ClusterException("only " + taken.size() + " stored messages of " + topic + " to send back, wanted " + count);
    }

    /**
     * Reads {@link #RETRY_TOPIC} until every retried message came back (at most {@link #READ_BACK_WAIT}: the broker
     * creates the topic and registers its route with the send-back, and re-puts after the 1 s delay). Returns how many
     * came back intact; adds a problem for each one missing, duplicated or changed.
     */
    private static int readRetries(DefaultMQPullConsumer consumer, String fromTopic, Map<String, byte[]> retried, List<String> problems)
            throws InterruptedException {
        Map<String, Integer> seen = new HashMap<>();
        long deadline = System.nanoTime() + READ_BACK_WAIT.toNanos();
        List<String> changed = new ArrayList<>();
        boolean allBack;
        do {
            seen.clear();
            changed.clear();
            try {
                for (MessageQueue queue : consumer.fetchSubscribeMessageQueues(RETRY_TOPIC)) {
                    for (MessageExt message : pullAll(consumer, queue)) {
                        String origin = MessageAccessor.getOriginMessageId(message);
                        seen.merge(origin == null ? "(no ORIGIN_MESSAGE_ID) " + message.getMsgId() : origin, 1, Integer::sum);
                        byte[] body = retried.get(origin);
                        if (body != null && (!Arrays.equals(body, message.getBody())
                                || !fromTopic.equals(message.getProperty(MessageConst.PROPERTY_RETRY_TOPIC)))) {
                            changed.add(origin);
                        }
                    }
                }
            } catch (MQClientException e) {
                // no route to the retry topic yet: the broker registers it with the send-back
            } catch (Exception e) {
                throw new ClusterException("cannot read " + RETRY_TOPIC + ": " + e.getMessage(), e);
            }
            allBack = seen.keySet().containsAll(retried.keySet());
            if (!allBack) {
                Thread.sleep(200);
            }
        } while (!allBack && System.nanoTime() < deadline);
        int intact = 0;
        for (String id : retried.keySet()) {
            int times = seen.getOrDefault(id, 0);
            if (times != 1) {
                problems.add(id + " came back " + times + " times in " + RETRY_TOPIC);
            } else if (changed.contains(id)) {
                problems.add(id + " came back with another body or RETRY_TOPIC");
            } else {
                intact++;
            }
        }
        Set<String> unexpected = new HashSet<>(seen.keySet());
        unexpected.removeAll(retried.keySet());
        if (!unexpected.isEmpty()) {
            problems.add("messages in " + RETRY_TOPIC + " that were not sent back: " + unexpected);
        }
        return intact;
    }

    private static List<MessageExt> pullAll(DefaultMQPullConsumer consumer, MessageQueue queue) throws Exception {
        List<MessageExt> all = new ArrayList<>();
        long offset = 0;
        while (true) {
            PullResult result = consumer.pull(queue, "*", offset, 32);
            if (result.getPullStatus() != PullStatus.FOUND) {
                return all;
            }
            all.addAll(result.getMsgFoundList());
            offset = result.getNextBeginOffset();
        }
    }

    /** What a 4.9.x client calls the offset message id (store host + CommitLog offset); a pulled message is a MessageClientExt. */
    private static String offsetMsgId(MessageExt message) {
        return message instanceof MessageClientExt ? ((MessageClientExt) message).getOffsetMsgId() : message.getMsgId();
    }

    private static List<MessageQueue> sorted(Collection<MessageQueue> queues) {
        List<MessageQueue> list = new ArrayList<>(queues);
        list.sort(null);
        return list;
    }
}
