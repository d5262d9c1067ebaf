package io.hotpath.dist;

import io.hotpath.codec.PropertiesCodecDifferentialProperties;
import io.hotpath.codec.PropertiesCodecImpl;

/**
 * hotpath-codec's jqwik differential properties: the patched MessageDecoder of the built broker against
 * the line's stock MessageDecoder (Maven Central's rocketmq-common of the line, on the test classpath), for
 * whichever line this build assembled: the properties say "same outcome as the oracle", not which format.
 */
class PatchedMessageDecoderDifferentialTest extends PropertiesCodecDifferentialProperties {
    @Override
    protected PropertiesCodecImpl candidate() {
        return PatchedMessageDecoder.codec();
    }

    @Override
    protected PropertiesCodecImpl oracle() {
        return PatchedMessageDecoder.stock();
    }
}
