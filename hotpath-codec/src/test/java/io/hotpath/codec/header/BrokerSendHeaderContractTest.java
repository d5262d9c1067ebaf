package io.hotpath.codec.header;

/**
 * The contract against the broker processors on the classpath: stock 4.9.0 here (proves the
 * oracle's restated parseRequestHeader glue), the patched broker when broker-dist runs it.
 */
class BrokerSendHeaderContractTest extends SendHeaderDecoder490Contract {
    @Override
    protected SendHeaderDecoderImpl decoder() {
        return SendHeaderDecoderImpl.brokerOnClasspath();
    }
}
