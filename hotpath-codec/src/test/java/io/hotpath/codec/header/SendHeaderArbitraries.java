package io.hotpath.codec.header;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * extFields maps biased to what breaks header decoders: missing keys (required and optional),
 * numbers the JDK rejects (blank, whitespace, signs alone, decimals, hex, overflow by one past
 * Integer.MIN_VALUE/MAX_VALUE and Long.MIN_VALUE/MAX_VALUE), numbers it accepts unexpectedly
 * (leading +, leading zeros, non-ASCII Unicode digits), boolean spellings, unicode and empty
 * strings, unknown keys (including the other header version's names), values that are not
 * Strings (raw-typed callers), empty and null maps.
 */
final class SendHeaderArbitraries {

    enum Kind { STRING, INTEGER, LONG, BOOLEAN }

    /** 4.9.0 V2 fields in declaration order. */
    static final String[] V2_NAMES = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"};
    /** 4.9.0 V1 fields in declaration order. */
    static final String[] V1_NAMES = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId", "sysFlag",
        "bornTimestamp", "flag", "properties", "reconsumeTimes", "unitMode", "batch", "maxReconsumeTimes"};
    private static final Kind[] V2_KINDS = {Kind.STRING, Kind.STRING, Kind.STRING, Kind.INTEGER, Kind.INTEGER, Kind.INTEGER,
        Kind.LONG, Kind.INTEGER, Kind.STRING, Kind.INTEGER, Kind.BOOLEAN, Kind.INTEGER, Kind.BOOLEAN};
    private static final Kind[] V1_KINDS = {Kind.STRING, Kind.STRING, Kind.STRING, Kind.INTEGER, Kind.INTEGER, Kind.INTEGER,
        Kind.LONG, Kind.INTEGER, Kind.STRING, Kind.INTEGER, Kind.BOOLEAN, Kind.BOOLEAN, Kind.INTEGER};

    /** Unicode decimal digits that Character.digit accepts: ASCII, Arabic-Indic, extended Arabic-Indic, Devanagari, fullwidth. */
    private static final char[] DIGIT_ZEROS = {'0', '\u0660', '\u06f0', '\u0966', '\uff10'};

    private SendHeaderArbitraries() {
    }

    static Arbitrary<HashMap<String, String>> v2ExtFields() {
        return extFields(V2_NAMES, V2_KINDS, V1_NAMES);
    }

    static Arbitrary<HashMap<String, String>> v1ExtFields() {
        return extFields(V1_NAMES, V1_KINDS, V2_NAMES);
    }

    /** V2, V1, or both merged: what any send or reply code might carry. */
    static Arbitrary<HashMap<String, String>> anyExtFields() {
        return v2OrV1OrBoth(v2ExtFields(), v1ExtFields());
    }

    /** {@link #anyExtFields()} over other field lists (other releases' headers). */
    static Arbitrary<HashMap<String, String>> v2OrV1OrBoth(Arbitrary<HashMap<String, String>> v2ExtFields,
                                                           Arbitrary<HashMap<String, String>> v1ExtFields) {
        Arbitrary<HashMap<String, String>> merged = Combinators.combine(v2ExtFields, v1ExtFields).as((v2, v1) -> {
            if (v2 == null || v1 == null) {
                return v2 == null ? v1 : v2;
            }
            HashMap<String, String> m = new HashMap<>(v2);
            m.putAll(v1);
            return m;
        });
        return Arbitraries.frequencyOf(Tuple.of(4, v2ExtFields), Tuple.of(4, v1ExtFields), Tuple.of(1, merged));
    }

    /** Mostly the send and reply codes, sometimes any other. */
    static Arbitrary<Integer> requestCodes() {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.of(310, 320, 325, 10, 324)),
            Tuple.of(1, Arbitraries.of(36, 11, 0, -1, 1)),
            Tuple.of(1, Arbitraries.integers()));
    }

    /**
     * A quarter well-formed as a producer sends them (every field present and valid), the rest nasty. Package-visible
     * for the suites of other releases' headers (hotpath-line-*), whose field lists differ.
     */
    static Arbitrary<HashMap<String, String>> extFields(String[] names, Kind[] kinds, String[] otherNames) {
        return Arbitraries.frequencyOf(
            Tuple.of(1, wellFormed(names, kinds)),
            Tuple.of(3, nasty(names, kinds, otherNames)));
    }

    private static Arbitrary<HashMap<String, String>> wellFormed(String[] names, Kind[] kinds) {
        List<Arbitrary<String>> values = new ArrayList<>();
        for (Kind kind : kinds) {
            values.add(wellFormedValue(kind));
        }
        return Combinators.combine(values).as(fieldValues -> {
            HashMap<String, String> m = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                m.put(names[i], fieldValues.get(i));
            }
            return m;
        });
    }

    private static Arbitrary<String> wellFormedValue(Kind kind) {
        switch (kind) {
            case INTEGER:
                return Arbitraries.integers().between(0, 1024).map(String::valueOf);
            case LONG:
                return Arbitraries.longs().between(1_500_000_000_000L, 1_800_000_000_000L).map(String::valueOf);
            case BOOLEAN:
                return Arbitraries.of("true", "false");
            default:
                return strings();
        }
    }

    private static Arbitrary<HashMap<String, String>> nasty(String[] names, Kind[] kinds, String[] otherNames) {
        List<Arbitrary<String>> values = new ArrayList<>();
        for (Kind kind : kinds) {
            values.add(value(kind).injectNull(0.12)); // null: key missing
        }
        Arbitrary<List<String[]>> unknown = Combinators.combine(unknownKeys(otherNames), strings())
            .as((k, v) -> new String[] {k, v}).list().ofMaxSize(3);
        // without edge cases: jqwik would otherwise mix in shape 0 (null map) for a third of the tries
        Arbitrary<Integer> shape = Arbitraries.integers().between(0, 199).withoutEdgeCases();
        Arbitrary<Integer> pollutedField = Arbitraries.integers().between(0, names.length - 1).withoutEdgeCases();
        Arbitrary<Object> notAString = Arbitraries.of(7, 1700000000000L, Boolean.TRUE, 1.5, new StringBuilder("sb"), new Object());
        return Combinators.combine(Combinators.combine(values).as(l -> l), unknown, shape, pollutedField, notAString)
            .as((fieldValues, extra, s, polluted, odd) -> build(names, fieldValues, extra, s, polluted, odd));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static HashMap<String, String> build(String[] names, List<String> fieldValues, List<String[]> extra, int shape,
                                                 int polluted, Object notAString) {
        if (shape == 0) {
            return null;
        }
        HashMap<String, String> m = new HashMap<>();
        if (shape <= 3) {
            return m;
        }
        for (int i = 0; i < names.length; i++) {
            if (fieldValues.get(i) != null) {
                m.put(names[i], fieldValues.get(i));
            }
        }
        for (String[] kv : extra) {
            m.put(kv[0], kv[1]);
        }
        if (shape <= 6) {
            ((HashMap) m).put(names[polluted], notAString);
        }
        return m;
    }

    static Arbitrary<String> value(Kind kind) {
        switch (kind) {
            case INTEGER:
                return Arbitraries.frequencyOf(Tuple.of(12, integers()), Tuple.of(1, longs()), Tuple.of(1, strings()));
            case LONG:
                return Arbitraries.frequencyOf(Tuple.of(12, longs()), Tuple.of(1, integers()), Tuple.of(1, strings()));
            case BOOLEAN:
                return Arbitraries.frequencyOf(Tuple.of(12, booleans()), Tuple.of(1, strings()));
            default:
                return Arbitraries.frequencyOf(Tuple.of(12, strings()), Tuple.of(1, integers()));
        }
    }

    static Arbitrary<String> integers() {
        return Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.integers().between(-200, 20_000).map(String::valueOf)),
            Tuple.of(4, Arbitraries.integers().map(String::valueOf)),
            Tuple.of(3, Arbitraries.of("2147483647", "-2147483648", "2147483648", "-2147483649", "+2147483647", "+2147483648",
                "999999999", "1000000000", "-999999999", "0", "-0", "+0", "00", "4294967296", "21474836470")),
            Tuple.of(3, malformedNumbers()),
            Tuple.of(2, unicodeDigits(12)),
            Tuple.of(2, Combinators.combine(Arbitraries.integers().between(1, 25), Arbitraries.integers().between(0, 99_999))
                .as((zeros, n) -> "0".repeat(zeros) + n)),
            Tuple.of(1, Arbitraries.strings().numeric().ofMinLength(10).ofMaxLength(25)));
    }

    static Arbitrary<String> longs() {
        return Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.longs().between(1_500_000_000_000L, 1_800_000_000_000L).map(String::valueOf)),
            Tuple.of(4, Arbitraries.longs().map(String::valueOf)),
            Tuple.of(3, Arbitraries.of("9223372036854775807", "-9223372036854775808", "9223372036854775808",
                "-9223372036854775809", "+9223372036854775807", "999999999999999999", "1000000000000000000",
                "-999999999999999999", "18446744073709551616", "0", "-0", "+0")),
            Tuple.of(3, malformedNumbers()),
            Tuple.of(2, unicodeDigits(22)),
            Tuple.of(2, Combinators.combine(Arbitraries.integers().between(1, 25), Arbitraries.longs().between(0, 1L << 45))
                .as((zeros, n) -> "0".repeat(zeros) + n)),
            Tuple.of(1, Arbitraries.strings().numeric().ofMinLength(17).ofMaxLength(30)));
    }

    private static Arbitrary<String> malformedNumbers() {
        Arbitrary<String> fixed = Arbitraries.of("", " ", "+", "-", "+-1", "--1", "-+1", " 7", "7 ", "\t7", "7\n", "\u00a07",
            "1.5", "1.0", "1e3", "0x10", "#10", "1_000", "1,000", "NaN", "Infinity", "null", "true", "\ud835\udfd5",
            "\u0663\u00a0", "\u2007");
        Arbitrary<String> signedOrPadded = Combinators.combine(
                Arbitraries.of("", "+", "-", " ", "\t", "++", "\u0000"), Arbitraries.integers().between(0, 99_999),
                Arbitraries.of("", " ", "\n", "x", ".0", "\u0000"))
            .as((prefix, n, suffix) -> prefix + n + suffix);
        return Arbitraries.oneOf(fixed, signedOrPadded);
    }

    /** Digits mixed from several Unicode scripts, optionally signed: Character.digit accepts them all. */
    private static Arbitrary<String> unicodeDigits(int maxLength) {
        Arbitrary<Character> digit = Combinators.combine(Arbitraries.of(toObjects(DIGIT_ZEROS)), Arbitraries.integers().between(0, 9))
            .as((zero, d) -> (char) (zero + d));
        return Combinators.combine(Arbitraries.of("", "", "-", "+"), digit.list().ofMinSize(1).ofMaxSize(maxLength))
            .as((sign, digits) -> {
                StringBuilder sb = new StringBuilder(sign);
                digits.forEach(sb::append);
                return sb.toString();
            });
    }

    private static Character[] toObjects(char[] chars) {
        Character[] boxed = new Character[chars.length];
        for (int i = 0; i < chars.length; i++) {
            boxed[i] = chars[i];
        }
        return boxed;
    }

    static Arbitrary<String> booleans() {
        return Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.of("true", "false")),
            Tuple.of(3, Arbitraries.of("TRUE", "True", "tRuE", "FALSE", "False", "yes", "no", "1", "0", "", " true", "true ",
                "truee", "t", "on", "\u0130rue")),
            Tuple.of(1, Arbitraries.strings().withChars("trueTRUE ").ofMaxLength(6)));
    }

    static Arbitrary<String> strings() {
        return Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.of("please_rename_unique_group_name", "TopicTest", "TBW102", "%RETRY%group", "%DLQ%group",
                "rmq_sys_TRACE_DATA", "KEYS\1OrderID188\2WAIT\1true\2TAGS\1TagA\2")),
            Tuple.of(2, Arbitraries.just("")),
            Tuple.of(4, Arbitraries.strings().withCharRange('a', 'z').withChars('\1', '\2', ' ', '%', '\u00e9', '\u4e2d')
                .ofMaxLength(20)),
            Tuple.of(2, Arbitraries.strings().all().ofMaxLength(12)), // any char, lone surrogates included
            Tuple.of(1, Arbitraries.of("\ud83d\ude00", "\u4e2d\u6587", "\ud800", "\udfff")),
            // long values are only passed through: a repeated unit is as good as random text and cheap to generate
            Tuple.of(1, Combinators.combine(Arbitraries.of("a", "KEYS\1k\2", "\u4e2d", "\ud83d\ude00"), Arbitraries.integers().between(100, 3000))
                .as(String::repeat)));
    }

    private static Arbitrary<String> unknownKeys(String[] otherNames) {
        return Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.of(otherNames)),
            Tuple.of(3, Arbitraries.of("n", "o", "z", "A", "M", "aa", "", " a", "a ", "this", "thisA", "brokerName",
                "producergroup", "Topic", "QUEUEID", "\u00e9", "\u0430" /* Cyrillic a */)),
            Tuple.of(1, Arbitraries.strings().all().ofMaxLength(4)));
    }
}
