package io.hotpath.jmh;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code @Setup} guards (Netty {@code SwappedByteBufBenchmark}): before anything is measured,
 * the candidate must give the same output as the upstream it replaces on every corpus input,
 * or the trial fails, so a wrong implementation can never look fast.
 */
public final class Guards {

    private Guards() {
    }

    /** Same String for every input. */
    public static <I> void requireSameStrings(String what, I[] inputs,
            Function<I, String> upstream, Function<I, String> candidate) {
        for (int i = 0; i < inputs.length; i++) {
            String expected = upstream.apply(inputs[i]);
            String actual = candidate.apply(inputs[i]);
            if (!Objects.equals(expected, actual)) {
                throw mismatch(what, i, inputs[i], escape(expected), escape(actual));
            }
        }
    }

    /**
     * Same map for every input: same class, equal content AND the same iteration order (which is
     * what every later re-serialisation writes).
     */
    public static <I> void requireSameMaps(String what, I[] inputs,
            Function<I, Map<String, String>> upstream, Function<I, Map<String, String>> candidate) {
        for (int i = 0; i < inputs.length; i++) {
            Map<String, String> expected = upstream.apply(inputs[i]);
            Map<String, String> actual = candidate.apply(inputs[i]);
            if (expected.getClass() != actual.getClass() || !expected.equals(actual)
                    || !entries(expected).equals(entries(actual))) {
                throw mismatch(what, i, inputs[i], escape(expected), escape(actual));
            }
        }
    }

    /** Equal content, iteration order not compared (upstream releases size their maps differently). */
    public static <I> void requireEqualMaps(String what, I[] inputs,
            Function<I, Map<String, String>> upstream, Function<I, Map<String, String>> other) {
        for (int i = 0; i < inputs.length; i++) {
            Map<String, String> expected = upstream.apply(inputs[i]);
            Map<String, String> actual = other.apply(inputs[i]);
            if (!expected.equals(actual)) {
                throw mismatch(what, i, inputs[i], escape(expected), escape(actual));
            }
        }
    }

    private static List<Map.Entry<String, String>> entries(Map<String, String> map) {
        List<Map.Entry<String, String>> list = new ArrayList<>(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            list.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()));
        }
        return list;
    }

    private static IllegalStateException mismatch(String what, int index, Object input, String expected, String actual) {
        String in = input instanceof String ? escape((String) input)
            : input instanceof Map ? escape(castMap(input)) : String.valueOf(input);
        return new IllegalStateException("guard failed, " + what + " differ on input " + index + " " + in
            + "\n  upstream:  " + expected + "\n  candidate: " + actual);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> castMap(Object o) {
        return (Map<String, String>) o;
    }

    /** Separators and other control or non-ASCII chars as {@code \\uXXXX}. */
    public static String escape(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '\\') {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    public static String escape(Map<String, String> map) {
        if (map == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(map.getClass().getSimpleName()).append('{');
        for (Map.Entry<String, String> e : map.entrySet()) {
            sb.append(escape(e.getKey())).append('=').append(escape(e.getValue())).append(", ");
        }
        return sb.append('}').toString();
    }
}
