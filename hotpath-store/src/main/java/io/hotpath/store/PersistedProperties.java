/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.store;

import java.nio.Buffer;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageConst;

/**
 * The properties block of a CommitLog record, written straight from the message's property map
 * as UTF-8 bytes, without WAIT and without a trailing separator. In the Apache RocketMQ 4.9.x
 * broker it replaces {@code MessageDecoder.messageProperties2String(map)} followed by
 * {@code getBytes(UTF_8)} (4.9.0 encodes in {@code CommitLog.DefaultAppendMessageCallback#doAppend},
 * 4.9.8 in {@code CommitLog.MessageExtEncoder#encode}), on every path that persists a message (see
 * this module's README).
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
 *   <li>UTF-8 exactly as {@code String.getBytes(UTF_8)} of upstream's String: the block is laid
 *       out as the same chars and encoded in one pass by the JDK's UTF-8 encoder, replacing
 *       malformed input with {@code '?'}: a surrogate pair becomes 4 bytes, an unpaired surrogate
 *       {@code '?'};</li>
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
    private static final char NAME_VALUE_SEPARATOR = 1;
    private static final char PROPERTY_SEPARATOR = 2;
    private static final byte[] EMPTY = new byte[0];
    /** {@code WAIT\1} in UTF-8 (ASCII), the start of a WAIT segment in a client-encoded block. */
    private static final byte[] WAIT_SEGMENT_PREFIX = {'W', 'A', 'I', 'T', NAME_VALUE_SEPARATOR};

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
        final EncodeScratch scratch = EncodeScratch.acquire();
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
        final EncodeScratch scratch = EncodeScratch.acquire();
        try {
            final int length = encode(properties, scratch);
            target.put(scratch.bytes, 0, length); // bulk put: all or nothing
            return length;
        } finally {
            scratch.release();
        }
    }

    /**
     * The block a client encoded ({@code \1}/{@code \2} format, any 4.x producer), as stored where the
     * broker keeps the client's String instead of encoding a map (4.9.8's reply path): its UTF-8 bytes
     * split at {@code \2}, without the segments starting with {@code WAIT\1}, joined by {@code \2},
     * and without one trailing {@code \2} - the String's bytes minus exactly each WAIT segment with one
     * separator, and minus the terminator a 4.9.0 client writes. A null block gives an empty one, as
     * upstream stores a null String.
     */
    public static byte[] clientProperties2Bytes(String clientBlock) {
        if (clientBlock == null || clientBlock.isEmpty()) {
            return EMPTY;
        }
        final byte[] utf8 = clientBlock.getBytes(StandardCharsets.UTF_8);
        // compacted in place: only segments and separators are dropped, so every kept byte moves left or stays; a store
        // encoder that trims every message through here allocates one array fewer per message
        final byte[] out = utf8;
        int length = 0;
        boolean first = true;
        int segmentStart = 0;
        for (int i = 0; i <= utf8.length; i++) {
            if (i < utf8.length && utf8[i] != PROPERTY_SEPARATOR) {
                continue;
            }
            if (!startsWithWait(utf8, segmentStart, i)) {
                if (!first) {
                    out[length++] = PROPERTY_SEPARATOR;
                }
                System.arraycopy(utf8, segmentStart, out, length, i - segmentStart);
                length += i - segmentStart;
                first = false;
            }
            segmentStart = i + 1;
        }
        if (length > 0 && out[length - 1] == PROPERTY_SEPARATOR) {
            length--;
        }
        return length == utf8.length ? utf8 : Arrays.copyOf(utf8, length);
    }

    /**
     * {@code String.length()} of the String whose UTF-8 encoding is {@code block}, as made by this
     * class (one byte per char that is not a continuation byte, two chars for a 4-byte sequence: a
     * surrogate pair). Upstream checks the String's length before the bytes' (4.9.8:
     * {@code DefaultMessageStore#checkMessage} rejects over 32767 chars with MESSAGE_ILLEGAL, the
     * encoder over 32767 bytes with PROPERTIES_SIZE_EXCEEDED); with bytes only, this tells the two
     * apart, so an oversized block fails with upstream's status.
     */
    public static int utf16Length(byte[] block) {
        int chars = 0;
        for (final byte b : block) {
            if ((b & 0xC0) != 0x80) {
                chars += (b & 0xF8) == 0xF0 ? 2 : 1;
            }
        }
        return chars;
    }

    /**
     * Length of the stored block of one message of a batch: {@code inner[offset, offset + length)}
     * is the properties block the client encoded for that message (a 4.9.0 client ends it with
     * {@code \2} and includes {@code WAIT}), {@code outer} the batch's own block from
     * {@link #messageProperties2Bytes} (CLUSTER, ...). See {@link #putBatchMessage}.
     */
    public static int batchMessageLength(byte[] inner, int offset, int length, byte[] outer) {
        return putBatchMessage(inner, offset, length, outer, null);
    }

    /**
     * Writes the stored block of one message of a batch at {@code target}'s position (a null target
     * only counts) and returns its length. In the 4.9.x broker it replaces the batch encoder's
     * "inner bytes, then the outer String's bytes" (4.9.0: {@code CommitLog.MessageExtBatchEncoder},
     * 4.9.8: {@code CommitLog.MessageExtEncoder#encode(MessageExtBatch, ..)}).
     *
     * <p>The block is the inner block's {@code \2}-separated segments, except those starting with
     * {@code WAIT\1}, then the outer block as one more segment, joined by {@code \2}, without a
     * trailing {@code \2}; a {@code \2} ending the inner block ends it rather than starting an empty
     * segment. That is what upstream 4.9.8 stores for the message (inner bytes, a {@code \2} when
     * the inner block does not end with one - the 4.9.3 fix - then the outer String) with each
     * {@code WAIT\1..} segment and one adjacent separator removed, and without a trailing separator
     * (the broker's batch map always holds CLUSTER with a value; for a map that encodes to nothing - empty,
     * or only null values - 4.9.8 would keep the inner terminator, we do not). The inner block has no map behind it (the broker never
     * parses it), so WAIT is found in the bytes: {@code \1} and {@code \2} are single bytes that
     * never occur inside a multi-byte UTF-8 sequence, so a byte scan sees the same segments as a
     * String scan would.
     */
    public static int putBatchMessage(byte[] inner, int offset, int length, byte[] outer, ByteBuffer target) {
        int written = 0;
        // a segment was kept (it may be empty, so "written > 0" cannot tell)
        boolean kept = false;
        // separators between kept segments, written only once non-empty content follows, so that the
        // block never ends with one
        int owed = 0;
        if (length > 0) {
            int end = offset + length;
            if (inner[end - 1] == PROPERTY_SEPARATOR) {
                end--; // the inner block's own terminator, not an empty last segment
            }
            int segmentStart = offset;
            for (int i = offset; i <= end; i++) {
                if (i < end && inner[i] != PROPERTY_SEPARATOR) {
                    continue;
                }
                if (!startsWithWait(inner, segmentStart, i)) {
                    if (kept) {
                        owed++;
                    }
                    kept = true;
                    if (i > segmentStart) {
                        written += putSeparators(target, owed);
                        owed = 0;
                        written += put(target, inner, segmentStart, i - segmentStart);
                    }
                }
                segmentStart = i + 1;
            }
        }
        if (outer.length > 0) {
            if (kept) {
                owed++;
            }
            written += putSeparators(target, owed);
            written += put(target, outer, 0, outer.length);
        } else if (owed > 1) {
            // trailing empty segments: all their separators but the last, which would end the block
            written += putSeparators(target, owed - 1);
        }
        return written;
    }

    private static boolean startsWithWait(byte[] bytes, int from, int to) {
        if (to - from < WAIT_SEGMENT_PREFIX.length) {
            return false;
        }
        for (int i = 0; i < WAIT_SEGMENT_PREFIX.length; i++) {
            if (bytes[from + i] != WAIT_SEGMENT_PREFIX[i]) {
                return false;
            }
        }
        return true;
    }

    private static int putSeparators(ByteBuffer target, int count) {
        if (target != null) {
            for (int i = 0; i < count; i++) {
                target.put((byte) PROPERTY_SEPARATOR);
            }
        }
        return count;
    }

    private static int put(ByteBuffer target, byte[] bytes, int offset, int length) {
        if (target != null && length > 0) {
            target.put(bytes, offset, length);
        }
        return length;
    }

    /**
     * Lays the block out as chars, as upstream's StringBuilder would hold it, then UTF-8-encodes
     * it in one call: the JDK's encoder copies ASCII runs with an intrinsic, where a per-char loop
     * over Strings cannot. Returns the byte length; the bytes are in {@code scratch.bytes}.
     */
    private static int encode(Map<String, String> properties, EncodeScratch scratch) {
        char[] chars = scratch.chars;
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
            final int nameLength = written.length();
            final int valueLength = value.length();
            final long needed = (long) pos + nameLength + valueLength + 2;
            if (needed > chars.length) {
                chars = scratch.grow(pos, needed);
            }
            if (pos > 0) {
                // every entry writes at least its \1, so pos > 0 means one was written before
                chars[pos++] = PROPERTY_SEPARATOR;
            }
            written.getChars(0, nameLength, chars, pos);
            pos += nameLength;
            chars[pos++] = NAME_VALUE_SEPARATOR;
            value.getChars(0, valueLength, chars, pos);
            pos += valueLength;
        }
        return pos == 0 ? 0 : toUtf8(scratch, pos);
    }

    /** UTF-8 of {@code scratch.chars[0, length)} into {@code scratch.bytes}; returns the byte count. */
    private static int toUtf8(EncodeScratch scratch, int length) {
        final CharBuffer in = scratch.charBuffer;
        final ByteBuffer out = scratch.byteBuffer;
        // as Buffer: upstream's -source/-target 1.8 build on JDK 17 would link Java 9+'s CharBuffer/ByteBuffer overrides
        ((Buffer) in).clear();
        ((Buffer) in).limit(length);
        ((Buffer) out).clear();
        final CharsetEncoder encoder = scratch.encoder;
        encoder.reset();
        // bytes hold 3 per char, so neither call can overflow; REPLACE never reports an error
        CoderResult result = encoder.encode(in, out, true);
        if (result.isUnderflow()) {
            result = encoder.flush(out);
        }
        if (!result.isUnderflow()) {
            throw encoderFailed(result);
        }
        return out.position();
    }

    private static IllegalStateException encoderFailed(CoderResult result) {
        return new IllegalStateException("UTF-8 encoder returned " + result);
    }
}
