package io.hotpath.dist.store.probe533;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.processor.EndTransactionProcessor;
import org.apache.rocketmq.broker.processor.PopMessageProcessor;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageBridge;
import org.apache.rocketmq.broker.transaction.queue.TransactionalMessageUtil;
import org.apache.rocketmq.common.PopAckConstants;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.common.message.MessageQueue;
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
