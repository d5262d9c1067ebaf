package io.hotpath.codec;

import java.util.Map;

/** Prints test inputs readably: separators and other control or non-ASCII chars as \\uXXXX. */
public final class Escapes {

    private Escapes() {
    }

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
