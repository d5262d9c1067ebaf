package io.hotpath.codec;

/** PropertiesCodec491 (or 4.9.8 itself, -Dhotpath.candidate=upstream) against the real 4.9.8 jar. */
class PropertiesCodec491DifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PropertiesCodecImpl.candidate491();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PropertiesCodecImpl.upstream498();
    }
}
