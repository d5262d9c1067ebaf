package io.hotpath.codec.header;

import java.util.HashMap;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The two send-header parsers the 4.9.8 suites compare: upstream 4.9.8 and ours ({@link SendHeaderDecoder498}).
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
    };

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
}
