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
package io.hotpath.codec;

/**
 * A per-thread, reusable char buffer for the encoders. Broker threads are pooled, so after
 * warm-up encoding allocates only the result String.
 *
 * <p>Invariants: a buffer is handed out at most once at a time ({@code inUse}); a re-entrant
 * call on the same thread (a Map whose iteration encodes again) gets a private buffer instead
 * of corrupting the outer one. Buffers that grew past {@link #RETAINED_MAX} chars are not kept,
 * so one huge message does not pin memory on a pooled thread.
 */
final class EncodeBuffer {

    static final int INITIAL = 512;
    static final int RETAINED_MAX = 16 * 1024;

    private static final ThreadLocal<EncodeBuffer> PER_THREAD = new ThreadLocal<EncodeBuffer>() {
        @Override
        protected EncodeBuffer initialValue() {
            return new EncodeBuffer();
        }
    };

    char[] chars = new char[INITIAL];
    private boolean inUse;

    static EncodeBuffer acquire() {
        EncodeBuffer buffer = PER_THREAD.get();
        if (buffer.inUse) {
            return new EncodeBuffer(); // re-entrant call: rare, so a fresh one is fine
        }
        buffer.inUse = true;
        return buffer;
    }

    void release() {
        if (chars.length > RETAINED_MAX) {
            chars = new char[INITIAL];
        }
        inUse = false;
    }

    /** Grows to hold {@code needed} chars keeping the first {@code used}; cold path. */
    char[] grow(int used, int needed) {
        if (needed < 0) {
            // more than Integer.MAX_VALUE chars: StringBuilder fails the same way
            throw new OutOfMemoryError("Requested array size exceeds VM limit");
        }
        int size = Math.max(needed, chars.length * 2);
        if (size < 0) {
            size = needed;
        }
        char[] bigger = new char[size];
        System.arraycopy(chars, 0, bigger, 0, used);
        chars = bigger;
        return bigger;
    }
}
