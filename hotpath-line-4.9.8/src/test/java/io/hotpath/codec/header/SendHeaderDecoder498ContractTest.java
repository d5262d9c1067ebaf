package io.hotpath.codec.header;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 4.9.8's send-header parsing, case by case: each adversarial case must give the same outcome (every field up
 * the header's class hierarchy and every getter, or the exception's type and message, and every line logged)
 * from ours as from upstream 4.9.8 ({@link SendHeaderParser498}); the tests named after a behaviour pin what
 * upstream 4.9.8 does there, so a change of the oracle cannot pass unnoticed (docs/upstream-behavior.md, section 2.1).
 */
class SendHeaderDecoder498ContractTest {

    private static final String[] V2_KEYS = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"};

    /** What a 4.9.8 producer sends with V2 headers, brokerName included. */
    static HashMap<String, String> producerV2() {
        HashMap<String, String> m = new HashMap<>();
        m.put("a", "please_rename_unique_group_name");
        m.put("b", "TopicTest");
        m.put("c", "TBW102");
        m.put("d", "4");
        m.put("e", "3");
        m.put("f", "0");
        m.put("g", "1764000000123");
        m.put("h", "0");
        m.put("i", "KEYS\u0001OrderID188\u0002UNIQ_KEY\u0001C0A8010100002A9F0000000000000000\u0002WAIT\u0001true\u0002TAGS\u0001TagA");
        m.put("j", "0");
        m.put("k", "false");
        m.put("l", "16");
        m.put("m", "false");
        m.put("n", "broker-a");
        return m;
    }

    static HashMap<String, String> producerV1() {
        HashMap<String, String> m = new HashMap<>();
        m.put("producerGroup", "please_rename_unique_group_name");
        m.put("topic", "TopicTest");
        m.put("defaultTopic", "TBW102");
        m.put("defaultTopicQueueNums", "4");
        m.put("queueId", "3");
        m.put("sysFlag", "0");
        m.put("bornTimestamp", "1764000000123");
        m.put("flag", "0");
        m.put("properties", "TAGS\u0001TagA");
        m.put("reconsumeTimes", "0");
        m.put("unitMode", "false");
        m.put("batch", "false");
        m.put("maxReconsumeTimes", "16");
        m.put("bname", "broker-a");
        return m;
    }

    private static HashMap<String, String> with(HashMap<String, String> base, String key, String value) {
        HashMap<String, String> m = new HashMap<>(base);
        if (value == null) {
            m.remove(key);
        } else {
            m.put(key, value);
        }
        return m;
    }

    /** name -> extFields, each tried with every send and reply code and one other code. */
    static Map<String, HashMap<String, String>> cases() {
        Map<String, HashMap<String, String>> cases = new LinkedHashMap<>();
        cases.put("a producer's V2 fields", producerV2());
        cases.put("a producer's V1 fields", producerV1());
        cases.put("null extFields", null);
        cases.put("empty extFields", new HashMap<>());
        cases.put("unknown keys only", with(new HashMap<>(), "zz", "1"));
        for (String key : V2_KEYS) {
            cases.put("V2 without " + key, with(producerV2(), key, null));
            cases.put("V2 with " + key + " empty", with(producerV2(), key, ""));
            cases.put("V2 with " + key + "=x", with(producerV2(), key, "x"));
        }
        String[] numbers = {" 7", "7 ", "+7", "-0", "007", "1.5", "0x10", "\u0663", "\uff17", "2147483647", "2147483648",
            "-2147483649", "9223372036854775807", "9223372036854775808", "-"};
        for (String number : numbers) {
            cases.put("V2 with d=" + number, with(producerV2(), "d", number));
            cases.put("V2 with g=" + number, with(producerV2(), "g", number));
            cases.put("V2 with l=" + number, with(producerV2(), "l", number));
        }
        for (String bool : new String[] {"true", "TRUE", "yes", "1", ""}) {
            cases.put("V2 with k=" + bool, with(producerV2(), "k", bool));
            cases.put("V2 with m=" + bool, with(producerV2(), "m", bool));
        }
        HashMap<String, String> missingThenBad = with(with(producerV2(), "a", null), "e", "x");
        cases.put("V2 without a and with e=x", with(missingThenBad, "b", null));
        cases.put("V1 without topic", with(producerV1(), "topic", null));
        cases.put("V1 with queueId=x", with(producerV1(), "queueId", "x"));
        HashMap<String, String> both = producerV2();
        both.putAll(producerV1());
        cases.put("V2 and V1 fields", both);
        return cases;
    }

