package io.hotpath.dist;

import io.hotpath.codec.PropertiesCodec491Contract;
import io.hotpath.codec.PropertiesCodecImpl;
import org.junit.jupiter.api.Tag;

/** hotpath-codec's 4.9.1+ contract, case by case, against the patched MessageDecoder of the built 4.9.8 broker. */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.8")
class PatchedMessageDecoder491ContractTest extends PropertiesCodec491Contract {
    @Override
    protected PropertiesCodecImpl codec() {
        return PatchedMessageDecoder.codec();
    }
}
