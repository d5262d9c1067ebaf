package io.hotpath.codec;

/** Proves {@link PropertiesCodec520Contract} encodes what the real 5.3.3 jar does. */
class Upstream533ContractTest extends PropertiesCodec520Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.upstream533();
    }
}
