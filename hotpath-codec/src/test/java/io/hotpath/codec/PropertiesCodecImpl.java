package io.hotpath.codec;

import java.util.Map;

/**
 * One implementation of the properties codec, as the tests see it: upstream jars are oracles,
 * ours are candidates. The same suites run against every implementation.
 */
public interface PropertiesCodecImpl {

    String name();

    String encode(Map<String, String> properties);

    Map<String, String> parse(String properties);

    /** The real {@code MessageDecoder} of the rocketmq-common jar on the classpath (4.9.0 here). */
    static PropertiesCodecImpl upstream490() {
        return of("upstream 4.9.0 MessageDecoder",
            org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
    }

    /** The real 4.9.8 {@code MessageDecoder}, shaded into io.hotpath.upstream.v498. */
    static PropertiesCodecImpl upstream498() {
        return of("upstream 4.9.8 MessageDecoder",
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
    }

    /** The real 5.3.3 {@code MessageDecoder}, shaded into io.hotpath.upstream.v533. */
    static PropertiesCodecImpl upstream533() {
        return of("upstream 5.3.3 MessageDecoder",
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
    }

    /** The real 5.5.1 {@code MessageDecoder}, shaded into io.hotpath.upstream.v551: the 5.5.1 line's oracle. */
    static PropertiesCodecImpl upstream551() {
        return of("upstream 5.5.1 MessageDecoder",
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            io.hotpath.upstream.v551.org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
    }

    static PropertiesCodecImpl hotpath490() {
        return of("hotpath PropertiesCodec490",
            PropertiesCodec490::messageProperties2String, PropertiesCodec490::string2messageProperties);
    }

    static PropertiesCodecImpl hotpath491() {
        return of("hotpath PropertiesCodec491",
            PropertiesCodec491::messageProperties2String, PropertiesCodec491::string2messageProperties);
    }

    static PropertiesCodecImpl hotpath520() {
        return of("hotpath PropertiesCodec520",
            PropertiesCodec520::messageProperties2String, PropertiesCodec520::string2messageProperties);
    }

    /**
     * The 4.9.0-format candidate under test: ours by default, upstream itself with
     * {@code -Dhotpath.candidate=upstream} (proves the suites encode upstream behaviour).
     */
    static PropertiesCodecImpl candidate490() {
        return "upstream".equals(System.getProperty("hotpath.candidate")) ? upstream490() : hotpath490();
    }

    /** The 4.9.1-format candidate under test; {@code -Dhotpath.candidate=upstream} selects 4.9.8. */
    static PropertiesCodecImpl candidate491() {
        return "upstream".equals(System.getProperty("hotpath.candidate")) ? upstream498() : hotpath491();
    }

    /** The 5.2.0-format candidate under test; {@code -Dhotpath.candidate=upstream} selects 5.3.3. */
    static PropertiesCodecImpl candidate520() {
        return "upstream".equals(System.getProperty("hotpath.candidate")) ? upstream533() : hotpath520();
    }

    static PropertiesCodecImpl of(String name, java.util.function.Function<Map<String, String>, String> encode,
                                  java.util.function.Function<String, Map<String, String>> parse) {
        return new PropertiesCodecImpl() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String encode(Map<String, String> properties) {
                return encode.apply(properties);
            }

            @Override
            public Map<String, String> parse(String properties) {
                return parse.apply(properties);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
