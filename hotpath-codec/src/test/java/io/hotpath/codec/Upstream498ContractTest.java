package io.hotpath.codec;

/** Proves {@link PropertiesCodec491Contract} encodes what the real 4.9.8 jar does. */
class Upstream498ContractTest extends PropertiesCodec491Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.upstream498();
    }
}
