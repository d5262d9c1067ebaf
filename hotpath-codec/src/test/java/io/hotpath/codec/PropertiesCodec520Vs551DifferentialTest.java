package io.hotpath.codec;

/**
 * PropertiesCodec520 (or 5.3.3 itself, -Dhotpath.candidate=upstream) against the real 5.5.1 jar: the codec the 5.5.1
 * line's patch 0001 carries.
 */
class PropertiesCodec520Vs551DifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PropertiesCodecImpl.candidate520();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PropertiesCodecImpl.upstream551();
    }
}
