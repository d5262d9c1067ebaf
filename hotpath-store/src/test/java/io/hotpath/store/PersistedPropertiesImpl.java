package io.hotpath.store;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * One way to produce the persisted properties block from a broker's property map, as the tests
 * see it. The same suites run against upstream 4.9.8 (oracle) and ours (candidate).
 */
public interface PersistedPropertiesImpl {

    String name();

    /** The block; may modify the map only as upstream does. */
    byte[] persist(Map<String, String> properties);

    /**
     * What upstream 4.9.8 stores on its single-message path, done as it does it:
     * {@code SendMessageProcessor#asyncSendMessage} removes WAIT from the message's own map,
     * serializes, puts WAIT back into the same map; {@code MessageExtEncoder#encode} then calls
     * {@code getBytes(UTF_8)}. The map is modified (WAIT moves to the end of its bucket), as upstream.
     */
    static PersistedPropertiesImpl upstream498() {
        return of("upstream 4.9.8 single-message path", properties -> {
            final String wait = io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageConst.PROPERTY_WAIT_STORE_MSG_OK;
            String propertiesString;
            if (properties != null && properties.containsKey(wait)) {
                String waitValue = properties.remove(wait);
                propertiesString = io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
                    .messageProperties2String(properties);
                properties.put(wait, waitValue);
            } else {
                propertiesString = io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
                    .messageProperties2String(properties);
            }
            return propertiesString.getBytes(StandardCharsets.UTF_8);
        });
    }

    static PersistedPropertiesImpl hotpath() {
        return of("hotpath PersistedProperties", PersistedProperties::messageProperties2Bytes);
    }

    /** Ours by default; {@code -Dhotpath.candidate=upstream} selects 4.9.8 (proves the suites encode upstream). */
    static PersistedPropertiesImpl candidate() {
        return "upstream".equals(System.getProperty("hotpath.candidate")) ? upstream498() : hotpath();
    }

    static PersistedPropertiesImpl of(String name, Function<Map<String, String>, byte[]> persist) {
        return new PersistedPropertiesImpl() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public byte[] persist(Map<String, String> properties) {
                return persist.apply(properties);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
