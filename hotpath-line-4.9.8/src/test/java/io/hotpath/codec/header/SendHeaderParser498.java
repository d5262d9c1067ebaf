package io.hotpath.codec.header;

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
            return Stock498SendProcessors.PROCESSORS.parseSend(request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Stock498SendProcessors.PROCESSORS.parseReply(request);
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
            return ClasspathBroker.PROCESSORS.parseSend(request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return ClasspathBroker.PROCESSORS.parseReply(request);
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
     * The broker on this class path, by name: Maven Central has no rocketmq-broker 4.9.8 to compile against, so only
     * broker-dist's loader over the patched distribution's lib/ has one.
     */
    private static final class ClasspathBroker {
        static final SendProcessors PROCESSORS = SendProcessors.from(SendHeaderParser498.class.getClassLoader(),
            "-Dhotpath.candidate=broker needs a 4.9.8 broker (broker-dist runs these suites against the patched one)");

        private ClasspathBroker() {
        }
    }
}
