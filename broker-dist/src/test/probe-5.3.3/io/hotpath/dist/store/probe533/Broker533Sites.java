package io.hotpath.dist.store.probe533;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.processor.EndTransactionProcessor;
import org.apache.rocketmq.broker.processor.PopMessageProcessor;
import org.apache.rocketmq.broker.processor.SendMessageProcessor;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.broker.topic.TopicConfigManager;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageBridge;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageUtil;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.PopAckConstants;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.ConsumerSendMsgBackRequestHeader;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.store.pop.PopCheckPoint;

/**
 * The 5.3.3 broker's own site methods that build a message to store, from whichever rocketmq-broker 5.3.3 this class
 * loader holds (stock or patched distribution). Each is called as its caller calls it; the objects they belong to are
 * allocated without their constructors (which would start services) and only the fields the method reads are set.
 * Private methods are called by reflection.
 */
final class Broker533Sites {

    private final TransactionalMessageBridge bridge;
    private final EndTransactionProcessor endTransaction;
    private final PopMessageProcessor pop;
    private final SendMessageProcessor send;

    Broker533Sites(BrokerController controller) throws Exception {
        bridge = (TransactionalMessageBridge) Probe533Store.allocateWithoutConstructor(TransactionalMessageBridge.class);
        Probe533Store.set(bridge, "storeHost", Probe533Store.STORE_HOST);
        // 5.5.1's parseHalfMessageInner reads the store's config (which half topic: the RocksDB one is off by default)
        Probe533Store.set(bridge, "store", controller.getMessageStore());
        endTransaction = (EndTransactionProcessor) Probe533Store.allocateWithoutConstructor(EndTransactionProcessor.class);
        // 5.5.1's endMessageTransaction reads the controller's store config (the RocksDB transaction store: off by default)
        Probe533Store.set(endTransaction, "brokerController", controller);
        pop = (PopMessageProcessor) Probe533Store.allocateWithoutConstructor(PopMessageProcessor.class);
        Probe533Store.set(pop, "brokerController", controller);
        Probe533Store.set(pop, "reviveTopic", PopAckConstants.buildClusterReviveTopic(Probe533Store.CLUSTER));
        // consumerSendMsgBack's master (brokerId 0: itself) holds the probe group (its defaults: 1 retry queue, 16
        // retries) and that group's retry and DLQ topics (1 queue each, as after a first send-back: creating one would
        // write topics.json and register with a name server)
        SubscriptionGroupManager groups = new SubscriptionGroupManager(controller, false);
        SubscriptionGroupConfig group = new SubscriptionGroupConfig();
        group.setGroupName(ReadBack533.GROUP);
        groups.putSubscriptionGroupConfig(group);
        Probe533Store.set(controller, "subscriptionGroupManager", groups);
        TopicConfigManager topics = new TopicConfigManager(controller, false);
        for (String topic : new String[] {MixAll.getRetryTopic(ReadBack533.GROUP), MixAll.getDLQTopic(ReadBack533.GROUP)}) {
            topics.putTopicConfig(new TopicConfig(topic, 1, 1, PermName.PERM_READ | PermName.PERM_WRITE));
        }
        Probe533Store.set(controller, "topicConfigManager", topics);
        Probe533Store.set(controller, "brokerStatsManager", ((org.apache.rocketmq.store.DefaultMessageStore) controller.getMessageStore()).getBrokerStatsManager());
        withNopBrokerMetrics(controller);
        send = new SendMessageProcessor(controller);
    }

