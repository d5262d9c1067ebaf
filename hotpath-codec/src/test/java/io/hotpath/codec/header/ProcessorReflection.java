package io.hotpath.codec.header;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * How the suites call a broker processor's protected {@code parseRequestHeader} as the broker does, for every line's
 * broker candidate: the processor allocated without its constructor (which needs a live BrokerController; the method
 * reads no field), and the method's own exceptions thrown as they are.
 */
final class ProcessorReflection {

    private ProcessorReflection() {
    }

    /** An instance of {@code type} without running any constructor. */
    static Object allocate(Class<?> type) {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return unsafeClass.getMethod("allocateInstance", Class.class).invoke(theUnsafe.get(null), type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code parseRequestHeader} (accessible) on {@code processor}: what it returns, or what it throws. */
    static SendMessageRequestHeader parse(Method parseRequestHeader, Object processor, RemotingCommand request)
            throws RemotingCommandException {
        try {
            return (SendMessageRequestHeader) parseRequestHeader.invoke(processor, request);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RemotingCommandException) {
                throw (RemotingCommandException) e.getCause();
            }
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
