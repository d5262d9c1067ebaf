package io.hotpath.dist;

import io.hotpath.codec.PropertiesCodecDifferentialProperties;
import io.hotpath.codec.PropertiesCodecImpl;
import net.jqwik.api.Tag;

/**
 * hotpath-codec's jqwik differential properties: the patched MessageDecoder of the built 4.9.8 broker
 * against the stock 4.9.8 MessageDecoder (Maven Central's rocketmq-common on the test classpath).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.8")
class PatchedMessageDecoder491DifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PatchedMessageDecoder.codec();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PatchedMessageDecoder.stock();
    }
}
