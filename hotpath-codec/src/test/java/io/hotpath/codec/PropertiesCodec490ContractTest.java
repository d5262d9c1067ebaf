package io.hotpath.codec;

class PropertiesCodec490ContractTest extends PropertiesCodec490Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PropertiesCodecImpl.candidate490();
    }
}
