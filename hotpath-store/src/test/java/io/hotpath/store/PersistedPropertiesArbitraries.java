package io.hotpath.store;

import io.hotpath.codec.PropertiesArbitraries;
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
 * Property maps as the broker holds them before persisting: the codec's nasty maps with WAIT
 * (any value, any position), UTF-8 edge cases (every encoded width, its boundaries, surrogate
 * pairs, lone and reversed surrogates next to separators), and the maps a 4.9.0 producer really
 * sends, parsed by the real 4.9.0 decoder with CLUSTER added as the broker does.
 */
final class PersistedPropertiesArbitraries {

    private static final String WAIT = "WAIT";

    private PersistedPropertiesArbitraries() {
    }

    /** The codec's nasty maps (null key, null/empty values, separators, lone surrogates), with WAIT mixed in. */
    static Arbitrary<Map<String, String>> nastyMaps() {
        return withWait(PropertiesArbitraries.propertyMaps());
    }

    /** Maps whose keys and values stress the UTF-8 encoder. */
    static Arbitrary<Map<String, String>> unicodeMaps() {
        Arbitrary<List<String[]>> entries = Combinators.combine(unicodeStrings().injectNull(0.03), unicodeStrings().injectNull(0.05))
            .as((k, v) -> new String[] {k, v}).list().ofMaxSize(8);
        return withWait(entries.map(list -> fill(new HashMap<>(), list)));
    }

    /**
     * Keys and values free of separators: each entry is one segment, so a 4.9.0 reader must see
     * exactly the stock record's properties minus WAIT. Still any other char, lone surrogates too.
     */
    static Arbitrary<Map<String, String>> separatorFreeMaps() {
        Arbitrary<String> text = unicodeStrings().filter(s -> s.indexOf('\1') < 0 && s.indexOf('\2') < 0);
        Arbitrary<List<String[]>> entries = Combinators.combine(
                Arbitraries.frequencyOf(Tuple.of(3, text), Tuple.of(2, systemNames())).injectNull(0.03),
                text.injectNull(0.05))
            .as((k, v) -> new String[] {k, v}).list().ofMaxSize(12);
        return withWait(entries.map(list -> fill(new HashMap<>(), list)));
    }

    /** Strings over the UTF-8 width boundaries and every surrogate shape, plus separators and ASCII runs. */
    static Arbitrary<String> unicodeStrings() {
        Arbitrary<Character> edgeChars = Arbitraries.of(
            '\0', '\1', '\2', '?', '\u007f', '\u0080', '\u00e9', '\u07ff', '\u0800', '\u4e2d', '\ud7ff', '\ue000',
            '\ufffd', '\uffff', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\ude00');
        Arbitrary<String> pieces = Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(6)),
            Tuple.of(4, edgeChars.map(String::valueOf)),
            Tuple.of(2, Arbitraries.of("\ud83d\ude00", "\udbff\udfff", "\ud800\udc00")), // pairs, incl. U+10000 and U+10FFFF
            Tuple.of(1, Arbitraries.strings().all().ofMaxLength(4)));
        return pieces.list().ofMaxSize(6).map(list -> String.join("", list));
    }

    private static Arbitrary<String> systemNames() {
        return Arbitraries.of("KEYS", "TAGS", "UNIQ_KEY", "CLUSTER", "DELAY", "REAL_TOPIC", "REAL_QID", "TRAN_MSG", "PGROUP");
    }

    /**
     * Rebuilds each map with WAIT inserted at a random point of its insertion order (or not at
     * all), with a value of "true" (what clients send), "false" (send-back), empty, null, or junk.
     */
    static Arbitrary<Map<String, String>> withWait(Arbitrary<Map<String, String>> maps) {
        Arbitrary<String> waitValue = Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just("true")),
            Tuple.of(2, Arbitraries.just("false")),
            Tuple.of(1, Arbitraries.of("", "TRUE", "\1", "x\2WAIT\1true")),
            Tuple.of(1, Arbitraries.just((String) null)));
        return Combinators.combine(maps, waitValue, Arbitraries.integers().between(-3, 20)).as((map, wait, at) -> {
            if (at < 0) {
                return map; // no WAIT added (the map may still hold one from the generator)
            }
            List<String[]> entries = new ArrayList<>();
            for (Map.Entry<String, String> e : map.entrySet()) {
                entries.add(new String[] {e.getKey(), e.getValue()});
            }
            entries.add(Math.min(at, entries.size()), new String[] {WAIT, wait});
            Map<String, String> rebuilt = map instanceof LinkedHashMap ? new LinkedHashMap<>() : new HashMap<>();
            return fill(rebuilt, entries);
        });
    }

    private static Map<String, String> fill(Map<String, String> map, List<String[]> entries) {
        for (String[] kv : entries) {
            map.put(kv[0], kv[1]);
        }
        return map;
    }
}
