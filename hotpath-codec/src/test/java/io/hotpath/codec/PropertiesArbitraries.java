package io.hotpath.codec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

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

    static Arbitrary<Character> nastyChars() {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.chars().range('a', 'e')),
            Tuple.of(4, Arbitraries.of('\1', '\2')),
            Tuple.of(1, Arbitraries.of('\u00e9', '\u4e2d', '\u0000', '\u007f', '\uffff')),
            Tuple.of(1, Arbitraries.of('\ud83d', '\ude00'))); // lone surrogate halves
    }

    static Arbitrary<String> nastyString() {
        Arbitrary<String> shortRandom = nastyChars().list().ofMaxSize(10).map(PropertiesArbitraries::join);
        Arbitrary<String> longRandom = Arbitraries.strings().withCharRange('a', 'z').withChars('\1', '\2', '\u00e9')
            .ofMinLength(200).ofMaxLength(3000);
        Arbitrary<String> surrogatePairs = Arbitraries.of("\ud83d\ude00", "x\ud83d\ude00y", "\ud83d\ude00\1", "\u4e2d\u6587");
        return Arbitraries.frequencyOf(
            Tuple.of(10, shortRandom),
            Tuple.of(4, Arbitraries.of(SYSTEM_NAMES)),
            Tuple.of(2, Arbitraries.just("")),
            Tuple.of(1, surrogatePairs),
            Tuple.of(1, Arbitraries.of("true", "false", "DefaultCluster", "TagA")),
            Tuple.of(1, longRandom));
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
        return nastyChars().list().ofMaxSize(40).map(PropertiesArbitraries::join);
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

    private static String join(List<Character> chars) {
        StringBuilder sb = new StringBuilder(chars.size());
        for (char c : chars) {
            sb.append(c);
        }
        return sb.toString();
    }

    static List<String> systemNames() {
        return new ArrayList<>(List.of(SYSTEM_NAMES));
    }
}