    static Stream<Arguments> everyCaseAndCode() {
        List<Arguments> all = new ArrayList<>();
        for (Map.Entry<String, HashMap<String, String>> c : cases().entrySet()) {
            for (int code : new int[] {310, 320, 325, 10, 324, 36}) {
                all.add(Arguments.of(c.getKey(), code, c.getValue()));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, code {1}")
    @MethodSource("everyCaseAndCode")
    void parsesLike498(String name, int code, HashMap<String, String> extFields) {
        for (boolean reply : new boolean[] {false, true}) {
            assertThat(outcome(SendHeaderParser498.candidate(), reply, code, extFields))
                .as("%s processor, %s, code %d", reply ? "reply" : "send", name, code)
                .isEqualTo(outcome(SendHeaderParser498.UPSTREAM, reply, code, extFields));
        }
    }

    /** A raw-typed caller can put a value that is not a String: the cast fails where 4.9.8's does. */
    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void failsOnAValueThatIsNotAStringLike498() {
        for (String key : new String[] {"a", "d", "i", "n"}) {
            HashMap raw = producerV2();
            raw.put(key, 7);
            assertThat(outcome(SendHeaderParser498.candidate(), false, 310, raw)).as("key %s", key)
                .isEqualTo(outcome(SendHeaderParser498.UPSTREAM, false, 310, raw));
        }
    }

    @Test
    void upstreamThrowsTheNumberFormatExceptionAfterLoggingTheKeysBeforeIt() {
        DecodeOutcome upstream = outcome(SendHeaderParser498.UPSTREAM, false, 310, cases().get("V2 without a and with e=x"));
        assertThat(upstream.result()).isEqualTo("threw java.lang.NumberFormatException: For input string: \"x\"");
        assertThat(upstream.logged()).containsExactly(
            "RocketmqRemoting WARN the custom field SendMessageRequestHeaderV2.a is null",
            "RocketmqRemoting WARN the custom field SendMessageRequestHeaderV2.b is null");
    }

    @Test
    void upstreamLogsAMissingRequiredKeyAndLeavesTheFieldNull() throws Exception {
        HashMap<String, String> noTopic = with(producerV2(), "b", null);
        assertThat(outcome(SendHeaderParser498.UPSTREAM, false, 310, noTopic).logged())
            .containsExactly("RocketmqRemoting WARN the custom field SendMessageRequestHeaderV2.b is null");
        assertThat(SendHeaderParser498.UPSTREAM.parseRequestHeader(SendHeaderParser498.request(310, noTopic)).getTopic()).isNull();
    }

    @Test
    void upstreamCarriesBrokerNameIntoBname() throws Exception {
        SendMessageRequestHeader header = SendHeaderParser498.UPSTREAM.parseRequestHeader(SendHeaderParser498.request(310, producerV2()));
        assertThat(header.getBname()).isEqualTo("broker-a");
        assertThat(SendHeaderDecoder498.decodeV2AsV1(producerV2()).getBname()).isEqualTo("broker-a");
    }

    @Test
    void upstreamGivesAnAllDefaultHeaderForNullExtFieldsWithoutALogLine() {
        DecodeOutcome upstream = outcome(SendHeaderParser498.UPSTREAM, false, 320, null);
        assertThat(upstream.logged()).isEmpty();
        assertThat(upstream.result()).startsWith("returned " + SendMessageRequestHeader.class.getName())
            .contains("SendMessageRequestHeader.topic=null", "SendMessageRequestHeader.unitMode=Boolean false",
                "RpcRequestHeader.bname=null");
    }

    private static DecodeOutcome outcome(SendHeaderParser498 parser, boolean reply, int code, HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> reply
            ? parser.parseReplyRequestHeader(SendHeaderParser498.request(code, extFields))
            : parser.parseRequestHeader(SendHeaderParser498.request(code, extFields)));
    }
}
