package io.hotpath.store;

import io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageAccessor;
import io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageExtBatch;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The real batch encoder of rocketmq-store 4.9.8 ({@code CommitLog.MessageExtEncoder#encode(MessageExtBatch, ..)},
 * shaded as {@code io.hotpath.upstream.v498}): what 4.9.8 stores as the properties block of one message of a batch.
 * Its constructor and {@code encode} are not public, so they are called by reflection; the batch body is one message in
 * the client's batch layout (TOTALSIZE, MAGICCODE, BODYCRC, FLAG, BODY, PROPLEN, the client's block as is), and the
 * block is read from the record the encoder wrote (IPv4 hosts).
 */
final class Upstream498BatchEncoder {

    private static final String COMMIT_LOG = "io.hotpath.upstream.v498.org.apache.rocketmq.store.CommitLog";
    /** TOTALSIZE .. PREPARED_TRANSACTION_OFFSET of a record with IPv4 hosts: where BODYLEN starts. */
    private static final int BODY_LENGTH_AT = 84;
    private static final Object ENCODER;
    private static final Method ENCODE;
    private static final Constructor<?> CONTEXT;

    static {
        try {
            Class<?> encoderClass = Class.forName(COMMIT_LOG + "$MessageExtEncoder");
            Constructor<?> constructor = encoderClass.getDeclaredConstructor(int.class);
            constructor.setAccessible(true);
            ENCODER = constructor.newInstance(4 * 1024 * 1024); // 4.9.8's default maxMessageSize
            Class<?> contextClass = Class.forName(COMMIT_LOG + "$PutMessageContext");
            CONTEXT = contextClass.getDeclaredConstructor(String.class);
            CONTEXT.setAccessible(true);
            ENCODE = encoderClass.getDeclaredMethod("encode", MessageExtBatch.class, contextClass);
            ENCODE.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Upstream498BatchEncoder() {
    }

    /** The properties block 4.9.8 stores for a batch of one message whose client block is {@code inner}. */
    static synchronized byte[] storedBlock(byte[] inner, Map<String, String> outer) {
        MessageExtBatch batch = new MessageExtBatch();
        batch.setTopic("hotpath_batch");
        batch.setBody(BatchRecordBytes.clientBatchBody(inner));
        MessageAccessor.setProperties(batch, outer); // the map itself: a copy could iterate in another order
        batch.setBornHost(new InetSocketAddress("127.0.0.1", 51234));
        batch.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
        ByteBuffer record;
        try {
            record = (ByteBuffer) ENCODE.invoke(ENCODER, batch, CONTEXT.newInstance("hotpath_batch-0"));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return BatchRecordBytes.propertiesBlock(record, BODY_LENGTH_AT);
    }
}
