package io.hotpath.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The oracle's side of the "upstream record minus its WAIT segments" rule, stated once for the suites that check it:
 * split a stored properties block at {@code \2}, drop every segment starting with {@code WAIT\1}, join the rest with
 * {@code \2}, drop one trailing {@code \2}.
 */
final class StoredBlocks {

    private StoredBlocks() {
    }

    /** {@code block} with its WAIT segments (and one separator each) and a trailing separator removed. */
    static byte[] withoutWait(byte[] block) {
        if (block.length == 0) {
            return block;
        }
        // ISO-8859-1 maps bytes 1:1 to chars; \1 and \2 never occur inside a multi-byte UTF-8 sequence
        List<String> kept = new ArrayList<>();
        for (String segment : new String(block, StandardCharsets.ISO_8859_1).split("\2", -1)) {
            if (!segment.startsWith("WAIT\1")) {
                kept.add(segment);
            }
        }
        String joined = String.join("\2", kept);
        if (joined.endsWith("\2")) {
            joined = joined.substring(0, joined.length() - 1);
        }
        return joined.getBytes(StandardCharsets.ISO_8859_1);
    }
}
