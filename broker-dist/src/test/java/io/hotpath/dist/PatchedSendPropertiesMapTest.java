package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

/**
 * Patch 0005 (5.3.3, 5.5.1): the send takes its properties map from {@code AbstractSendMessageProcessor#headerProperties}
 * (a copy of the map buildMsgContext encoded) instead of parsing the header's String again. The oracle is the STOCK
 * distribution's own {@code MessageDecoder} (its lib/, in a loader of its own): what a stock send gets is stock's parse of
 * the String stock's buildMsgContext steps make (parse the client's String, put MSG_REGION and TRACE_ON, encode). The
 * patched distribution's classes do the same steps, remember the map as the patched buildMsgContext does
 * ({@code SendMessageContext#setEncodedProperties}) and hand the send {@code headerProperties}: it must be stock's map,
 * entry by entry in iteration order, and a HashMap; taken once; and for a header whose String was replaced afterwards
 * (clearReservedProperties), stock's parse of that String. The patched String must be stock's String too (0001).
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.3.3")
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "5.5.1")
class PatchedSendPropertiesMapTest {

    private static final String DECODER = "org.apache.rocketmq.common.message.MessageDecoder";
    private static final String CONST = "org.apache.rocketmq.common.message.MessageConst";
    private static final String HEADER = "org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader";
    private static final String CONTEXT = "org.apache.rocketmq.broker.mqtrace.SendMessageContext";
    private static final String PROCESSOR = "org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor";

    private final Side stock = new Side(PatchedBrokerLoader.stock());
    private final Side patched = new Side(PatchedBrokerLoader.get());

    @Example
    void theSendsMapIsStocksParseForClientStringsRegionsAndTraceSwitches() throws Exception {
        String[] clients = {
            "", "KEYS\u0001k\u0002UNIQ_KEY\u00017F0000010001\u0002WAIT\u0001true\u0002TAGS\u0001TagA\u0002",
            "KEYS\u0001k\u0001k2\u0002\u0002\u0001x\u0002y\u0001\u0002WAIT\u0001false", "a\u0001b\u0002a\u0001c",
            "TRAN_MSG\u0001true\u0002PGROUP\u0001g\u0002DELAY\u00013\u0002\u00e9\u0001\u4e2d\u0002", null
        };
        String[] regions = {"DefaultRegion", "", "a\u0001b", "a\u0002b", "r\u00e9gion"};
        for (String client : clients) {
            for (String region : regions) {
                for (String traceOn : new String[] {"true", "false"}) {
                    assertSendGetsStocksMap(client, region, traceOn);
                }
            }
        }
    }

    @Property
    void theSendsMapIsStocksParseForGeneratedClientStrings(@ForAll("clientStrings") String client, @ForAll("regions") String region)
        throws Exception {
        assertSendGetsStocksMap(client, region, "true");
    }

    @Example
    void aHeaderStringReplacedAfterBuildMsgContextIsParsed() throws Exception {
        String client = "KEYS\u0001k\u0002POP_CK\u0001ck\u0002";
        Map<String, String> encoded = patched.parse(client);
        String encodedString = patched.encode(encoded);
        Object header = patched.header(encodedString);
        Object context = patched.context(encodedString, encoded);
        patched.setProperties(header, "KEYS\u0001k\u0002");
        assertThat(entries(patched.headerProperties(context, header))).isEqualTo(entries(stock.parse("KEYS\u0001k\u0002")));
        assertThat(entries(patched.headerProperties(null, header))).isEqualTo(entries(stock.parse("KEYS\u0001k\u0002")));
    }

    private void assertSendGetsStocksMap(String client, String region, String traceOn) throws Exception {
        Map<String, String> stockMap = stock.parse(client);
        stockMap.put(stock.msgRegion, region);
        stockMap.put(stock.traceSwitch, traceOn);
        String stockString = stock.encode(stockMap);
        List<Map.Entry<String, String>> expected = entries(stock.parse(stockString));

        Map<String, String> patchedMap = patched.parse(client);
        patchedMap.put(patched.msgRegion, region);
        patchedMap.put(patched.traceSwitch, traceOn);
        String patchedString = patched.encode(patchedMap);
        String what = "client " + escape(client) + ", region " + escape(region) + ", trace " + traceOn;
        assertThat(escape(patchedString)).as(what).isEqualTo(escape(stockString));
        Object header = patched.header(patchedString);
        Object context = patched.context(patchedString, patchedMap);
        Map<String, String> taken = patched.headerProperties(context, header);
        assertThat(taken).as(what).isExactlyInstanceOf(HashMap.class);
        assertThat(entries(taken)).as(what).isEqualTo(expected);
        // taken once: the next call parses
        assertThat(entries(patched.headerProperties(context, header))).as(what).isEqualTo(expected);
    }

    @Provide
    Arbitrary<String> clientStrings() {
        Arbitrary<String> pieces = Arbitraries.of("KEYS", "TAGS", "WAIT", "UNIQ_KEY", "DELAY", "a", "b", "", "\u0001", "\u0002",
            "\u0001\u0001", "\u0002\u0002", "true", "x", "\u00e9", "\u4e2d", "\ud83d\ude00", "\ud800", "MSG_REGION", "TRACE_ON");
        return pieces.list().ofMaxSize(16).map(list -> String.join("", list)).injectNull(0.01);
    }

    @Provide
    Arbitrary<String> regions() {
        return Arbitraries.of("DefaultRegion", "", "a\u0001b", "a\u0002b", "r\u00e9gion", "\u0002");
    }

    private static List<Map.Entry<String, String>> entries(Map<String, String> map) {
        return new ArrayList<>(map.entrySet());
    }

    private static String escape(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(c -> sb.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return sb.toString();
    }

    /** One distribution's classes, called by reflection inside its loader. */
    private static final class Side {
        final PatchedBrokerLoader loader;
        final String msgRegion;
        final String traceSwitch;
        private final Method parse;
        private final Method encode;
        private final Class<?> header;
        private final Method setProperties;

        Side(PatchedBrokerLoader loader) {
            this.loader = loader;
            try {
                Class<?> decoder = loader.load(DECODER);
                this.parse = decoder.getMethod("string2messageProperties", String.class);
                this.encode = decoder.getMethod("messageProperties2String", Map.class);
                Class<?> constants = loader.load(CONST);
                this.msgRegion = (String) constants.getField("PROPERTY_MSG_REGION").get(null);
                this.traceSwitch = (String) constants.getField("PROPERTY_TRACE_SWITCH").get(null);
                this.header = loader.load(HEADER);
                this.setProperties = header.getMethod("setProperties", String.class);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        @SuppressWarnings("unchecked")
        Map<String, String> parse(String properties) throws Exception {
            return (Map<String, String>) call(parse, null, properties);
        }

        String encode(Map<String, String> properties) throws Exception {
            return (String) call(encode, null, properties);
        }

        Object header(String properties) throws Exception {
            Object h = header.getConstructor().newInstance();
            setProperties(h, properties);
            return h;
        }

        void setProperties(Object h, String properties) throws Exception {
            call(setProperties, h, properties);
        }

        /** A SendMessageContext that remembers {@code map} as the patched buildMsgContext does (patched broker only). */
        Object context(String encodedString, Map<String, String> map) throws Exception {
            Class<?> type = loader.load(CONTEXT);
            Object context = type.getConstructor().newInstance();
            call(type.getMethod("setEncodedProperties", String.class, Map.class), context, encodedString, map);
            return context;
        }

        /** The patched {@code AbstractSendMessageProcessor#headerProperties} (protected static). */
        @SuppressWarnings("unchecked")
        Map<String, String> headerProperties(Object context, Object h) throws Exception {
            Method method = loader.load(PROCESSOR).getDeclaredMethod("headerProperties", loader.load(CONTEXT), header);
            method.setAccessible(true);
            return (Map<String, String>) call(method, null, context, h);
        }

        private Object call(Method method, Object target, Object... arguments) throws Exception {
            return loader.callInside(() -> {
                try {
                    return method.invoke(target, arguments);
                } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                }
            });
        }
    }
}
