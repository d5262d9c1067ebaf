package io.hotpath.codec;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a call did, in a form two implementations can be compared by: the returned value (for a
 * map: its class, bucket count and entries in iteration order) or the thrown exception's type and
 * message. Values are compared raw; escaping happens only when a mismatch is printed.
 */
public final class Outcome {

    private static final Field HASH_MAP_TABLE = hashMapTable();

    private final String kind;
    private final Object value;

    private Outcome(String kind, Object value) {
        this.kind = kind;
        this.value = value;
    }

    public static Outcome of(Supplier<?> call) {
        Object result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            return new Outcome("threw " + e.getClass().getName(), e.getMessage());
        }
        if (result instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) result;
            List<Object> state = new ArrayList<>(2 + 2 * map.size());
            state.add(map.getClass().getName());
            state.add(capacity(map));
            for (Map.Entry<?, ?> e : map.entrySet()) {
                state.add(e.getKey());
                state.add(e.getValue());
            }
            return new Outcome("returned map", state);
        }
        return new Outcome("returned " + (result == null ? "null" : result.getClass().getName()), result);
    }

    /**
     * Bucket count of a HashMap (0 before the first put): with the entry order it fixes how the
     * broker will re-serialise the map. Read reflectively (tests run with
     * --add-opens java.base/java.util); Java serialisation would also record the sharing of equal
     * String instances, which is not part of a map's behaviour.
     */
    static int capacity(Map<?, ?> map) {
        if (!(map instanceof HashMap)) {
            return -1;
        }
        try {
            Object[] buckets = (Object[]) HASH_MAP_TABLE.get(map);
            return buckets == null ? 0 : buckets.length;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Field hashMapTable() {
        try {
            Field table = HashMap.class.getDeclaredField("table");
            table.setAccessible(true);
            return table;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("tests need --add-opens java.base/java.util=ALL-UNNAMED", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Outcome)) {
            return false;
        }
        Outcome other = (Outcome) o;
        return kind.equals(other.kind) && Objects.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, value);
    }

    @Override
    public String toString() {
        if (value instanceof List) {
            List<?> state = (List<?>) value;
            StringBuilder sb = new StringBuilder(kind).append(' ').append(state.get(0))
                .append(" capacity=").append(state.get(1)).append(" {");
            for (int i = 2; i < state.size(); i += 2) {
                sb.append(escape(state.get(i))).append('=').append(escape(state.get(i + 1))).append(", ");
            }
            return sb.append('}').toString();
        }
        return kind + " \"" + escape(value) + "\"";
    }

    private static String escape(Object o) {
        return o instanceof String ? Escapes.escape((String) o) : String.valueOf(o);
    }
}
