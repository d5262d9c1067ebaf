package io.hotpath.codec;

/** PropertiesCodec520 (or 5.3.3 itself, -Dhotpath.candidate=upstream) against the real 5.3.3 jar. */
class PropertiesCodec520DifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PropertiesCodecImpl.candidate520();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PropertiesCodecImpl.upstream533();
    }
}
