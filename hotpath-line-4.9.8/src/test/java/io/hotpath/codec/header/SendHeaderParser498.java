package io.hotpath.codec.header;

import java.lang.reflect.Method;
import java.util.HashMap;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The send-header parsers the 4.9.8 suites compare: upstream 4.9.8 and a candidate ({@link #candidate()}): ours
 * ({@link SendHeaderDecoder498}), or the broker processors of the class loader the suites run in ({@link #BROKER}: in
 * broker-dist, the PATCHED 4.9.8 broker, whose processors call the copy of {@link SendHeaderDecoder498} patch 0002 put
 * into it).
 *
 * <p>Upstream: 4.9.8's own {@code AbstractSendMessageProcessor#parseRequestHeader} and
 * {@code ReplyMessageProcessor#parseRequestHeader}, compiled from Central's source release ({@link Stock498SendProcessors}),
 * over the rocketmq-common / rocketmq-remoting 4.9.8 jars' decoding.
 */
enum SendHeaderParser498 {
    UPSTREAM {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Stock498SendProcessors.parse(Stock498SendProcessors.SEND, request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Stock498SendProcessors.parse(Stock498SendProcessors.REPLY, request);
        }
    },
    HOTPATH {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendHeaderDecoder498.parseRequestHeader(request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendHeaderDecoder498.parseReplyRequestHeader(request);
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
     * 4.9.8's behaviour).
     */
    static SendHeaderParser498 candidate() {
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

    /**
     * The broker processors' own protected {@code parseRequestHeader} (ReplyMessageProcessor overrides it), by name:
     * Maven Central has no rocketmq-broker 4.9.8 to compile against, so this is only loadable where a broker is on the
     * class path (broker-dist's loader over the patched distribution's lib/). The processors are allocated without
     * their constructors (which need a live BrokerController); {@code parseRequestHeader} reads no field.
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
            return ProcessorReflection.parse(PARSE_REQUEST_HEADER, processor, request);
        }

        private static Class<?> load(String name) {
            try {
                return Class.forName(name, true, SendHeaderParser498.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(name + " is not on this class path: -Dhotpath.candidate=broker needs a 4.9.8 broker"
                    + " (broker-dist runs these suites against the patched one)", e);
            }
        }

        private static Object allocate(String name) {
            return ProcessorReflection.allocate(load(name));
        }
    }
}
