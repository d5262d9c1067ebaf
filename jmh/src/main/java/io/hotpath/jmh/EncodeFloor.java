package io.hotpath.jmh;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The "floor" rows of the encode benchmarks: the least work that yields upstream's output, with
 * what an encoder would have to find out given for free. Not encoders; they exist so the summary
 * shows how far a speed-up target is from the cheapest work there is.
 *
 * <p>Given for free: that every key and value of the map is Latin-1 (for a String) or ASCII
 * (for UTF-8 bytes). With that, each key and value is one {@code arraycopy} of the String's own
 * bytes ({@code String.getBytes(int, int, byte[], int)}, which is wrong for any other String),
 * into a buffer owned by the benchmark. What is left is what every drop-in must do: iterate the
 * map in its order, copy every char, allocate the one result. The corpus has no null keys or
 * values; the benchmarks' setup guards check the floor's output against upstream's.
 */
final class EncodeFloor {

    private static final String WAIT = "WAIT";

    private final byte[] buffer = new byte[1 << 16];

    /** Whether every key and value of {@code map} consists of chars below {@code limit}. */
    static boolean allCharsBelow(Map<String, String> map, int limit) {
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (!below(e.getKey(), limit) || !below(e.getValue(), limit)) {
                return false;
            }
        }
        return true;
    }

    private static boolean below(String s, int limit) {
        return s.chars().allMatch(c -> c < limit);
    }

    /** {@code key\1value\2} per entry, the 4.9.0 layout, for a Latin-1 map. */
    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int): the String's bytes, for Latin-1 only
    String latin1String(Map<String, String> map) {
        final byte[] b = buffer;
        int pos = 0;
        for (Map.Entry<String, String> e : map.entrySet()) {
            final String key = e.getKey();
            final String value = e.getValue();
            final int keyLength = key.length();
            final int valueLength = value.length();
            key.getBytes(0, keyLength, b, pos);
            pos += keyLength;
            b[pos++] = 1;
            value.getBytes(0, valueLength, b, pos);
            pos += valueLength;
            b[pos++] = 2;
        }
        return new String(b, 0, pos, StandardCharsets.ISO_8859_1);
    }

    /** The persisted block (WAIT skipped, {@code \2} between entries only) for an ASCII map. */
    @SuppressWarnings("deprecation")
    byte[] asciiBlock(Map<String, String> map) {
        final byte[] b = buffer;
        int pos = 0;
        for (Map.Entry<String, String> e : map.entrySet()) {
            final String key = e.getKey();
            if (WAIT.equals(key)) {
                continue;
            }
            final String value = e.getValue();
            if (pos > 0) {
                b[pos++] = 2;
            }
            final int keyLength = key.length();
            final int valueLength = value.length();
            key.getBytes(0, keyLength, b, pos);
            pos += keyLength;
            b[pos++] = 1;
            value.getBytes(0, valueLength, b, pos);
            pos += valueLength;
        }
        return Arrays.copyOf(b, pos);
    }
}
