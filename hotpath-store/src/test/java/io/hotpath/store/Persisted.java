package io.hotpath.store;

import io.hotpath.codec.Escapes;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * What a persist call did, comparable across implementations: the bytes it returned, or the
 * exception it threw (type and message). Cheap to compare; printed as length, hex and the
 * escaped UTF-8 text only when a comparison fails.
 */
final class Persisted {

    private final byte[] bytes;
    private final String thrown;

    private Persisted(byte[] bytes, String thrown) {
        this.bytes = bytes;
        this.thrown = thrown;
    }

    static Persisted of(Supplier<byte[]> call) {
        try {
            return new Persisted(call.get(), null);
        } catch (RuntimeException | Error e) {
            return new Persisted(null, e.getClass().getName() + ": " + e.getMessage());
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Persisted)) {
            return false;
        }
        Persisted other = (Persisted) o;
        return thrown == null ? other.thrown == null && Arrays.equals(bytes, other.bytes) : thrown.equals(other.thrown);
    }

    @Override
    public int hashCode() {
        return thrown == null ? Arrays.hashCode(bytes) : thrown.hashCode();
    }

    @Override
    public String toString() {
        if (thrown != null) {
            return "threw " + Escapes.escape(thrown);
        }
        return bytes.length + " bytes " + HexFormat.of().formatHex(bytes)
            + " (\"" + Escapes.escape(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)) + "\")";
    }
}
