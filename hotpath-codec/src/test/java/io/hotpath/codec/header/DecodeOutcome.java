package io.hotpath.codec.header;

import io.hotpath.codec.Escapes;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What a header decode did, in a form two implementations can be compared by: the returned
 * header's class, every instance field up the class hierarchy and every getter (with the value's
 * type, so Integer 7 differs from Long 7), or the thrown exception's type and message; plus the
 * lines logged on RocketmqRemoting, in order. Compared unescaped (strings length-prefixed, so
 * the text is unambiguous); escaped only when printed, as escaping long values on every try
 * would cost more than the decoding.
 */
final class DecodeOutcome {

    @FunctionalInterface
    interface Decode {
        Object call() throws Exception;
    }

    /** Records the lines a call logs on RocketmqRemoting; each release logs through its own logging API. */
    @FunctionalInterface
    interface LogRecorder {
        List<String> during(Runnable call);
    }

    private final String result;
    private final List<String> logged;

    private DecodeOutcome(String result, List<String> logged) {
        this.result = result;
        this.logged = logged;
    }

    /** On the 4.9.x logging API ({@link RemotingLog}). */
    static DecodeOutcome of(Decode decode) {
        return of(decode, RemotingLog::during);
    }

    /** Through {@code log}: for releases whose logging API differs from 4.9.x's (5.x logs through shaded slf4j). */
    static DecodeOutcome of(Decode decode, LogRecorder log) {
        String[] result = new String[1];
        List<String> logged = log.during(() -> {
            try {
                result[0] = "returned " + describe(decode.call());
            } catch (Exception | Error e) {
                result[0] = "threw " + e.getClass().getName() + ": " + e.getMessage();
            }
        });
        return new DecodeOutcome(result[0], logged);
    }

    String result() {
        return result;
    }

    List<String> logged() {
        return logged;
    }

    /** extFields printed escaped; values that are not Strings (raw-typed callers) show their type. */
    static String describeExtFields(java.util.Map<?, ?> extFields) {
        if (extFields == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("{");
        for (java.util.Map.Entry<?, ?> e : extFields.entrySet()) {
            sb.append(value(e.getKey())).append('=').append(value(e.getValue())).append(", ");
        }
        return Escapes.escape(sb.append('}').toString());
    }

    static String describe(Object header) {
        if (header == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(header.getClass().getName()).append(" fields{");
        for (Class<?> c = header.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    sb.append(c.getSimpleName()).append('.').append(f.getName()).append('=').append(value(read(f, header))).append(", ");
                }
            }
        }
        sb.append("} getters{");
        Method[] methods = header.getClass().getMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));
        for (Method m : methods) {
            if (isGetter(m)) {
                sb.append(m.getName()).append("()=").append(value(invoke(m, header))).append(", ");
            }
        }
        return sb.append('}').toString();
    }

    private static boolean isGetter(Method m) {
        return m.getParameterCount() == 0 && m.getDeclaringClass() != Object.class && !Modifier.isStatic(m.getModifiers())
            && (m.getName().startsWith("get") || m.getName().startsWith("is"));
    }

    private static String value(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return ((String) v).length() + ":\"" + v + "\"";
        }
        return v.getClass().getSimpleName() + " " + v;
    }

    private static Object read(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object invoke(Method m, Object o) {
        try {
            return m.invoke(o);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecodeOutcome && ((DecodeOutcome) o).result.equals(result) && ((DecodeOutcome) o).logged.equals(logged);
    }

    @Override
    public int hashCode() {
        return Objects.hash(result, logged);
    }

    @Override
    public String toString() {
        List<String> lines = new ArrayList<>();
        lines.add(Escapes.escape(result));
        for (String l : logged) {
            lines.add("  logged " + Escapes.escape(l));
        }
        return String.join("\n", lines);
    }
}
