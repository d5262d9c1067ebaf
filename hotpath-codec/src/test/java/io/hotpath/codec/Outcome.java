package io.hotpath.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a call did, in a form two implementations can be compared by: the returned value (for a
 * map: its class, bucket count and entries in iteration order) or the thrown exception's type and
 * message.
 */
public final class Outcome {

    private final String description;

    private Outcome(String description) {
        this.description = description;
    }

    public static Outcome of(Supplier<?> call) {
        try {
            return new Outcome("returned " + describe(call.get()));
        } catch (RuntimeException | Error e) {
            return new Outcome("threw " + e.getClass().getName() + ": " + Escapes.escape(e.getMessage()));
        }
    }

    private static String describe(Object value) {
        if (value instanceof String) {
            return "String \"" + Escapes.escape((String) value) + "\"";
        }
        if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            List<String> entries = new ArrayList<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                entries.add(Escapes.escape(String.valueOf(e.getKey())) + "=" + Escapes.escape(String.valueOf(e.getValue())));
            }
            return map.getClass().getName() + " size=" + map.size() + " capacity=" + capacity(map) + " " + entries;
        }
        return String.valueOf(value);
    }

    /**
     * Bucket count of a HashMap (0 before the first put): with the entry order it fixes how the
     * broker will re-serialise the map. Read reflectively (tests run with
     * --add-opens java.base/java.util); Java serialisation would also record the sharing of equal
     * String instances, which is not part of a map's behaviour.
     */
    static String capacity(Map<?, ?> map) {
        if (!(map instanceof java.util.HashMap)) {
            return "n/a";
        }
        try {
            java.lang.reflect.Field table = java.util.HashMap.class.getDeclaredField("table");
            table.setAccessible(true);
            Object[] buckets = (Object[]) table.get(map);
            return String.valueOf(buckets == null ? 0 : buckets.length);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Outcome && ((Outcome) o).description.equals(description);
    }

    @Override
    public int hashCode() {
        return Objects.hash(description);
    }

    @Override
    public String toString() {
        return description;
    }
}