    /**
     * {@code AbstractSendMessageProcessor#consumerSendMsgBack} (protected; {@code ctx} unused without hooks): the
     * request a consumer sends for the record at {@code offset} (its header in extFields; {@code delayLevel} 0 = retry
     * at level 3 + reconsumeTimes, -1 = DLQ), the processor's record and put.
     */
    void consumerSendMsgBack(long offset, int delayLevel) throws Exception {
        ConsumerSendMsgBackRequestHeader header = new ConsumerSendMsgBackRequestHeader();
        header.setOffset(offset);
        header.setGroup(ReadBack533.GROUP);
        header.setDelayLevel(delayLevel);
        header.setOriginTopic(Store533Probe.TOPIC);
        header.setMaxReconsumeTimes(16);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CONSUMER_SEND_MSG_BACK, header);
        request.makeCustomHeaderToNet();
        RemotingCommand response = (RemotingCommand) invoke(send, send.getClass().getSuperclass(), "consumerSendMsgBack",
            new Class<?>[] {io.netty.channel.ChannelHandlerContext.class, RemotingCommand.class}, null, request);
        if (response.getCode() != 0) {
            throw new IllegalStateException("consumerSendMsgBack: " + response.getCode() + " " + response.getRemark());
        }
    }

    /**
     * 5.5.1's DLQ branch counts through the controller's {@code BrokerMetricsManager} (5.3.3's through a static no-op
     * counter): one allocated without its constructor (which wants the pop and offset managers), with what its field
     * initializers set and the DLQ branch reads: the no-op counter it starts with and an empty label map.
     */
    private static void withNopBrokerMetrics(BrokerController controller) throws Exception {
        Field metrics = BrokerController.class.getDeclaredField("brokerMetricsManager");
        if (java.lang.reflect.Modifier.isStatic(metrics.getType().getDeclaredField("sendToDlqMessages").getModifiers())) {
            return; // 5.3.3
        }
        Object manager = Probe533Store.allocateWithoutConstructor(metrics.getType());
        Probe533Store.set(manager, "sendToDlqMessages",
            Class.forName("org.apache.rocketmq.common.metrics.NopLongCounter").getConstructor().newInstance());
        Probe533Store.set(manager, "labelMap", new java.util.HashMap<String, String>());
        Probe533Store.set(controller, "brokerMetricsManager", manager);
    }

    /** {@code TransactionalMessageBridge#parseHalfMessageInner} (private; 5.3.3's reads no field, 5.5.1's the store). */
    MessageExtBrokerInner parseHalfMessageInner(MessageExtBrokerInner msgInner) throws Exception {
        return (MessageExtBrokerInner) invoke(bridge, TransactionalMessageBridge.class, "parseHalfMessageInner",
            new Class<?>[] {MessageExtBrokerInner.class}, msgInner);
    }

    /** {@code TransactionalMessageBridge#renewHalfMessageInner} (public; the check service's re-put of a half). */
    MessageExtBrokerInner renewHalfMessageInner(MessageExt half) {
        return bridge.renewHalfMessageInner(half);
    }

    /** {@code TransactionalMessageBridge#renewImmunityHalfMessageInner} (public). */
    MessageExtBrokerInner renewImmunityHalfMessageInner(MessageExt half) {
        return bridge.renewImmunityHalfMessageInner(half);
    }

    /** {@code TransactionalMessageBridge#makeOpMessageInner} (private; reads storeHost). */
    MessageExtBrokerInner makeOpMessageInner(Message op, MessageQueue queue) throws Exception {
        return (MessageExtBrokerInner) invoke(bridge, TransactionalMessageBridge.class, "makeOpMessageInner",
            new Class<?>[] {Message.class, MessageQueue.class}, op, queue);
    }

    /** {@code EndTransactionProcessor#endMessageTransaction} (private; 5.3.3's reads no field, 5.5.1's the controller). */
    MessageExtBrokerInner endMessageTransaction(MessageExt half) throws Exception {
        return (MessageExtBrokerInner) invoke(endTransaction, EndTransactionProcessor.class, "endMessageTransaction",
            new Class<?>[] {MessageExt.class}, half);
    }

    /** {@code TransactionalMessageUtil#buildTransactionalMessageFromHalfMessage} (public static). */
    MessageExtBrokerInner buildTransactionalMessageFromHalfMessage(MessageExt half) {
        return TransactionalMessageUtil.buildTransactionalMessageFromHalfMessage(half);
    }

    /** {@code PopMessageProcessor#buildCkMsg} (public; reads reviveTopic and the controller's store host). */
    MessageExtBrokerInner buildCkMsg(PopCheckPoint ck, int reviveQid) {
        return pop.buildCkMsg(ck, reviveQid);
    }

    private static Object invoke(Object target, Class<?> type, String name, Class<?>[] parameters, Object... args)
        throws Exception {
        Method method = type.getDeclaredMethod(name, parameters);
        method.setAccessible(true);
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }
}
