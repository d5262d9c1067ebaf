package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.codec.Escapes;
import java.nio.ByteBuffer;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The candidate (ours, or 4.9.8 itself with -Dhotpath.candidate=upstream) against the real 4.9.8
 * jar on generated maps: same bytes or same exception. Ours must also leave the map untouched and
 * write the same bytes through its ByteBuffer entry point. Tries per property:
 * jqwik.tries.default (100,000 in CI). Failing inputs are printed escaped.
 */
class PersistedPropertiesDifferentialTest {

    private final PersistedPropertiesImpl candidate = PersistedPropertiesImpl.candidate();
    private final PersistedPropertiesImpl oracle = PersistedPropertiesImpl.upstream498();
    private final boolean candidateIsOurs = candidate.name().startsWith("hotpath");

    @Property
    void persistsNastyMapsLikeUpstream498(@ForAll("nastyMaps") Map<String, String> properties) {
        assertPersistsLikeUpstream498(properties);
    }

    @Property
    void persistsUnicodeLikeUpstream498(@ForAll("unicodeMaps") Map<String, String> properties) {
        assertPersistsLikeUpstream498(properties);
    }

    private void assertPersistsLikeUpstream498(Map<String, String> properties) {
        // ours first: upstream's remove/re-put may move WAIT within its bucket; the snapshot is
        // also what a failure prints
        final List<Map.Entry<String, String>> before = entries(properties);
        final Supplier<String> input = () -> properties.getClass().getSimpleName() + describe(before);
        final Persisted ours = Persisted.of(() -> candidate.persist(properties));
        if (candidateIsOurs) {
            assertThat(entries(properties)).as(() -> "map left untouched, WAIT included: " + input.get()).isEqualTo(before);
            assertThat(Persisted.of(() -> viaHeapBufferAtOffset(properties)))
                .as(() -> "ByteBuffer entry point for " + input.get()).isEqualTo(ours);
        }
        final Persisted upstream = Persisted.of(() -> oracle.persist(properties));
        assertThat(ours).as(() -> candidate + " vs " + oracle + " persisting " + input.get()).isEqualTo(upstream);
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

    private static List<Map.Entry<String, String>> entries(Map<String, String> map) {
        List<Map.Entry<String, String>> list = new ArrayList<>(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            list.add(new SimpleImmutableEntry<>(e.getKey(), e.getValue()));
        }
        return list;
    }

    private static String describe(List<Map.Entry<String, String>> entries) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, String> e : entries) {
            sb.append(Escapes.escape(e.getKey())).append('=').append(Escapes.escape(e.getValue())).append(", ");
        }
        return sb.append('}').toString();
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
