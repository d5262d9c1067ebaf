package io.hotpath.dist.store.probe;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.shared.Release;
import io.hotpath.dist.store.shared.StorePaths;
import io.hotpath.dist.store.shared.StoredRecord;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.topic.OffsetMovedEvent;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * Drives one release's real {@code DefaultMessageStore} through every persisting path of issue #4 item 3(b), in order,
 * and returns each stored CommitLog record with what the store's dispatch built from it.
 *
 * <p>What runs for real, and what is restated (the same calls, in the same order, on that release's own
 * {@code MessageExtBrokerInner}):
 * <ul>
 *   <li>store code, every release, real: {@code DefaultMessageStore#asyncPutMessage} / {@code #putMessage} /
 *       {@code #asyncPutMessages}, the CommitLog delay branch, the batch encoder, {@code ScheduleMessageService}'s
 *       re-put of due messages (started by {@code handleScheduleMessageService}), {@code lookMessageByOffset};</li>
 *   <li>the broker's sites, real in every release's loader ({@link LoadedBrokerSites}: a distribution's lib/, the stock
 *       4.9.0 jar, upstream's 4.9.8 broker compiled from Central's source release): consumer send-back
 *       ({@code SendMessageProcessor#asyncConsumerSendMsgBack}, which puts), the transaction sites
 *       ({@code TransactionalMessageBridge#parseHalfMessageInner}, {@code EndTransactionProcessor#endMessageTransaction}),
 *       the transaction check service's sites, the resume command, the op record and the offset-moved event. The
 *       callers' lines around them ({@code TransactionalMessageServiceImpl#needDiscard}'s TRANSACTION_CHECK_TIMES, the
 *       put of a renewed half) are restated here;</li>
 *   <li>restated for every release (they need a live {@code BrokerController} and channel, {@link ProcessorSites}): the
 *       normal send, the batch send and {@code EndTransactionProcessor#processRequest}'s calls around
 *       {@code endMessageTransaction}.</li>
 * </ul>
 */
public final class StoreSiteProbe implements StorePaths {

    public static final String TOPIC = "hotpath_cmp";
    public static final String BATCH_TOPIC = "hotpath_cmp_batch";
    public static final String TX_TOPIC = "hotpath_cmp_tx";
    public static final String GROUP = "hotpath_cmp_group";
    public static final String BROKER_NAME = "broker-a";
    /** Identical in both stores, so that only the store timestamp and offsets differ. */
    public static final long BORN_TIMESTAMP = 1_700_000_000_123L;
    static final InetSocketAddress BORN_HOST = new InetSocketAddress("127.0.0.1", 51234);
    static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);

    @Override
    public Map<String, StoredRecord> runAllPaths(Release release, String root, List<String> sends, List<String> batchInner,
        String batchOuter, String halfProperties) throws Exception {
        ProcessorSites processor = new ProcessorSites(release);
        try (ProbeStore probeStore = ProbeStore.start(root)) {
            DefaultMessageStore store = probeStore.store;
            Recorded out = new Recorded(probeStore);
            BrokerSites broker = BrokerSites.of(store);

            long plainSends = 0;
            long delayedSends = 0;
            long send0Offset = -1;
            for (int i = 0; i < sends.size(); i++) {
                MessageExtBrokerInner msg = processor.normalSend(TOPIC, sends.get(i), 0, "body " + i);
                long offset = out.put("send/" + i, store.asyncPutMessage(msg).get());
                if (i == 0) {
                    send0Offset = offset;
                }
                if (msg.getProperty(MessageConst.PROPERTY_DELAY_TIME_LEVEL) != null) {
                    delayedSends++;
                } else {
                    plainSends++;
                }
            }

            PutMessageResult batchResult = store.asyncPutMessages(processor.batchSend(BATCH_TOPIC, batchInner, batchOuter)).get();
            ProbeStore.requireOk("batch", batchResult);
            long offset = batchResult.getAppendMessageResult().getWroteOffset();
            for (int i = 0; i < batchResult.getAppendMessageResult().getMsgNum(); i++) {
                offset += out.read("batch/" + i, offset);
            }

            // consumer send-back of the stored send/0: to the retry topic at level 3 (0 + reconsumeTimes 0), which the
            // CommitLog turns into SCHEDULE_TOPIC_XXXX queue 2 (level - 1), and to the DLQ
            broker.consumerSendMsgBack(send0Offset, 0);
            out.await("sendback-retry", TopicValidator.RMQ_SYS_SCHEDULE_TOPIC, 2, 0);
            broker.consumerSendMsgBack(send0Offset, -1);
            out.await("sendback-dlq", MixAll.getDLQTopic(GROUP), 0, 0);

            // transaction: the half (normal send site, then parseHalfMessageInner) and its commit
            MessageExtBrokerInner prepared = processor.normalSend(TX_TOPIC, halfProperties,
                MessageSysFlag.TRANSACTION_PREPARED_TYPE, "tx body");
            long halfOffset = out.put("half", store.asyncPutMessage(broker.parseHalfMessageInner(prepared)).get());
            MessageExt half = store.lookMessageByOffset(halfOffset);
            MessageExtBrokerInner commit = broker.endMessageTransaction(half);
            ProcessorSites.commit(commit, half, halfOffset);
            out.put("commit", store.putMessage(commit));

            // the transaction check service's sites (TransactionalMessageServiceImpl#check), on the stored half
            // needDiscard (restated, both releases): the first check puts TRANSACTION_CHECK_TIMES=1 into the decoded map
            MessageExt checked = store.lookMessageByOffset(halfOffset);
            checked.putUserProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, "1");
            long renewedOffset = out.put("check-renew", store.putMessage(broker.renewHalfMessageInner(checked))); // putBackHalfMsgQueue
            checked = store.lookMessageByOffset(halfOffset);
            checked.putUserProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, "1");
            out.put("check-immunity", store.putMessage(broker.renewImmunityHalfMessageInner(checked))); // putImmunityMsgBackToHalfQueue
            // needDiscard of the renewed record with transactionCheckMax 1: its stored CHECK_TIMES=1 reaches the
            // maximum, the map is left as decoded, and the listener moves it to TRANS_CHECK_MAX_TIME_TOPIC
            broker.resolveDiscardMsg(store.lookMessageByOffset(renewedOffset));
            long discardOffset = out.await("check-discard", TopicValidator.RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC, 0);
            // the admin command that resumes a discarded message to the half topic
            broker.resumeCheckHalfMessage(discardOffset);
            out.await("resume", TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC, 3); // half, renew, immunity, resume
            // the op record of the commit (EndTransactionProcessor: deletePrepareMessage -> putOpMessage(half, "d"))
            broker.putOpMessage(store.lookMessageByOffset(halfOffset));
            out.await("op", TopicValidator.RMQ_SYS_TRANS_OP_HALF_TOPIC, 0);

            // PullMessageProcessor: a pull whose offset was out of range, with offset-moved events enabled
            OffsetMovedEvent event = new OffsetMovedEvent();
            event.setConsumerGroup(GROUP);
            event.setMessageQueue(new MessageQueue(TOPIC, BROKER_NAME, 0));
            event.setOffsetRequest(42);
            event.setOffsetNew(7);
            broker.generateOffsetMovedEvent(event);
            out.await("offset-moved", TopicValidator.RMQ_SYS_OFFSET_MOVED_EVENT, 0);

            // the schedule service re-puts the delayed sends (level 1) and the retry (level 3), both 1 s here
            String retryTopic = MixAll.getRetryTopic(GROUP);
            for (int i = 0; i < 2000 && (store.getMaxOffsetInQueue(TOPIC, 0) < plainSends + delayedSends
                || store.getMaxOffsetInQueue(retryTopic, 0) < 1); i++) {
                Thread.sleep(10);
            }
            out.rePuts(TOPIC, plainSends);
            out.rePuts(retryTopic, 0);

            // what each store's dispatch (ReputMessageService) built from each record, once it has read them all
            probeStore.awaitDispatched();
            Map<String, StoredRecord> records = new LinkedHashMap<>();
            out.records.forEach((label, bytes) -> records.put(label, ReadBack.of(store, bytes)));
            return records;
        }
    }

    /** The records stored so far, by path label, in the order stored. */
    private static final class Recorded {
        final Map<String, byte[]> records = new LinkedHashMap<>();
        private final ProbeStore store;

        Recorded(ProbeStore store) {
            this.store = store;
        }

        /** The record of a put the probe made; returns its CommitLog offset. */
        long put(String label, PutMessageResult result) {
            records.put(label, store.written(label, result));
            return result.getAppendMessageResult().getWroteOffset();
        }

        /** The record at {@code offset}; returns its size. */
        int read(String label, long offset) {
            byte[] bytes = store.read(offset);
            records.put(label, bytes);
            return bytes.length;
        }

        /** The record of a put that a site made itself, once dispatched to {@code topic} queue 0; returns its offset. */
        long await(String label, String topic, long queueOffset) throws InterruptedException {
            return await(label, topic, 0, queueOffset);
        }

        /** The same on queue {@code queueId}. */
        long await(String label, String topic, int queueId, long queueOffset) throws InterruptedException {
            long offset = store.awaitQueueEntry(label, topic, queueId, queueOffset);
            read(label, offset);
            return offset;
        }

        /** The schedule service's re-puts to {@code topic} queue 0 from {@code queueOffset}, labelled by UNIQ_KEY. */
        void rePuts(String topic, long from) {
            DefaultMessageStore s = store.store;
            for (long queueOffset = from; queueOffset < s.getMaxOffsetInQueue(topic, 0); queueOffset++) {
                byte[] bytes = store.read(s.getCommitLogOffsetInQueue(topic, 0, queueOffset));
                String uniqKey = ReadBack.decodedProperties(bytes).get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
                records.put("reput/" + topic + "/" + uniqKey, bytes);
            }
        }
    }
}
