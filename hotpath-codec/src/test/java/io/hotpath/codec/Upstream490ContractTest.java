package io.hotpath.codec;

/** Proves {@link PropertiesCodec490Contract} encodes what the real 4.9.0 jar does. */
class Upstream490ContractTest extends PropertiesCodec490Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.upstream490();
    }
}
