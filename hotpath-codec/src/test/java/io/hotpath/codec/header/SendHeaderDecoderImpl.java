package io.hotpath.codec.header;

import java.util.HashMap;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * One implementation of send-header decoding, as the tests see it. The oracle is 4.9.0
 * reflection ({@link #reflection490()}); candidates are ours ({@link #hotpath()}) and the broker
 * processors on the classpath ({@link #brokerOnClasspath()}: stock 4.9.0 here, the patched
 * broker in broker-dist). The same suites run against
 * all of them.
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
     * The oracle: 4.9.0's {@code RemotingCommand#decodeCommandCustomHeader} (the rocketmq-remoting
     * jar is never patched), and for the entry points stock 4.9.0's own
     * {@code AbstractSendMessageProcessor#parseRequestHeader} / {@code ReplyMessageProcessor#parseRequestHeader}
     * from Central's broker jar in a loader of its own ({@link StockBroker490}), independent of the broker
     * jar on the classpath (the patched one in broker-dist).
     */
    static SendHeaderDecoderImpl reflection490() {
        return new SendHeaderDecoderImpl() {
            @Override
            public String name() {
                return "upstream 4.9.0 reflection, processors of " + StockBroker490.PROCESSORS.source();
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
                return StockBroker490.PROCESSORS.parseSend(request);
            }

            @Override
            public SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return StockBroker490.PROCESSORS.parseReply(request);
            }

            @Override
            public String toString() {
                return name();
            }
        };
    }

    /**
     * The broker processors' own {@code parseRequestHeader} (protected; the processors are
     * allocated without a BrokerController, which that method does not touch), decoding through
     * reflection otherwise: stock 4.9.0 in this module, the patched broker in broker-dist.
     */
    static SendHeaderDecoderImpl brokerOnClasspath() {
        SendHeaderDecoderImpl reflection = reflection490();
        return new SendHeaderDecoderImpl() {
            @Override
            public String name() {
                return "broker processors on the classpath (" + ClasspathBroker.PROCESSORS.source() + ")";
            }

            @Override
            public SendMessageRequestHeaderV2 decodeV2(HashMap<String, String> extFields) throws RemotingCommandException {
                return reflection.decodeV2(extFields);
            }

            @Override
            public SendMessageRequestHeader decodeV1(HashMap<String, String> extFields) throws RemotingCommandException {
                return reflection.decodeV1(extFields);
            }

            @Override
            public <H extends SendMessageRequestHeaderV2> H decodeV2As(HashMap<String, String> extFields, Class<H> type)
                throws RemotingCommandException {
                return reflection.decodeV2As(extFields, type);
            }

            @Override
            public <H extends SendMessageRequestHeader> H decodeV1As(HashMap<String, String> extFields, Class<H> type)
                throws RemotingCommandException {
                return reflection.decodeV1As(extFields, type);
            }

            @Override
            public SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return ClasspathBroker.PROCESSORS.parseSend(request);
            }

            @Override
            public SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
                return ClasspathBroker.PROCESSORS.parseReply(request);
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
     * The implementation under test: ours by default; 4.9.0 reflection itself with
     * {@code -Dhotpath.candidate=upstream} (proves the suites encode upstream behaviour); the
     * broker processors on the classpath with {@code -Dhotpath.candidate=broker}.
     */
    static SendHeaderDecoderImpl candidate() {
        String candidate = System.getProperty("hotpath.candidate", "hotpath");
        switch (candidate) {
            case "upstream":
                return reflection490();
            case "broker":
                return brokerOnClasspath();
            default:
                return hotpath();
        }
    }

    /** The broker on the suites' own class path: stock 4.9.0 in this module, the patched broker in broker-dist. */
    final class ClasspathBroker {
        static final SendProcessors PROCESSORS = SendProcessors.from(SendHeaderDecoderImpl.class.getClassLoader(),
            "no rocketmq-broker on this class path");

        private ClasspathBroker() {
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
