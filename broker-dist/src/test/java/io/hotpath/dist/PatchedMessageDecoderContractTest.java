package io.hotpath.dist;

import io.hotpath.codec.PropertiesCodec490Contract;
import io.hotpath.codec.PropertiesCodecImpl;
import org.junit.jupiter.api.Tag;

/** hotpath-codec's 4.9.0 contract, case by case, against the patched MessageDecoder of the built broker. */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
class PatchedMessageDecoderContractTest extends PropertiesCodec490Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PatchedMessageDecoder.codec();
    }
}
