package io.hotpath.codec;

/** PropertiesCodec490 (or upstream itself, -Dhotpath.candidate=upstream) against the real 4.9.0 jar. */
class PropertiesCodec490DifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PropertiesCodecImpl.candidate490();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PropertiesCodecImpl.upstream490();
    }
}
