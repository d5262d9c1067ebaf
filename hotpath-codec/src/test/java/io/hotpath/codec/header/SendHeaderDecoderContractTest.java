package io.hotpath.codec.header;

/** The 4.9.0 send-header contract against the candidate (ours; -Dhotpath.candidate=upstream for reflection). */
class SendHeaderDecoderContractTest extends SendHeaderDecoder490Contract {
    @Override
    protected SendHeaderDecoderImpl decoder() {
        return SendHeaderDecoderImpl.candidate();
    }
}
