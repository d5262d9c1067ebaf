package io.hotpath.codec.header;

import java.lang.reflect.Method;
import java.util.HashMap;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The send-header parsers the 4.9.8 suites compare: upstream 4.9.8 and a candidate ({@link #candidate()}): ours
 * ({@link SendHeaderDecoder498}), or the broker processors of the class loader the suites run in ({@link #BROKER}: in
 * broker-dist, the PATCHED 4.9.8 broker, whose processors call the copy of {@link SendHeaderDecoder498} patch 0002 put
 * into it).
 *
 * <p>Upstream: the switch of 4.9.8's {@code AbstractSendMessageProcessor#parseRequestHeader} and
 * {@code ReplyMessageProcessor#parseRequestHeader}, restated (Maven Central has no rocketmq-broker 4.9.8 jar;
 * broker-dist builds it from the source release), around the real 4.9.8 decoding: {@code
 * RemotingCommand#decodeCommandCustomHeader} and {@code SendMessageRequestHeaderV2#createSendMessageRequestHeaderV1}
 * from the rocketmq-common / rocketmq-remoting 4.9.8 jars. The switch falls through from the V2 case into the V1
 * case, as upstream's does.
 */
enum SendHeaderParser498 {
    UPSTREAM {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return upstream(request, RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE, RequestCode.SEND_MESSAGE);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return upstream(request, RequestCode.SEND_REPLY_MESSAGE_V2, RequestCode.SEND_REPLY_MESSAGE_V2, RequestCode.SEND_REPLY_MESSAGE);
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

    private static SendMessageRequestHeader upstream(RemotingCommand request, int v2Code, int otherV2Code, int v1Code)
        throws RemotingCommandException {
        SendMessageRequestHeaderV2 requestHeaderV2 = null;
        SendMessageRequestHeader requestHeader = null;
        int code = request.getCode();
        if (code == v2Code || code == otherV2Code) {
            requestHeaderV2 = (SendMessageRequestHeaderV2) request.decodeCommandCustomHeader(SendMessageRequestHeaderV2.class);
        }
        if (code == v2Code || code == otherV2Code || code == v1Code) {
            if (requestHeaderV2 == null) {
                requestHeader = (SendMessageRequestHeader) request.decodeCommandCustomHeader(SendMessageRequestHeader.class);
            } else {
                requestHeader = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(requestHeaderV2);
            }
        }
        return requestHeader;
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
