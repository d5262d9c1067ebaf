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

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Per-thread working space of {@link PersistedProperties}: the block as chars, a byte array for
 * its UTF-8 form, buffers wrapping both, and a UTF-8 encoder. Broker threads are pooled, so after
 * warm-up encoding allocates only the exact-size result.
 *
 * <p>The encoder replaces malformed input (unpaired surrogates) with its replacement, {@code '?'}
 * for UTF-8: what {@code String.getBytes(UTF_8)} writes.
 *
 * <p>Invariants: {@code bytes.length >= 3 * chars.length} (UTF-8 needs at most 3 bytes per
 * char), and the buffers wrap the current arrays. A scratch is handed out at most once at a time
 * ({@code inUse}); a re-entrant call on the same thread (a Map whose iteration encodes again) gets
 * a private one. Arrays grown past {@link #RETAINED_MAX_CHARS} are dropped on release, so one huge
 * message does not pin memory on a pooled thread; the largest legal block (32767 bytes) fits.
 */
final class EncodeScratch {

    static final int INITIAL_CHARS = 512;
    static final int RETAINED_MAX_CHARS = 32 * 1024;

    private static final ThreadLocal<EncodeScratch> PER_THREAD = new ThreadLocal<EncodeScratch>() {
        @Override
        protected EncodeScratch initialValue() {
            return new EncodeScratch();
        }
    };

    final CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    char[] chars;
    byte[] bytes;
    CharBuffer charBuffer;
    ByteBuffer byteBuffer;
    private boolean inUse;

    private EncodeScratch() {
        allocate(INITIAL_CHARS);
    }

    static EncodeScratch acquire() {
        EncodeScratch scratch = PER_THREAD.get();
        if (scratch.inUse) {
            return new EncodeScratch(); // re-entrant call: rare, so a fresh one is fine
        }
        scratch.inUse = true;
        return scratch;
    }

    void release() {
        if (chars.length > RETAINED_MAX_CHARS) {
            allocate(INITIAL_CHARS);
        }
        inUse = false;
    }

    /** Grows to hold {@code needed} chars keeping the first {@code used}; cold path. */
    char[] grow(int used, long needed) {
        // bytes must stay 3x chars; beyond that a String could not hold the block either
        if (needed > (Integer.MAX_VALUE - 8) / 3) {
            throw new OutOfMemoryError("Requested array size exceeds VM limit");
        }
        char[] old = chars;
        allocate((int) Math.min(Math.max(needed, 2L * old.length), (Integer.MAX_VALUE - 8) / 3));
        System.arraycopy(old, 0, chars, 0, used);
        return chars;
    }

    private void allocate(int charCapacity) {
        chars = new char[charCapacity];
        bytes = new byte[3 * charCapacity];
        charBuffer = CharBuffer.wrap(chars);
        byteBuffer = ByteBuffer.wrap(bytes);
    }
}
