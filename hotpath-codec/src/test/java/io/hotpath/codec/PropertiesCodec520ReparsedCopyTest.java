package io.hotpath.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@link PropertiesCodec520#reparsedCopy} against the real round trip it stands for on each line that ships it (5.3.3's
 * and 5.5.1's patch 0005), {@code string2messageProperties(messageProperties2String(map))} of that release: where it
 * returns a map, that map equals the round trip's entry by entry in iteration order (so its bucket layout too), and it
 * is a HashMap; it returns null only where the round trip is not a copy. Maps: the codec's nasty ones (null names and
 * values, separators, empty strings, lone surrogates) and what the release's broker's buildMsgContext holds (a producer
 * map parsed by that release plus MSG_REGION and TRACE_ON, also with the configured values a broker operator could
 * set). Tries: jqwik.tries.default per release (100,000 in CI).
 */
class PropertiesCodec520ReparsedCopyTest {

    private static final PropertiesCodecImpl UPSTREAM_533 = PropertiesCodecImpl.upstream533();
    private static final PropertiesCodecImpl UPSTREAM_551 = PropertiesCodecImpl.upstream551();

    @Property
    void isThe533RoundTripWhereverItIsACopy(@ForAll("maps533") Map<String, String> map) {
        assertIsTheRoundTripWhereverItIsACopy(UPSTREAM_533, map);
    }

    @Property
    void isThe551RoundTripWhereverItIsACopy(@ForAll("maps551") Map<String, String> map) {
        assertIsTheRoundTripWhereverItIsACopy(UPSTREAM_551, map);
    }

    private static void assertIsTheRoundTripWhereverItIsACopy(PropertiesCodecImpl upstream, Map<String, String> map) {
        Map<String, String> roundTrip = upstream.parse(upstream.encode(map));
        Map<String, String> copy = PropertiesCodec520.reparsedCopy(map);
        if (copy == null) {
            assertThat(needsTheParse(map)).as(() -> "null for " + Escapes.escape(String.valueOf(map))).isTrue();
            return;
        }
        assertThat(copy).isExactlyInstanceOf(HashMap.class);
        assertThat(entries(copy)).as(() -> upstream.name() + ", map " + Escapes.escape(String.valueOf(map)))
            .isEqualTo(entries(roundTrip));
    }

    @Example
    void aBrokerMapIsCopiedAndEmptyOrSeparatorValuesAreHandled() {
        Map<String, String> map = new HashMap<>(128);
        map.put("KEYS", "k");
        map.put("UNIQ_KEY", "7F0000010001");
        map.put("WAIT", "true");
        map.put("MSG_REGION", "");
        map.put("TRACE_ON", "true");
        assertThat(PropertiesCodec520.reparsedCopy(map)).containsOnlyKeys("KEYS", "UNIQ_KEY", "WAIT", "TRACE_ON");
        map.put("MSG_REGION", "a\2b");
        assertThat(PropertiesCodec520.reparsedCopy(map)).isNull();
        map.put("MSG_REGION", "a\1b");
        assertThat(PropertiesCodec520.reparsedCopy(map)).containsEntry("MSG_REGION", "a\1b");
        assertThat(PropertiesCodec520.reparsedCopy(null)).isEmpty();
    }

    /** The round trip is not an entry-by-entry copy: a null name with a value, or a separator the parse splits at. */
    private static boolean needsTheParse(Map<String, String> map) {
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            String name = e.getKey();
            if (name == null || name.indexOf('\1') >= 0 || name.indexOf('\2') >= 0 || e.getValue().indexOf('\2') >= 0) {
                return true;
            }
        }
        return false;
    }

    private static List<Map.Entry<String, String>> entries(Map<String, String> map) {
        return new ArrayList<>(map.entrySet());
    }

    @Provide
    Arbitrary<Map<String, String>> maps533() {
        return maps(UPSTREAM_533);
    }

    @Provide
    Arbitrary<Map<String, String>> maps551() {
        return maps(UPSTREAM_551);
    }

    private static Arbitrary<Map<String, String>> maps(PropertiesCodecImpl upstream) {
        Arbitrary<Map<String, String>> brokerMaps = Combinators.combine(
                PropertiesArbitraries.propertyMaps().map(m -> upstream.parse(upstream.encode(m))),
                Arbitraries.of("DefaultRegion", "", "r\u00e9gion", "a\1b", "a\2b"),
                Arbitraries.of("true", "false"))
            .as((parsed, region, traceOn) -> {
                parsed.put("MSG_REGION", region);
                parsed.put("TRACE_ON", traceOn);
                return parsed;
            });
        Arbitrary<Map<String, String>> inOrder = PropertiesArbitraries.propertyMaps().map(LinkedHashMap::new);
        return Arbitraries.frequencyOf(Tuple.of(3, PropertiesArbitraries.propertyMaps()), Tuple.of(3, brokerMaps), Tuple.of(1, inOrder));
    }
}
