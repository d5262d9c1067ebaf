package io.hotpath.dist.store.probe;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The body a client sends for a batch: {@code MessageDecoder.encodeMessage}'s layout per message, with
 * each message's properties block given as is (so a test can send 4.9.0-client blocks, which end with a
 * separator, and 4.9.1+-client blocks, which do not) and message i's body "batch body i".
 */
final class ClientBatchBody {

    private ClientBatchBody() {
    }

    static byte[] encode(List<String> innerBlocks) {
        ByteBuffer body = ByteBuffer.allocate(1 << 20);
        for (int i = 0; i < innerBlocks.size(); i++) {
            byte[] messageBody = ("batch body " + i).getBytes(StandardCharsets.UTF_8);
            byte[] properties = innerBlocks.get(i).getBytes(StandardCharsets.UTF_8);
            body.putInt(4 + 4 + 4 + 4 + 4 + messageBody.length + 2 + properties.length);
            body.putInt(0); // MAGICCODE
            body.putInt(0); // BODYCRC
            body.putInt(0); // FLAG
            body.putInt(messageBody.length);
            body.put(messageBody);
            body.putShort((short) properties.length);
            body.put(properties);
        }
        byte[] encoded = new byte[body.position()];
        body.flip();
        body.get(encoded);
        return encoded;
    }
}
