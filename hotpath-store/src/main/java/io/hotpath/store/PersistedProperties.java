package io.hotpath.store;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageConst;

/**
 * The properties block of a CommitLog record, written straight from the message's property map
 * as UTF-8 bytes, without WAIT and without a trailing separator. For the Apache RocketMQ
 * <b>4.9.0</b> broker it replaces {@code MessageDecoder.messageProperties2String(map)} followed
 * by {@code getBytes(UTF_8)} in {@code CommitLog.DefaultAppendMessageCallback#doAppend}, on every
 * path that persists a message (see this module's README).
 *
 * <p>The bytes equal what upstream <b>4.9.8</b> stores on its single-message send path
 * ({@code SendMessageProcessor#asyncSendMessage} removes WAIT from the map, calls
 * {@code messageProperties2String}, puts WAIT back; {@code CommitLog.MessageExtEncoder#encode}
 * calls {@code getBytes(UTF_8)}). Quirks of that path kept on purpose:
 * <ul>
 *   <li>entries follow the map's iteration order; a null value skips the entry; a null key is
 *       written as {@code "null"}; empty keys and values are written; nothing is escaped, so a
 *       {@code \1} or {@code \2} inside a key or value is written raw;</li>
 *   <li>WAIT is skipped whatever its value ({@code "true"}, {@code "false"}, anything);</li>
 *   <li>{@code \2} separates entries but does not end the block;</li>
 *   <li>UTF-8 exactly as {@code String.getBytes(UTF_8)}: a surrogate pair becomes 4 bytes, an
 *       unpaired surrogate becomes {@code '?'}. Pairs never span two strings, because upstream's
 *       String puts a separator (or its end) after every key and value;</li>
 *   <li>a null map gives an empty block.</li>
 * </ul>
 *
 * <p>Unlike 4.9.8 the map is never modified: the broker still reads WAIT
 * ({@code isWaitStoreMsgOK()}) after encoding. 4.9.8's remove and re-put moves WAIT to the end of
 * its HashMap bucket; skipping it leaves every other entry where removal would, so the bytes are
 * the same.
 *
 * <p>The 32767-byte limit ({@link #MAX_LENGTH}) is checked by the caller on the returned length,
 * as 4.9.8 checks {@code propertiesData.length}: a UTF-8 block is never shorter than its String,
 * so this one check covers 4.9.x's separate {@code String.length()} check as well.
 */
public final class PersistedProperties {

    /** Largest properties block a CommitLog record can hold: its length field is a signed short. */
    public static final int MAX_LENGTH = Short.MAX_VALUE;

    private static final String WAIT = MessageConst.PROPERTY_WAIT_STORE_MSG_OK;
    private static final byte NAME_VALUE_SEPARATOR = 1;
    private static final byte PROPERTY_SEPARATOR = 2;
    private static final byte[] EMPTY = new byte[0];

    private PersistedProperties() {
    }

    /**
     * The block as a new array of exactly its length (possibly more than {@link #MAX_LENGTH}; the
     * caller rejects those). Equals 4.9.8's
     * {@code messageProperties2String(properties without WAIT).getBytes(UTF_8)}.
     */
    public static byte[] messageProperties2Bytes(Map<String, String> properties) {
        if (properties == null) {
            return EMPTY;
        }
        final ScratchBytes scratch = ScratchBytes.acquire();
        try {
            final int length = encode(properties, scratch);
            return length == 0 ? EMPTY : Arrays.copyOf(scratch.bytes, length);
        } finally {
            scratch.release();
        }
    }

    /**
     * Writes the block at {@code target}'s position and advances it; returns the number of bytes
     * written. If fewer bytes remain, throws {@link BufferOverflowException} and leaves the buffer
     * unchanged.
     */
    public static int encode(Map<String, String> properties, ByteBuffer target) {
        if (properties == null) {
            return 0;
        }
        final ScratchBytes scratch = ScratchBytes.acquire();
        try {
            final int length = encode(properties, scratch);
            target.put(scratch.bytes, 0, length); // bulk put: all or nothing
            return length;
        } finally {
            scratch.release();
        }
    }

    private static int encode(Map<String, String> properties, ScratchBytes scratch) {
        byte[] dst = scratch.bytes;
        int pos = 0;
        // same iteration, same getKey/getValue calls and casts as upstream, so a hostile map
        // fails with the same exception
        for (final Map.Entry<String, String> entry : properties.entrySet()) {
            final String name = entry.getKey();
            final String value = entry.getValue();
            if (value == null || WAIT.equals(name)) {
                continue;
            }
            final String written = name == null ? "null" : name; // StringBuilder.append(null)
            // at most 3 bytes per char (a 4-byte pair is 2 chars), plus both separators
            final long worst = pos + 3L * (written.length() + value.length()) + 2;
            if (worst > dst.length) {
                dst = scratch.grow(pos, worst);
            }
            if (pos > 0) {
                // every entry writes at least its \1, so pos > 0 means one was written before
                dst[pos++] = PROPERTY_SEPARATOR;
            }
            pos = writeUtf8(written, dst, pos);
            dst[pos++] = NAME_VALUE_SEPARATOR;
            pos = writeUtf8(value, dst, pos);
        }
        return pos;
    }

    /** Capacity was checked by the caller; the ASCII loop stays small so it inlines. */
    private static int writeUtf8(String s, byte[] dst, int pos) {
        final int len = s.length();
        for (int i = 0; i < len; i++) {
            final char c = s.charAt(i);
            if (c >= 0x80) {
                return writeNonAscii(s, i, dst, pos);
            }
            dst[pos++] = (byte) c;
        }
        return pos;
    }

    /** From the first non-ASCII char on, as {@code String.getBytes(UTF_8)} encodes it. */
    private static int writeNonAscii(String s, int from, byte[] dst, int pos) {
        final int len = s.length();
        for (int i = from; i < len; i++) {
            final char c = s.charAt(i);
            if (c < 0x80) {
                dst[pos++] = (byte) c;
            } else if (c < 0x800) {
                dst[pos++] = (byte) (0xc0 | (c >> 6));
                dst[pos++] = (byte) (0x80 | (c & 0x3f));
            } else if (!Character.isSurrogate(c)) {
                dst[pos++] = (byte) (0xe0 | (c >> 12));
                dst[pos++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                dst[pos++] = (byte) (0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                final int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[pos++] = (byte) (0xf0 | (cp >> 18));
                dst[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                dst[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                dst[pos++] = (byte) (0x80 | (cp & 0x3f));
            } else {
                dst[pos++] = '?'; // unpaired surrogate: the UTF-8 encoder's replacement
            }
        }
        return pos;
    }
}
