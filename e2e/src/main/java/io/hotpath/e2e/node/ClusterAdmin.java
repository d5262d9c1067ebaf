package io.hotpath.e2e.node;

import io.hotpath.e2e.ClusterException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.body.ClusterInfo;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.exception.RemotingException;

/**
 * The few admin calls the e2e tools need, over the real rocketmq-client 4.9.0 remoting API (the
 * calls {@code mqadmin} makes), so that we do not pull rocketmq-tools and its logback onto the
 * client classpath: who is registered, create a topic on every master, is the route published,
 * and a probe send to one chosen master.
 */
public final class ClusterAdmin implements AutoCloseable {

    private static final long TIMEOUT_MILLIS = 5_000;

    private final DefaultMQProducer client;
    private final MQClientAPIImpl api;

    public ClusterAdmin(String namesrvAddress, String instanceName) {
        client = new DefaultMQProducer("hotpath_admin");
        client.setNamesrvAddr(namesrvAddress);
        client.setInstanceName(instanceName);
        // a probe must report what the broker answered, not what a retry on the other broker got
        client.setRetryTimesWhenSendFailed(0);
        client.setSendMsgTimeout((int) TIMEOUT_MILLIS);
        try {
            client.start();
        } catch (MQClientException e) {
            throw new ClusterException("cannot start the admin client: " + e.getMessage(), e);
        }
        api = client.getDefaultMQProducerImpl().getmQClientFactory().getMQClientAPIImpl();
    }

    /** brokerName -> (brokerId -> address) as the name server sees it now; empty while it cannot answer. */
    public Map<String, Map<Long, String>> registeredBrokers() {
        Map<String, Map<Long, String>> brokers = new TreeMap<>();
        try {
            ClusterInfo info = api.getBrokerClusterInfo(TIMEOUT_MILLIS);
            if (info != null && info.getBrokerAddrTable() != null) {
                for (BrokerData data : info.getBrokerAddrTable().values()) {
                    brokers.put(data.getBrokerName(), new TreeMap<>(data.getBrokerAddrs()));
                }
            }
        } catch (RemotingException | MQBrokerException e) {
            // not up yet: the caller polls
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return brokers;
    }

    /** Creates (or updates) {@code topic} with {@code queuesPerMaster} read and write queues on each master. */
    public void createTopic(String topic, int queuesPerMaster, Collection<String> masterAddresses) {
        TopicConfig config = new TopicConfig(topic, queuesPerMaster, queuesPerMaster, PermName.PERM_READ | PermName.PERM_WRITE);
        for (String address : masterAddresses) {
            try {
                api.createTopic(address, TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, config, TIMEOUT_MILLIS);
            } catch (RemotingException | MQBrokerException | MQClientException e) {
                throw new ClusterException("cannot create topic " + topic + " on " + address + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted while creating topic " + topic, e);
            }
        }
    }

    /** True once the name server routes {@code topic} to every broker in {@code brokerNames} with {@code queues} write queues. */
    public boolean routeReady(String topic, Collection<String> brokerNames, int queues) {
        try {
            TopicRouteData route = api.getTopicRouteInfoFromNameServer(topic, TIMEOUT_MILLIS);
            if (route == null || route.getQueueDatas() == null) {
                return false;
            }
            long ready = route.getQueueDatas().stream()
                    .filter(q -> brokerNames.contains(q.getBrokerName()))
                    .filter(q -> q.getWriteQueueNums() == queues && q.getReadQueueNums() == queues)
                    .map(QueueData::getBrokerName)
                    .distinct()
                    .count();
            return ready == brokerNames.size();
        } catch (RemotingException | MQClientException e) {
            return false; // TOPIC_NOT_EXIST until the masters have registered it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Sends one small message to queue 0 of {@code brokerName} with no client retry. Returns the
     * broker's answer: SEND_OK once the SYNC_MASTER's slave is connected and caught up,
     * SLAVE_NOT_AVAILABLE (4.9.x), FLUSH_SLAVE_TIMEOUT (5.x) or an exception before.
     */
    public SendResult probe(String topic, String brokerName) throws Exception {
        Message message = new Message(topic, "probe", ("probe " + System.nanoTime()).getBytes(StandardCharsets.US_ASCII));
        return client.send(message, new MessageQueue(topic, brokerName, 0));
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
