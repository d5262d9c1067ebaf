package io.hotpath.codec.header;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;

/**
 * The send-header parsers the 5.3.3 suites compare: upstream 5.3.3 and a candidate ({@link #candidate()}): ours
 * ({@link SendHeaderDecoder533}), or the broker processors of the class loader the suites run in ({@link #BROKER}: a
 * patched 5.3.3 broker, whose processors call the copy of {@link SendHeaderDecoder533} a patch put into it).
 *
 * <p>Upstream, send: the real 5.3.3 {@code SendMessageRequestHeader#parseRequestHeader} from the rocketmq-remoting 5.3.3
 * jar, which 5.3.3's {@code AbstractSendMessageProcessor#parseRequestHeader} calls and nothing else. Reply: the switch
 * of 5.3.3's {@code ReplyMessageProcessor#parseRequestHeader}, restated (rocketmq-broker 5.3.3 would bring the whole
 * broker's dependency tree into this module) around the real 5.3.3 decoding: {@code RemotingCommand
 * #decodeCommandCustomHeader} and {@code SendMessageRequestHeaderV2#createSendMessageRequestHeaderV1}. It falls
 * through from the V2 case into the V1 case, as upstream's does.
 */
enum SendHeaderParser533 {
    UPSTREAM {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendMessageRequestHeader.parseRequestHeader(request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            SendMessageRequestHeaderV2 requestHeaderV2 = null;
            SendMessageRequestHeader requestHeader = null;
            int code = request.getCode();
            if (code == RequestCode.SEND_REPLY_MESSAGE_V2) {
                requestHeaderV2 = request.decodeCommandCustomHeader(SendMessageRequestHeaderV2.class);
            }
            if (code == RequestCode.SEND_REPLY_MESSAGE_V2 || code == RequestCode.SEND_REPLY_MESSAGE) {
                if (requestHeaderV2 == null) {
                    requestHeader = request.decodeCommandCustomHeader(SendMessageRequestHeader.class);
                } else {
                    requestHeader = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(requestHeaderV2);
                }
            }
            return requestHeader;
        }
    },
    HOTPATH {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendHeaderDecoder533.parseRequestHeader(request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendHeaderDecoder533.parseReplyRequestHeader(request);
        }
    },
    BROKER {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return BrokerProcessors.parse(BrokerProcessors.SEND, request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return BrokerProcessors.parse(BrokerProcessors.REPLY, request);
        }
    };

    /**
     * The parser the suites test against upstream: ours by default; {@code -Dhotpath.candidate=broker} the broker
     * processors of this class loader; {@code -Dhotpath.candidate=upstream} upstream itself (proves the suites encode
     * 5.3.3's behaviour).
     */
    static SendHeaderParser533 candidate() {
        String candidate = System.getProperty("hotpath.candidate", "hotpath");
        switch (candidate) {
            case "broker":
                return BROKER;
            case "upstream":
                return UPSTREAM;
            default:
                return HOTPATH;
        }
    }

    abstract SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException;

    abstract SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException;

    /** A request as the broker's Netty decoder hands it over: the code and the extFields map, nothing else. */
    static RemotingCommand request(int code, HashMap<String, String> extFields) {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        request.setExtFields(extFields);
        return request;
    }

    /** What {@code parser} does with the request, and what it logs (5.3.3's logging). */
    static DecodeOutcome outcome(SendHeaderParser533 parser, boolean reply, int code, HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> reply
            ? parser.parseReplyRequestHeader(request(code, extFields))
            : parser.parseRequestHeader(request(code, extFields)), RemotingLog533::during);
    }

    /**
     * The broker processors' own protected {@code parseRequestHeader} (ReplyMessageProcessor overrides it), by name:
     * only loadable where a 5.3.3 broker is on the class path. The processors are allocated without their
     * constructors (which need a live BrokerController); {@code parseRequestHeader} reads no field.
     */
    private static final class BrokerProcessors {
        static final Object SEND = allocate("org.apache.rocketmq.broker.processor.SendMessageProcessor");
        static final Object REPLY = allocate("org.apache.rocketmq.broker.processor.ReplyMessageProcessor");
        private static final Method PARSE_REQUEST_HEADER;

        static {
            try {
                PARSE_REQUEST_HEADER = load("org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor")
                    .getDeclaredMethod("parseRequestHeader", RemotingCommand.class);
                PARSE_REQUEST_HEADER.setAccessible(true);
            } catch (NoSuchMethodException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private BrokerProcessors() {
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

        private static Class<?> load(String name) {
            try {
                return Class.forName(name, true, SendHeaderParser533.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(name + " is not on this class path: -Dhotpath.candidate=broker needs a 5.3.3 broker", e);
            }
        }

        private static Object allocate(String name) {
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                return unsafeClass.getMethod("allocateInstance", Class.class).invoke(theUnsafe.get(null), load(name));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
