package io.hotpath.dist;

import io.hotpath.codec.PropertiesCodecDifferentialProperties;
import io.hotpath.codec.PropertiesCodecImpl;
import net.jqwik.api.Tag;

/**
 * hotpath-codec's jqwik differential properties: the patched MessageDecoder of the built broker
 * against the stock 4.9.0 MessageDecoder (the rocketmq-common jar on the test classpath).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
class PatchedMessageDecoderDifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PatchedMessageDecoder.codec();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PropertiesCodecImpl.upstream490();
    }
}
