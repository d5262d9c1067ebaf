package io.hotpath.store;

/**
 * A per-thread, reusable byte buffer for {@link PersistedProperties}: broker threads are pooled,
 * so after warm-up encoding allocates only the exact-size result.
 *
 * <p>Invariants: a buffer is handed out at most once at a time ({@code inUse}); a re-entrant call
 * on the same thread (a Map whose iteration encodes again) gets a private buffer instead of
 * corrupting the outer one. Buffers grown past {@link #RETAINED_MAX} bytes are dropped on release,
 * so one huge message does not pin memory on a pooled thread; the largest legal block (32767
 * bytes) sized at the 3-bytes-per-char worst case still fits.
 */
final class ScratchBytes {

    static final int INITIAL = 1024;
    static final int RETAINED_MAX = 128 * 1024;

    private static final ThreadLocal<ScratchBytes> PER_THREAD = new ThreadLocal<ScratchBytes>() {
        @Override
        protected ScratchBytes initialValue() {
            return new ScratchBytes();
        }
    };

    byte[] bytes = new byte[INITIAL];
    private boolean inUse;

    static ScratchBytes acquire() {
        ScratchBytes scratch = PER_THREAD.get();
        if (scratch.inUse) {
            return new ScratchBytes(); // re-entrant call: rare, so a fresh one is fine
        }
        scratch.inUse = true;
        return scratch;
    }

    void release() {
        if (bytes.length > RETAINED_MAX) {
            bytes = new byte[INITIAL];
        }
        inUse = false;
    }

    /** Grows to hold {@code needed} bytes keeping the first {@code used}; cold path. */
    byte[] grow(int used, long needed) {
        if (needed > Integer.MAX_VALUE - 8) {
            // a String of the same content could not have been encoded either
            throw new OutOfMemoryError("Requested array size exceeds VM limit");
        }
        int size = (int) Math.min(Math.max(needed, 2L * bytes.length), Integer.MAX_VALUE - 8);
        byte[] bigger = new byte[size];
        System.arraycopy(bytes, 0, bigger, 0, used);
        bytes = bigger;
        return bigger;
    }
}
