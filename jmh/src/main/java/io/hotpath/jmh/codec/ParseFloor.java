package io.hotpath.jmh.codec;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import io.hotpath.codec.PropertiesCodec490;
import io.hotpath.jmh.Guards;

/**
 * The "floor" rows of the parse benchmarks: what a drop-in parse must do at least, with what it
 * would have to find out given for free. Not parsers; they exist so the summary shows how far a
 * speed-up target is from the cheapest work that yields upstream's map.
 *
 * <p>Given for free, per corpus string: each entry's key as the object hotpath's map holds (the
 * interned constant for system names), its value's position, and the "true"/"false" constant
 * where hotpath returns one. Only for corpora without junk segments (every segment is
 * {@code key\1value\2}); the constructor fails otherwise, and whenever a floor builds another map
 * than hotpath (content or iteration order).
 */
final class ParseFloor {

    private final String[] strings;
    private final String[][] keys;
    private final int[][] valueBounds;
    private final String[][] valueConstants;

    ParseFloor(String[] strings) {
        this.strings = strings;
        keys = new String[strings.length][];
        valueBounds = new int[strings.length][];
        valueConstants = new String[strings.length][];
        for (int i = 0; i < strings.length; i++) {
            final String string = strings[i];
            Map<String, String> parsed = PropertiesCodec490.string2messageProperties(string);
            String[] segments = string.split("\2");
            keys[i] = new String[segments.length];
            valueBounds[i] = new int[2 * segments.length];
            valueConstants[i] = new String[segments.length];
            int at = 0;
            for (int k = 0; k < segments.length; k++) {
                int nv = segments[k].indexOf('\1');
                String key = nv < 0 ? null : segments[k].substring(0, nv);
                keys[i][k] = parsed.keySet().stream().filter(name -> name.equals(key)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("floor: a junk segment in " + Guards.escape(string)));
                valueBounds[i][2 * k] = at + nv + 1;
                valueBounds[i][2 * k + 1] = at + segments[k].length();
                String value = parsed.get(key);
                valueConstants[i][k] = "true".equals(value) || "false".equals(value) ? value : null;
                at += segments[k].length() + 1;
            }
        }
        Integer[] indexes = new Integer[strings.length];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = i;
        }
        Function<Integer, Map<String, String>> hotpath = i -> PropertiesCodec490.string2messageProperties(strings[i]);
        Guards.requireSameMaps("hotpath vs floorNoScan", indexes, hotpath, this::noScan);
        Guards.requireSameMaps("hotpath vs floorFindSeparators", indexes, hotpath, this::findSeparators);
    }

    /**
     * A fresh {@code new HashMap()}, one value String per entry (or the constant) and the puts:
     * no scanning, no key identification.
     */
    Map<String, String> noScan(int i) {
        final String s = strings[i];
        final String[] k = keys[i];
        final int[] bounds = valueBounds[i];
        final String[] constants = valueConstants[i];
        final Map<String, String> map = new HashMap<String, String>();
        for (int e = 0; e < k.length; e++) {
            final String constant = constants[e];
            map.put(k[e], constant != null ? constant : s.substring(bounds[2 * e], bounds[2 * e + 1]));
        }
        return map;
    }

    /**
     * {@link #noScan} plus finding every separator once with the JDK's {@code indexOf} (an
     * intrinsic, the fastest search Java 8 code has): the least scanning that locates the values.
     * Still no key identification and none of upstream's checks for malformed segments.
     */
    Map<String, String> findSeparators(int i) {
        final String s = strings[i];
        final String[] k = keys[i];
        final String[] constants = valueConstants[i];
        final Map<String, String> map = new HashMap<String, String>();
        int from = 0;
        for (int e = 0; e < k.length; e++) {
            final int separator = s.indexOf(PropertiesCodec490.NAME_VALUE_SEPARATOR, from);
            int end = s.indexOf(PropertiesCodec490.PROPERTY_SEPARATOR, separator + 1);
            if (end < 0) {
                end = s.length();
            }
            final String constant = constants[e];
            map.put(k[e], constant != null ? constant : s.substring(separator + 1, end));
            from = end + 1;
        }
        return map;
    }
}
