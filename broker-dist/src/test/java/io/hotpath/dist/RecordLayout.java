package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where the store comparisons find the fields of a CommitLog record (the same layout in 4.9.x and 5.x for a record
 * with IPv4 born and store hosts and a 1-byte topic length, which the comparisons assert), and its properties block.
 */
final class RecordLayout {

    static final int QUEUEOFFSET = 20;
    static final int PHYSICALOFFSET = 28;
    static final int SYSFLAG = 36;
    static final int BORNTIMESTAMP = 40;
    static final int STORETIMESTAMP = 56;
    static final int STOREHOST = 64;
    static final int PREPARED_TX_OFFSET = 76;
    static final int BODYLEN = 84;

    private RecordLayout() {
    }

    /**
     * A copy with the fields every store writes for itself overwritten: store timestamp, queue and physical offsets;
     * checks that both hosts are IPv4 (the layout above).
     */
    static byte[] masked(byte[] record) {
        byte[] copy = record.clone();
        ByteBuffer b = ByteBuffer.wrap(copy);
        assertThat(b.getInt(SYSFLAG) & (1 << 4 | 1 << 5)).as("IPv4 born and store hosts").isZero();
        b.putLong(QUEUEOFFSET, -1);
        b.putLong(PHYSICALOFFSET, -1);
        b.putLong(STORETIMESTAMP, -1);
        return copy;
    }

    /** Offset of PROPLEN: after the body and the 1-byte-length topic; checks that TOTALSIZE and PROPLEN end the record. */
    static int propertiesOffset(byte[] record) {
        ByteBuffer b = ByteBuffer.wrap(record);
        assertThat(b.getInt(0)).as("TOTALSIZE").isEqualTo(record.length);
        int pos = BODYLEN;
        pos += 4 + b.getInt(pos);
        pos += 1 + (b.get(pos) & 0xff);
        assertThat(pos + 2 + b.getShort(pos)).as("PROPLEN ends the record").isEqualTo(record.length);
        return pos;
    }

    /** The properties block as UTF-8 text. */
    static String properties(byte[] record) {
        int at = propertiesOffset(record);
        return new String(record, at + 2, record.length - at - 2, StandardCharsets.UTF_8);
    }

    /** {@code \1} and {@code \2} made visible for assertion messages. */
    static String escaped(String s) {
        return s.replace("\1", "\\1").replace("\2", "\\2");
    }
}
