package io.hotpath.codec.header;

import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * Header subclasses that count {@code checkFields()} calls (4.9.0's own are empty, so the call
 * is invisible on them). Public with public constructors because 4.9.0 reflection instantiates
 * them with {@code Class.newInstance}. They declare no instance fields: 4.9.0 reflection reads
 * only the class's own declared fields, so it sets nothing on them and only the checkFields()
 * behaviour is comparable.
 */
public final class CheckedHeaders {

    static int calls;
    static RemotingCommandException toThrow;
    /** queueId as checkFields() saw it on the last call. */
    static Integer queueIdSeenByCheckFields;

    private CheckedHeaders() {
    }

    static void reset(RemotingCommandException throwFromCheckFields) {
        calls = 0;
        toThrow = throwFromCheckFields;
        queueIdSeenByCheckFields = null;
    }

    public static class CheckedV2 extends SendMessageRequestHeaderV2 {
        @Override
        public void checkFields() throws RemotingCommandException {
            calls++;
            queueIdSeenByCheckFields = getE();
            if (toThrow != null) {
                throw toThrow;
            }
        }
    }

    public static class CheckedV1 extends SendMessageRequestHeader {
        @Override
        public void checkFields() throws RemotingCommandException {
            calls++;
            queueIdSeenByCheckFields = getQueueId();
            if (toThrow != null) {
                throw toThrow;
            }
        }
    }
}
