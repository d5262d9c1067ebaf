package io.hotpath.codec.header;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor;
import org.apache.rocketmq.broker.processor.ReplyMessageProcessor;
import org.apache.rocketmq.broker.processor.SendMessageProcessor;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * One implementation of send-header decoding, as the tests see it: 4.9.0 reflection and the
 * 4.9.0 broker processors are the oracle, {@link SendHeaderDecoder} the candidate. The same
 * suites run against both.
 */
interface SendHeaderDecoderImpl {

    String name();

    SendMessageRequestHeaderV2 decodeV2(HashMap<String, String> extFields) throws RemotingCommandException;

    SendMessageRequestHeader decodeV1(HashMap<String, String> extFields) throws RemotingCommandException;

    /** Decodes into an instance of {@code type} (a subclass that watches checkFields()). */
    <H extends SendMessageRequestHeaderV2> H decodeV2As(HashMap<String, String> extFields, Class<H> type)
        throws RemotingCommandException;

    <H extends SendMessageRequestHeader> H decodeV1As(HashMap<String, String> extFields, Class<H> type)
        throws RemotingCommandException;

    /** {@code AbstractSendMessageProcessor#parseRequestHeader} (SendMessageProcessor). */
    SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException;

    /** {@code ReplyMessageProcessor#parseRequestHeader}. */
    SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException;

    static RemotingCommand request(int code, HashMap<String, String> extFields) {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        request.setExtFields(extFields);
        return request;
    }

    /**
     * The real thing: 4.9.0's {@code RemotingCommand#decodeCommandCustomHeader}, and the real
     * 4.9.0 broker processors' {@code parseRequestHeader} (protected; the processors are allocated
     * without a BrokerController, which that method does not touch).
     */
    static SendHeaderDecoderImpl reflection490() {
        return new SendHeaderDecoderImpl() {
            @Override
            public String name() {
                return "upstream 4.9.0 reflection";
            }

            @Override
            public SendMessageRequestHeaderV2 decodeV2(HashMap<String, String> extFields) throws RemotingCommandException {
                return (SendMessageRequestHeaderV2) request(0, extFields).decodeCommandCustomHeader(SendMessageRequestHeaderV2.class);
            }

            @Override
            public SendMessageRequestHeader decodeV1(HashMap<String, String> extFields) throws RemotingCommandException {
                return (SendMessageRequestHeader) request(0, extFields).decodeCommandCustomHeader(SendMessageRequestHeader.class);
            }

            @Override
            public <H extends SendMessageRequestHeaderV2> H decodeV2As(HashMap<String, String> extFields, Class<H> type)
                throws RemotingCommandException {
                return type.cast(request(0, extFields).decodeCommandCustomHeader(type));
            }

            @Override
            public <H extends SendMessageRequestHeader> H decodeV1As(HashMap<String, String> extFields, Class<H> type)
                throws RemotingCommandException {
                return type.cast(request(0, extFields).decodeCommandCustomHeader(type));
            }

            @Override
            public SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return Broker490.parse(Broker490.SEND, request);
            }

            @Override
            public SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return Broker490.parse(Broker490.REPLY, request);
            }

            @Override
            public String toString() {
                return name();
            }
        };
    }

    static SendHeaderDecoderImpl hotpath() {
        return new SendHeaderDecoderImpl() {
            @Override
            public String name() {
                return "hotpath SendHeaderDecoder";
            }

            @Override
            public SendMessageRequestHeaderV2 decodeV2(HashMap<String, String> extFields) throws RemotingCommandException {
                return SendHeaderDecoder.decodeV2(extFields);
            }

            @Override
            public SendMessageRequestHeader decodeV1(HashMap<String, String> extFields) throws RemotingCommandException {
                return SendHeaderDecoder.decodeV1(extFields);
            }

            @Override
            public <H extends SendMessageRequestHeaderV2> H decodeV2As(HashMap<String, String> extFields, Class<H> type)
                throws RemotingCommandException {
                return SendHeaderDecoder.decodeV2Into(extFields, newInstance(type));
            }

            @Override
            public <H extends SendMessageRequestHeader> H decodeV1As(HashMap<String, String> extFields, Class<H> type)
                throws RemotingCommandException {
                return SendHeaderDecoder.decodeV1Into(extFields, newInstance(type));
            }

            @Override
            public SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return SendHeaderDecoder.parseRequestHeader(request);
            }

            @Override
            public SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return SendHeaderDecoder.parseReplyRequestHeader(request);
            }

            @Override
            public String toString() {
                return name();
            }
        };
    }

    /**
     * The implementation under test: ours by default, 4.9.0 reflection itself with
     * {@code -Dhotpath.candidate=upstream} (proves the suites encode upstream behaviour).
     */
    static SendHeaderDecoderImpl candidate() {
        return "upstream".equals(System.getProperty("hotpath.candidate")) ? reflection490() : hotpath();
    }

    /** Access to the 4.9.0 broker processors' protected {@code parseRequestHeader}. */
    final class Broker490 {
        static final Object SEND = allocate(SendMessageProcessor.class);
        static final Object REPLY = allocate(ReplyMessageProcessor.class);
        private static final Method PARSE_REQUEST_HEADER;

        static {
            try {
                // declared on AbstractSendMessageProcessor, overridden by ReplyMessageProcessor: invoke() dispatches
                PARSE_REQUEST_HEADER = AbstractSendMessageProcessor.class.getDeclaredMethod("parseRequestHeader", RemotingCommand.class);
                PARSE_REQUEST_HEADER.setAccessible(true);
            } catch (NoSuchMethodException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private Broker490() {
        }

        static SendMessageRequestHeader parse(Object processor, RemotingCommand request) throws RemotingCommandException {
            try {
                return (SendMessageRequestHeader) PARSE_REQUEST_HEADER.invoke(processor, request);
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

        /** An instance without running constructors (their constructor needs a live BrokerController). */
        private static Object allocate(Class<?> type) {
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                return unsafeClass.getMethod("allocateInstance", Class.class).invoke(theUnsafe.get(null), type);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static <H> H newInstance(Class<H> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
