package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.codec.Escapes;
import io.hotpath.codec.Outcome;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The candidate (ours, or 4.9.8 itself with -Dhotpath.candidate=upstream) against the real 4.9.8
 * jar on generated maps: same bytes or same exception. Ours must also leave the map untouched and
 * write the same bytes through its ByteBuffer entry point. Tries per property:
 * jqwik.tries.default (100,000 in CI).
 */
class PersistedPropertiesDifferentialTest {

    private final PersistedPropertiesImpl candidate = PersistedPropertiesImpl.candidate();
    private final PersistedPropertiesImpl oracle = PersistedPropertiesImpl.upstream498();

    @Property
    void persistsNastyMapsLikeUpstream498(@ForAll("nastyMaps") Map<String, String> properties) {
        assertPersistsLikeUpstream498(properties);
    }

    @Property
    void persistsUnicodeLikeUpstream498(@ForAll("unicodeMaps") Map<String, String> properties) {
        assertPersistsLikeUpstream498(properties);
    }

    private void assertPersistsLikeUpstream498(Map<String, String> properties) {
        final String input = Escapes.escape(properties);
        final List<String> before = entries(properties);
        // ours first: upstream's WAIT remove/re-put may reorder the map's bucket
        final Outcome candidateOutcome = Outcome.of(() -> hex(candidate.persist(properties)));
        if (candidate.name().startsWith("hotpath")) {
            assertThat(entries(properties)).as("map left untouched, WAIT included: %s", input).isEqualTo(before);
            final Outcome viaBuffer = Outcome.of(() -> hex(viaHeapBufferAtOffset(properties)));
            assertThat(viaBuffer).as("ByteBuffer entry point for %s", input).isEqualTo(candidateOutcome);
        }
        final Outcome oracleOutcome = Outcome.of(() -> hex(oracle.persist(properties)));
        assertThat(candidateOutcome).as("%s vs %s persisting %s", candidate, oracle, input).isEqualTo(oracleOutcome);
    }

    private static byte[] viaHeapBufferAtOffset(Map<String, String> properties) {
        ByteBuffer buffer = ByteBuffer.allocate(7 + 3 * 64 * 1024);
        buffer.position(7);
        int written = PersistedProperties.encode(properties, buffer);
        assertThat(buffer.position()).isEqualTo(7 + written);
        byte[] out = new byte[written];
        buffer.position(7);
        buffer.get(out);
        return out;
    }

    static String hex(byte[] bytes) {
        return bytes.length + " bytes " + HexFormat.of().formatHex(bytes);
    }

    private static List<String> entries(Map<String, String> map) {
        List<String> list = new ArrayList<>();
        for (Map.Entry<String, String> e : map.entrySet()) {
            list.add(Escapes.escape(e.getKey()) + "=" + Escapes.escape(e.getValue()));
        }
        return list;
    }

    @Provide
    Arbitrary<Map<String, String>> nastyMaps() {
        return PersistedPropertiesArbitraries.nastyMaps();
    }

    @Provide
    Arbitrary<Map<String, String>> unicodeMaps() {
        return PersistedPropertiesArbitraries.unicodeMaps();
    }
}
