package io.hotpath.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Differential properties: a candidate codec against an upstream jar as oracle, on generated
 * maps and strings. Outcomes (value, map class, capacity, order, or exception) must be equal.
 * Subclasses pick the pair; the number of tries per property is jqwik.tries.default (>= 100,000).
 */
public abstract class PropertiesCodecDifferentialProperties {

    protected abstract PropertiesCodecImpl candidate();

    protected abstract PropertiesCodecImpl oracle();

    @Property
    void encodesLikeUpstream(@ForAll("maps") Map<String, String> properties) {
        assertThat(Outcome.of(() -> candidate().encode(properties)))
            .as("%s vs %s encoding %s", candidate(), oracle(), Escapes.escape(properties))
            .isEqualTo(Outcome.of(() -> oracle().encode(properties)));
    }

    @Property
    void parsesUpstreamEncodingsLikeUpstream(@ForAll("maps") Map<String, String> properties) {
        assertParsesLikeUpstream(oracle().encode(properties));
    }

    @Property
    void parsesJunkLikeUpstream(@ForAll("junk") String junk) {
        assertParsesLikeUpstream(junk);
    }

    @Property
    void parsesMutatedEncodingsLikeUpstream(@ForAll("mutated") String input) {
        assertParsesLikeUpstream(input);
    }

    private void assertParsesLikeUpstream(String input) {
        assertThat(Outcome.of(() -> candidate().parse(input)))
            .as("%s vs %s parsing \"%s\"", candidate(), oracle(), Escapes.escape(input))
            .isEqualTo(Outcome.of(() -> oracle().parse(input)));
    }

    @Provide
    Arbitrary<Map<String, String>> maps() {
        return PropertiesArbitraries.propertyMaps();
    }

    @Provide
    Arbitrary<String> junk() {
        return PropertiesArbitraries.junk();
    }

    @Provide
    Arbitrary<String> mutated() {
        return PropertiesArbitraries.mutated(PropertiesArbitraries.propertyMaps().map(m -> oracle().encode(m)));
    }
}
