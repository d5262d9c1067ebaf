package io.hotpath.store;

import io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageAccessor;
import io.hotpath.upstream.v498.org.apache.rocketmq.store.MessageExtBrokerInner;
import io.hotpath.upstream.v498.org.apache.rocketmq.store.MultiDispatch;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * One way to produce the persisted properties block from a broker's property map, as the tests
 * see it. The same suites run against upstream 4.9.8 (oracle) and ours (candidate).
 */
public interface PersistedPropertiesImpl {

    String name();

    /** The block; may modify the map only as upstream does. */
    byte[] persist(Map<String, String> properties);

    /**
     * What upstream 4.9.8 stores on its single-message path, done by 4.9.8's own bytecode: the message's map set on a
     * rocketmq-store 4.9.8 {@code MessageExtBrokerInner}, whose properties String {@code MultiDispatch
     * #removeWaitStorePropertyString} makes (remove WAIT from the message's own map, serialize, put WAIT back: the lines
     * of {@code SendMessageProcessor#asyncSendMessage}, whose broker jar Central does not have), then the UTF-8 bytes
     * {@code MessageExtEncoder#encode} takes of that String. The map is modified (WAIT moves to the end of its bucket),
     * as upstream's. A null map is no input of upstream's (its parse always returns a map) and throws there.
     */
    static PersistedPropertiesImpl upstream498() {
        return of("upstream 4.9.8 single-message path", properties -> {
            MessageExtBrokerInner msgInner = new MessageExtBrokerInner();
            MessageAccessor.setProperties(msgInner, properties);
            Upstream498WaitStrip.strip(msgInner);
            return msgInner.getPropertiesString().getBytes(StandardCharsets.UTF_8);
        });
    }

    static PersistedPropertiesImpl hotpath() {
        return of("hotpath PersistedProperties", PersistedProperties::messageProperties2Bytes);
    }

    /** Ours by default; {@code -Dhotpath.candidate=upstream} selects 4.9.8 (proves the suites encode upstream). */
    static PersistedPropertiesImpl candidate() {
        return "upstream".equals(System.getProperty("hotpath.candidate")) ? upstream498() : hotpath();
    }

    static PersistedPropertiesImpl of(String name, Function<Map<String, String>, byte[]> persist) {
        return new PersistedPropertiesImpl() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public byte[] persist(Map<String, String> properties) {
                return persist.apply(properties);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /**
     * rocketmq-store 4.9.8's private {@code MultiDispatch#removeWaitStorePropertyString}, on an instance allocated
     * without its constructor (which needs a live store): the method reads no field.
     */
    final class Upstream498WaitStrip {
        private static final Object MULTI_DISPATCH;
        private static final MethodHandle REMOVE_WAIT;

        static {
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                MULTI_DISPATCH = unsafeClass.getMethod("allocateInstance", Class.class).invoke(theUnsafe.get(null), MultiDispatch.class);
                REMOVE_WAIT = MethodHandles.privateLookupIn(MultiDispatch.class, MethodHandles.lookup()).findVirtual(MultiDispatch.class,
                    "removeWaitStorePropertyString", MethodType.methodType(void.class, MessageExtBrokerInner.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private Upstream498WaitStrip() {
        }

        static void strip(MessageExtBrokerInner msgInner) {
            try {
                REMOVE_WAIT.invoke(MULTI_DISPATCH, msgInner);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
