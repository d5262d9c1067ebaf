package io.hotpath.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Byte layouts both upstream batch encoders' oracles share: a client's batch body, and a stored record's properties block. */
final class BatchRecordBytes {

    private BatchRecordBytes() {
    }

    /** A client batch body holding one message, body "b", whose properties block is {@code inner}. */
    static byte[] clientBatchBody(byte[] inner) {
        byte[] body = "b".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer out = ByteBuffer.allocate(4 * 5 + body.length + 2 + inner.length);
        out.putInt(out.capacity()).putInt(0).putInt(0).putInt(0).putInt(body.length).put(body);
        out.putShort((short) inner.length).put(inner);
        return out.array();
    }

    /** The properties block of the record: after the body (length at {@code bodyLengthAt}) and the topic. */
    static byte[] propertiesBlock(ByteBuffer record, int bodyLengthAt) {
        int at = bodyLengthAt;
        at += 4 + record.getInt(at);
        at += 1 + record.get(at);
        int length = record.getShort(at);
        byte[] block = new byte[length];
        record.position(at + 2);
        record.get(block);
        return block;
    }
}
