package io.hotpath.codec.header;

/** Proves {@link SendHeaderDecoder490Contract} encodes what 4.9.0 reflection (and its parseRequestHeader glue) does. */
class Upstream490SendHeaderContractTest extends SendHeaderDecoder490Contract {
    @Override
    protected SendHeaderDecoderImpl decoder() {
        return SendHeaderDecoderImpl.reflection490();
    }
}
