package io.hotpath.dist.store.probe;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import io.netty.channel.ChannelHandlerContext;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.mqtrace.SendMessageContext;
import org.apache.rocketmq.broker.processor.AdminBrokerProcessor;
import org.apache.rocketmq.broker.processor.EndTransactionProcessor;
import org.apache.rocketmq.broker.processor.PullMessageProcessor;
import org.apache.rocketmq.broker.processor.SendMessageProcessor;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.broker.topic.TopicConfigManager;
import org.apache.rocketmq.broker.transaction.queue.DefaultTransactionalMessageCheckListener;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageBridge;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.ConsumerSendMsgBackRequestHeader;
import org.apache.rocketmq.common.protocol.header.ResumeCheckHalfMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.common.protocol.topic.OffsetMovedEvent;
import org.apache.rocketmq.common.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * A 4.9.x broker's own sites, from whichever rocketmq-broker this class loader holds: a built distribution's one under
 * {@code PatchedBrokerLoader}, the stock jar for {@code Release.STOCK_490}, upstream's 4.9.8 classes compiled from
 * Central's source release under {@code Upstream498StoreLoader} ({@code Release.UPSTREAM_498}).
 *
 * <p>No live broker: the {@code BrokerController} is allocated without its constructor (which would build the
 * remoting client, the managers and their executors) and only the fields these sites read are set: broker IP
 * and name, listen port, store config, the running store, its stats manager, a {@code TopicConfigManager}
 * that already holds TRANS_CHECK_MAX_TIME_TOPIC and the probe group's retry and DLQ topics (1 queue each, as a broker
 * has them after its first discard and send-backs; creating one would write topics.json and register with a name
 * server), and a {@code SubscriptionGroupManager} that holds the probe group (its defaults: 1 retry queue, 16 retries).
 * Public site methods are called as their callers call them; private ones by reflection.
 */
final class LoadedBrokerSites implements BrokerSites {
    private final DefaultMessageStore store;
    private final BrokerController controller;
    private final TransactionalMessageBridge bridge;

    LoadedBrokerSites(DefaultMessageStore store) throws Exception {
        this.store = store;
        controller = (BrokerController) allocateWithoutConstructor(BrokerController.class);
        BrokerConfig brokerConfig = new BrokerConfig();
        brokerConfig.setBrokerIP1(StoreSiteProbe.STORE_HOST.getHostString());
        brokerConfig.setBrokerName(StoreSiteProbe.BROKER_NAME);
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(StoreSiteProbe.STORE_HOST.getPort());
        set(controller, "brokerConfig", brokerConfig);
        set(controller, "nettyServerConfig", server);
        set(controller, "messageStoreConfig", store.getMessageStoreConfig());
        set(controller, "messageStore", store);
        set(controller, "brokerStatsManager", store.getBrokerStatsManager());
        TopicConfigManager topics = new TopicConfigManager(controller);
        TopicConfig checkMaxTime = new TopicConfig(TopicValidator.RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC, 1, 1,
            PermName.PERM_READ | PermName.PERM_WRITE);
        topics.getTopicConfigTable().put(checkMaxTime.getTopicName(), checkMaxTime);
        for (String topic : new String[] {MixAll.getRetryTopic(StoreSiteProbe.GROUP), MixAll.getDLQTopic(StoreSiteProbe.GROUP)}) {
            topics.getTopicConfigTable().put(topic, new TopicConfig(topic, 1, 1, PermName.PERM_READ | PermName.PERM_WRITE));
        }
        set(controller, "topicConfigManager", topics);
        SubscriptionGroupManager groups = new SubscriptionGroupManager(controller);
        SubscriptionGroupConfig group = new SubscriptionGroupConfig();
        group.setGroupName(StoreSiteProbe.GROUP);
        groups.getSubscriptionGroupTable().put(group.getGroupName(), group);
        set(controller, "subscriptionGroupManager", groups);
        bridge = new TransactionalMessageBridge(controller, store);
    }

    /** Private; reads no field (the put is the caller's: {@code asyncPutHalfMessage}). */
    @Override
    public MessageExtBrokerInner parseHalfMessageInner(MessageExtBrokerInner msgInner) throws Exception {
        return (MessageExtBrokerInner) invokeDeclared(bridge, "parseHalfMessageInner",
            new Class<?>[] {MessageExtBrokerInner.class}, msgInner);
    }

    /** Private; the processor's controller is only stored, unused here. */
    @Override
    public MessageExtBrokerInner endMessageTransaction(MessageExt msgExt) throws Exception {
        return (MessageExtBrokerInner) invokeDeclared(new EndTransactionProcessor(controller), "endMessageTransaction",
            new Class<?>[] {MessageExt.class}, msgExt);
    }

