package io.hotpath.codec;

class PropertiesCodec491ContractTest extends PropertiesCodec491Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.candidate491();
    }
}
