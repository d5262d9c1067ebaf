package io.hotpath.codec;

class PropertiesCodec520ContractTest extends PropertiesCodec520Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.candidate520();
    }
}
