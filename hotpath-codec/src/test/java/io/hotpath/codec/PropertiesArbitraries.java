package io.hotpath.codec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators biased to the inputs that break properties codecs: separators inside keys and
 * values, empty and null keys/values, system names, duplicates, surrogate pairs (and lone
 * surrogates), non-ASCII, long strings, and junk made of mostly separators.
 */
public final class PropertiesArbitraries {

    private static final String[] SYSTEM_NAMES = {
        "KEYS", "TAGS", "WAIT", "UNIQ_KEY", "CLUSTER", "DELAY", "TRAN_MSG", "PGROUP", "REAL_TOPIC",
        "REAL_QID", "RETRY_TOPIC", "MAX_RECONSUME_TIMES", "RECONSUME_TIME", "MIN_OFFSET", "TTL",
    };

    private PropertiesArbitraries() {
    }

    private static final char[] NASTY_CHARS = {
        'a', 'b', 'c', 'd', 'e', 'a', 'b', 'c', '\1', '\2', '\1', '\2',
        '\u00e9', '\u4e2d', '\u0000', '\u007f', '\uffff', '\ud83d', '\ude00', // lone surrogate halves
    };
    private static final String[] SPECIAL_STRINGS = {
        "", "", "\ud83d\ude00", "x\ud83d\ude00y", "\ud83d\ude00\1", "\u4e2d\u6587",
        "true", "false", "DefaultCluster", "TagA",
    };

    /**
     * Leaves are drawn straight from jqwik's Random (no per-char shrinking trees): with 100,000
     * tries per property, char-by-char shrinkable generation dominated the test run time.
     * Structure (entry lists, edits) still shrinks.
     */
    static Arbitrary<String> nastyString() {
        return Arbitraries.randomValue(random -> {
            int pick = random.nextInt(20);
            if (pick < 11) {
                return randomNasty(random, random.nextInt(11));
            }
            if (pick < 15) {
                return SYSTEM_NAMES[random.nextInt(SYSTEM_NAMES.length)];
            }
            if (pick < 19) {
                return SPECIAL_STRINGS[random.nextInt(SPECIAL_STRINGS.length)];
            }
            String unit = randomNasty(random, 1 + random.nextInt(10));
            return unit.repeat(40 + random.nextInt(560)); // long: past any initial buffer
        });
    }

    private static String randomNasty(java.util.Random random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = NASTY_CHARS[random.nextInt(NASTY_CHARS.length)];
        }
        return new String(chars);
    }

    static Arbitrary<String> keys() {
        return nastyString().injectNull(0.05);
    }

    static Arbitrary<String> values() {
        return nastyString().injectNull(0.1);
    }

    /** A HashMap (what the broker holds) or a LinkedHashMap, filled from entries with repeats. */
    public static Arbitrary<Map<String, String>> propertyMaps() {
        Arbitrary<List<String[]>> entries = Combinators.combine(keys(), values())
            .as((k, v) -> new String[] {k, v}).list().ofMaxSize(14);
        return Combinators.combine(entries, Arbitraries.integers().between(0, 9)).as((list, kind) -> {
            Map<String, String> m = kind == 0 ? new LinkedHashMap<>() : new HashMap<>();
            for (String[] kv : list) {
                m.put(kv[0], kv[1]);
            }
            // repeats of an existing key (last wins) are common in real re-serialisations
            if (!list.isEmpty() && kind < 3) {
                m.put(list.get(0)[0], list.get(list.size() - 1)[1]);
            }
            return m;
        });
    }

    /** Strings made mostly of separators and short runs: whatever a corrupt record could hold. */
    public static Arbitrary<String> junk() {
        return Arbitraries.randomValue(random -> randomNasty(random, random.nextInt(41)));
    }

    /** A well-formed encoding with random edits: separators inserted, chars dropped or doubled. */
    public static Arbitrary<String> mutated(Arbitrary<String> encodings) {
        Arbitrary<List<int[]>> edits = Combinators.combine(
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 10_000))
            .as((op, at) -> new int[] {op, at}).list().ofMinSize(1).ofMaxSize(4);
        return Combinators.combine(encodings, edits).as((s, ops) -> {
            StringBuilder sb = new StringBuilder(s);
            for (int[] op : ops) {
                int at = sb.length() == 0 ? 0 : op[1] % (sb.length() + 1);
                switch (op[0]) {
                    case 0: sb.insert(at, '\1'); break;
                    case 1: sb.insert(at, '\2'); break;
                    case 2: if (at < sb.length()) { sb.deleteCharAt(at); } break;
                    default: if (at < sb.length()) { sb.insert(at, sb.charAt(at)); } break;
                }
            }
            return sb.toString();
        });
    }

    static List<String> systemNames() {
        return new ArrayList<>(List.of(SYSTEM_NAMES));
    }
}
