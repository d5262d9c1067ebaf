package io.hotpath.codec.header;

import static io.hotpath.codec.header.SendHeaderParser533.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 5.3.3's send-header parsing, case by case: each adversarial case must give the same outcome (every field up the
 * header's class hierarchy to {@code RpcRequestHeader} and every getter, or the exception's type and message, and every
 * line logged, in order) from ours as from upstream 5.3.3 ({@link SendHeaderParser533}); the tests named after a
 * behaviour pin what upstream 5.3.3 does there, so a change of the oracle cannot pass unnoticed
 * (docs/upstream-behavior.md, section 2.2).
 */
class SendHeaderDecoder533ContractTest {

    private static final String[] V2_KEYS = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"};
    private static final String[] V1_REQUIRED = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId",
        "sysFlag", "bornTimestamp", "flag"};
    private static final String[] RPC_FIELDS = {"ns", "nsd", "bname", "oway", "lo"};

    /** What a 5.3.3 producer sends with V2 headers, brokerName included. */
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
        m.put("i", "KEYS\u0001OrderID188\u0002UNIQ_KEY\u0001C0A8010100002A9F0000000000000000\u0002WAIT\u0001true\u0002TAGS\u0001TagA\u0002");
        m.put("j", "0");
        m.put("k", "false");
        m.put("l", "16");
        m.put("m", "false");
        m.put("n", "broker-a");
        return m;
    }

    /** V1 names, with the RPC-layer fields 5.3.3's reflection also reads (namespace, brokerName, oneway, logical). */
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
        m.put("properties", "TAGS\u0001TagA\u0002");
        m.put("reconsumeTimes", "0");
        m.put("unitMode", "false");
        m.put("batch", "false");
        m.put("maxReconsumeTimes", "16");
        m.put("ns", "namespace-1");
        m.put("nsd", "true");
        m.put("bname", "broker-a");
        m.put("oway", "true");
        m.put("lo", "false");
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
        for (String key : V1_REQUIRED) {
            cases.put("V1 without " + key, with(producerV1(), key, null));
            cases.put("V1 with " + key + "=x", with(producerV1(), key, "x"));
        }
        for (String key : RPC_FIELDS) {
            cases.put("V1 without " + key, with(producerV1(), key, null));
            cases.put("V1 with " + key + "=x", with(producerV1(), key, "x"));
            cases.put("V2 with " + key, with(producerV2(), key, "TRUE"));
        }
        String[] numbers = {" 7", "7 ", "+7", "-0", "007", "1.5", "0x10", "\u0663", "\uff17", "2147483647", "2147483648",
            "-2147483649", "9223372036854775807", "9223372036854775808", "-"};
        for (String number : numbers) {
            cases.put("V2 with d=" + number, with(producerV2(), "d", number));
            cases.put("V2 with g=" + number, with(producerV2(), "g", number));
            cases.put("V2 with j=" + number, with(producerV2(), "j", number));
            cases.put("V2 with l=" + number, with(producerV2(), "l", number));
            cases.put("V1 with bornTimestamp=" + number, with(producerV1(), "bornTimestamp", number));
        }
        for (String bool : new String[] {"true", "TRUE", "yes", "1", ""}) {
            cases.put("V2 with k=" + bool, with(producerV2(), "k", bool));
            cases.put("V2 with m=" + bool, with(producerV2(), "m", bool));
            cases.put("V1 with oway=" + bool, with(producerV1(), "oway", bool));
        }
        HashMap<String, String> missingThenBad = with(with(producerV2(), "a", null), "e", "x");
        cases.put("V2 without a and b and with e=x", with(missingThenBad, "b", null));
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
    void parsesLike533(String name, int code, HashMap<String, String> extFields) {
        for (boolean reply : new boolean[] {false, true}) {
            assertThat(outcome(SendHeaderParser533.candidate(), reply, code, extFields))
                .as("%s processor, %s, code %d", reply ? "reply" : "send", name, code)
                .isEqualTo(outcome(SendHeaderParser533.UPSTREAM, reply, code, extFields));
        }
    }

    /** A raw-typed caller can put a value that is not a String: the cast fails where 5.3.3's does (V2) or is logged (V1). */
    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void failsOnAValueThatIsNotAStringLike533() {
        for (String key : new String[] {"a", "d", "i", "n", "producerGroup", "queueId", "ns", "lo"}) {
            for (int code : new int[] {310, 10}) {
                HashMap raw = key.length() == 1 ? producerV2() : producerV1();
                raw.put(key, 7);
                assertThat(outcome(SendHeaderParser533.candidate(), false, code, raw)).as("key %s, code %d", key, code)
                    .isEqualTo(outcome(SendHeaderParser533.UPSTREAM, false, code, raw));
            }
        }
    }

    @Test
    void upstreamThrowsTheNumberFormatExceptionAfterLoggingTheKeysBeforeIt() {
        DecodeOutcome upstream = outcome(SendHeaderParser533.UPSTREAM, false, 310, cases().get("V2 without a and b and with e=x"));
        assertThat(upstream.result()).isEqualTo("threw java.lang.NumberFormatException: For input string: \"x\"");
        assertThat(upstream.logged()).containsExactly(RemotingLog533.missingV2Key("a"), RemotingLog533.missingV2Key("b"));
    }

    @Test
    void upstreamThrowsForAMalformedOptionalNumberToo() {
        for (String key : new String[] {"j", "l"}) {
            DecodeOutcome upstream = outcome(SendHeaderParser533.UPSTREAM, false, 310, with(producerV2(), key, "1.5"));
            assertThat(upstream.result()).as(key).isEqualTo("threw java.lang.NumberFormatException: For input string: \"1.5\"");
            assertThat(upstream.logged()).as(key).isEmpty();
        }
    }

    @Test
    void upstreamLogsAMissingRequiredKeyAndLeavesTheFieldNull() throws RemotingCommandException {
        HashMap<String, String> noTopic = with(producerV2(), "b", null);
        assertThat(outcome(SendHeaderParser533.UPSTREAM, false, 310, noTopic).logged()).containsExactly(RemotingLog533.missingV2Key("b"));
        assertThat(SendHeaderParser533.UPSTREAM.parseRequestHeader(SendHeaderParser533.request(310, noTopic)).getTopic()).isNull();
    }

    @Test
    void upstreamCarriesBrokerNameIntoBnameAndReadsNoOtherRpcFieldOnV2() throws RemotingCommandException {
        HashMap<String, String> v2WithRpcKeys = producerV2();
        v2WithRpcKeys.put("ns", "namespace-1");
        v2WithRpcKeys.put("nsd", "true");
        v2WithRpcKeys.put("bname", "broker-b");
        v2WithRpcKeys.put("oway", "true");
        v2WithRpcKeys.put("lo", "false");
        SendMessageRequestHeader header = SendHeaderParser533.UPSTREAM.parseRequestHeader(SendHeaderParser533.request(310, v2WithRpcKeys));
        assertThat(header.getBrokerName()).isEqualTo("broker-a");
        assertThat(header.getNamespace()).isNull();
        assertThat(header.getNamespaced()).isNull();
        assertThat(header.getOneway()).isNull();
        assertThat(header.getLo()).isNull();
        assertThat(SendHeaderDecoder533.decodeV2AsV1(producerV2()).getBrokerName()).isEqualTo("broker-a");
    }

    @Test
    void upstreamDecodesTheRpcFieldsOfAV1Request() throws RemotingCommandException {
        SendMessageRequestHeader header = SendHeaderParser533.UPSTREAM.parseRequestHeader(SendHeaderParser533.request(10, producerV1()));
        assertThat(header.getNamespace()).isEqualTo("namespace-1");
        assertThat(header.getNamespaced()).isTrue();
        assertThat(header.getBrokerName()).isEqualTo("broker-a");
        assertThat(header.getOneway()).isTrue();
        assertThat(header.getLo()).isFalse();
    }

    /** 5.3.3's reflection logs each failed field, in the order of its HashSet of the hierarchy's fields, and goes on. */
    @Test
    void upstreamLogsEachMissingRequiredV1FieldOnceAndThrowsNothing() {
        DecodeOutcome upstream = outcome(SendHeaderParser533.UPSTREAM, false, 10, new HashMap<>());
        assertThat(upstream.result()).startsWith("returned " + SendMessageRequestHeader.class.getName());
        List<String> expected = new ArrayList<>();
        for (String field : V1_REQUIRED) {
            expected.add(RemotingLog533.fieldFailure(field, RemotingCommandException.class, "the custom field <" + field + "> is null"));
        }
        assertThat(upstream.logged()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void upstreamLogsAV1NumberItRejectsAndLeavesTheFieldNull() {
        DecodeOutcome upstream = outcome(SendHeaderParser533.UPSTREAM, false, 10, with(producerV1(), "queueId", "x"));
        assertThat(upstream.result()).contains("SendMessageRequestHeader.queueId=null");
        assertThat(upstream.logged()).containsExactly(
            RemotingLog533.fieldFailure("queueId", NumberFormatException.class, "For input string: \"x\""));
    }

    @Test
    void upstreamGivesAnAllNullHeaderForNullExtFieldsWithoutALogLine() {
        DecodeOutcome upstream = outcome(SendHeaderParser533.UPSTREAM, false, 320, null);
        assertThat(upstream.logged()).isEmpty();
        assertThat(upstream.result()).startsWith("returned " + SendMessageRequestHeader.class.getName())
            .contains("SendMessageRequestHeader.topic=null", "SendMessageRequestHeader.unitMode=null", "RpcRequestHeader.bname=null",
                "TopicRequestHeader.lo=null");
    }

    /**
     * The oracle is the stock rocketmq-broker jar's own processors (never a restatement, never the candidate's classes of
     * the same name), each overriding {@code parseRequestHeader} where the release does: the reply processor's switch is
     * upstream's bytecode.
     */
    @Test
    void upstreamIsTheStockBrokerJarsOwnProcessors() throws Exception {
        SendHeaderParser533.Processors stock = SendHeaderParser533.Processors.stock();
        String jar = Path.of(System.getProperty(SendHeaderParser533.STOCK_BROKER_JAR)).toUri().getPath();
        for (Object processor : new Object[] {stock.send, stock.reply}) {
            assertThat(processor.getClass().getClassLoader()).isInstanceOf(SendHeaderParser533.StockBrokerLoader.class);
            assertThat(processor.getClass().getProtectionDomain().getCodeSource().getLocation().getPath()).isEqualTo(jar);
            assertThat(processor.getClass().getSuperclass().getProtectionDomain().getCodeSource().getLocation().getPath())
                .isEqualTo(jar);
        }
        assertThat(stock.send.getClass().getName()).isEqualTo(SendHeaderParser533.SEND_PROCESSOR);
        assertThat(stock.reply.getClass().getName()).isEqualTo(SendHeaderParser533.REPLY_PROCESSOR);
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(stock.reply.getClass(), MethodHandles.lookup());
        assertThat(lookup.revealDirect(lookup.findVirtual(stock.reply.getClass(), "parseRequestHeader",
            MethodType.methodType(SendMessageRequestHeader.class, RemotingCommand.class))).getDeclaringClass())
            .isSameAs(stock.reply.getClass());
        // a request the reply switch maps to null: no header for a send code, upstream's fall-through default
        assertThat(SendHeaderParser533.UPSTREAM.parseReplyRequestHeader(SendHeaderParser533.request(310, producerV2()))).isNull();
    }
}
