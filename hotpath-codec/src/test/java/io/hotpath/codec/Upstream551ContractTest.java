package io.hotpath.codec;

/**
 * Proves {@link PropertiesCodec520Contract} holds for the real 5.5.1 jar too: the 5.5.1 line ships the 5.2.0+ codec
 * ({@link PropertiesCodec520}) unchanged.
 */
class Upstream551ContractTest extends PropertiesCodec520Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.upstream551();
    }
}