    @Override
    public MessageExtBrokerInner renewHalfMessageInner(MessageExt msgExt) {
        return bridge.renewHalfMessageInner(msgExt);
    }

    @Override
    public MessageExtBrokerInner renewImmunityHalfMessageInner(MessageExt msgExt) {
        return bridge.renewImmunityHalfMessageInner(msgExt);
    }

    /** Its private toMessageExtBrokerInner and the put. */
    @Override
    public void resolveDiscardMsg(MessageExt msgExt) {
        DefaultTransactionalMessageCheckListener listener = new DefaultTransactionalMessageCheckListener();
        listener.setBrokerController(controller);
        listener.resolveDiscardMsg(msgExt);
    }

    /** Private (ctx unused), by the record's offset message id: select, decode, its toMessageExtBrokerInner, put. */
    @Override
    public void resumeCheckHalfMessage(long offset) throws Exception {
        ResumeCheckHalfMessageRequestHeader header = new ResumeCheckHalfMessageRequestHeader();
        header.setMsgId(store.lookMessageByOffset(offset).getMsgId());
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.RESUME_CHECK_HALF_MESSAGE, header);
        request.makeCustomHeaderToNet(); // as the request arrives: the header in extFields
        RemotingCommand response = (RemotingCommand) invokeDeclared(new AdminBrokerProcessor(controller),
            "resumeCheckHalfMessage", new Class<?>[] {ChannelHandlerContext.class, RemotingCommand.class}, null, request);
        if (response.getCode() != 0) {
            throw new IllegalStateException("resumeCheckHalfMessage: " + response.getCode() + " " + response.getRemark());
        }
    }

    /** Message, writeOp, makeOpMessageInner and the put, all its own. */
    @Override
    public void putOpMessage(MessageExt half) {
        bridge.putOpMessage(half, "d"); // TransactionalMessageUtil.REMOVETAG
    }

    /**
     * Private ({@code ctx} unused without hooks): the request a 4.9.x consumer sends for the record at {@code offset}
     * (its header in extFields, max reconsume times 16 as the consumer's default), the processor's record and put.
     */
    @Override
    public void consumerSendMsgBack(long offset, int delayLevel) throws Exception {
        ConsumerSendMsgBackRequestHeader header = new ConsumerSendMsgBackRequestHeader();
        header.setOffset(offset);
        header.setGroup(StoreSiteProbe.GROUP);
        header.setDelayLevel(delayLevel);
        header.setMaxReconsumeTimes(16);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CONSUMER_SEND_MSG_BACK, header);
        request.makeCustomHeaderToNet();
        CompletableFuture<?> answer = (CompletableFuture<?>) invokeDeclared(new SendMessageProcessor(controller),
            "asyncConsumerSendMsgBack", new Class<?>[] {ChannelHandlerContext.class, RemotingCommand.class}, null, request);
        RemotingCommand response = (RemotingCommand) answer.get();
        if (response.getCode() != 0) {
            throw new IllegalStateException("asyncConsumerSendMsgBack: " + response.getCode() + " " + response.getRemark());
        }
    }

    /** Private: builds the record and puts it itself. */
    @Override
    public void generateOffsetMovedEvent(OffsetMovedEvent event) throws Exception {
        invokeDeclared(new PullMessageProcessor(controller), "generateOffsetMovedEvent",
            new Class<?>[] {OffsetMovedEvent.class}, event);
    }

    /** Private. The request is oneway so that a PUT_OK does not write to the (absent) channel. */
    @Override
    public int responseCode(PutMessageResult result, MessageExt msg) throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE, null);
        request.setExtFields(new HashMap<>());
        request.markOnewayRPC();
        RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        invokeDeclared(new SendMessageProcessor(controller), "handlePutMessageResult", new Class<?>[] {PutMessageResult.class,
            RemotingCommand.class, RemotingCommand.class, MessageExt.class, SendMessageResponseHeader.class,
            SendMessageContext.class, ChannelHandlerContext.class, int.class},
            result, response, request, msg, response.readCustomHeader(), null, null, 0);
        return response.getCode();
    }

    /** Calls a method that {@code target}'s class declares itself (private ones too), as its own callers would. */
    private static Object invokeDeclared(Object target, String name, Class<?>[] parameterTypes, Object... args)
            throws Exception {
        Method method = target.getClass().getDeclaredMethod(name, parameterTypes);
        method.setAccessible(true);
        return method.invoke(target, args);
    }

    private static Object allocateWithoutConstructor(Class<?> type) throws Exception {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        return unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type);
    }

    private static void set(Object target, String field, Object value) throws Exception {
        Field f = target.getClass().getDeclaredField(field);
        f.setAccessible(true);
        f.set(target, value);
    }
}
