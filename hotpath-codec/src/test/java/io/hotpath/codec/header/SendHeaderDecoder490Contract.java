package io.hotpath.codec.header;

import static io.hotpath.codec.header.RemotingLog.fieldFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Apache RocketMQ 4.9.0 does when the broker decodes a send-message header
 * (docs/upstream-behavior.md, section 2), case by case.
 * Subclasses bind it to one implementation; it runs against 4.9.0 reflection and the 4.9.0
 * broker processors too, which proves the expectations are upstream's.
 */
abstract class SendHeaderDecoder490Contract {

    static final String[] V2_REQUIRED = {"a", "b", "c", "d", "e", "f", "g", "h"};
    static final String[] V1_REQUIRED = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId",
        "sysFlag", "bornTimestamp", "flag"};

    protected abstract SendHeaderDecoderImpl decoder();

    /** What a 4.9.0 producer sends with SEND_MESSAGE_V2 for a message with keys and a tag. */
    static HashMap<String, String> v2() {
        return map("a", "please_rename_unique_group_name", "b", "TopicTest", "c", "TBW102", "d", "4", "e", "3", "f", "0",
            "g", "1700000000123", "h", "0", "i", "KEYS\1OrderID188\2WAIT\1true\2TAGS\1TagA\2", "j", "0", "k", "false",
            "l", "16", "m", "false");
    }

    /** The same message with V1 names (SEND_MESSAGE, client -Dorg.apache.rocketmq.client.sendSmartMsg=false). */
    static HashMap<String, String> v1() {
        return map("producerGroup", "please_rename_unique_group_name", "topic", "TopicTest", "defaultTopic", "TBW102",
            "defaultTopicQueueNums", "4", "queueId", "3", "sysFlag", "0", "bornTimestamp", "1700000000123", "flag", "0",
            "properties", "KEYS\1OrderID188\2WAIT\1true\2TAGS\1TagA\2", "reconsumeTimes", "0", "unitMode", "false",
            "maxReconsumeTimes", "16", "batch", "false");
    }

    static HashMap<String, String> map(String... kv) {
        HashMap<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static HashMap<String, String> with(HashMap<String, String> m, String key, String value) {
        if (value == null) {
            m.remove(key);
        } else {
            m.put(key, value);
        }
        return m;
    }

    private DecodeOutcome v2Outcome(HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> decoder().decodeV2(extFields));
    }

    private DecodeOutcome v1Outcome(HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> decoder().decodeV1(extFields));
    }

    private static String nfeMessage(Runnable parse) {
        try {
            parse.run();
        } catch (NumberFormatException e) {
            return e.getMessage();
        }
        throw new AssertionError("the JDK accepted it");
    }

    private SendMessageRequestHeaderV2 decodeV2Silently(HashMap<String, String> extFields) {
        SendMessageRequestHeaderV2[] header = new SendMessageRequestHeaderV2[1];
        List<String> logged = RemotingLog.during(() -> header[0] = uncheckedV2(extFields));
        assertThat(logged).as("logged").isEmpty();
        return header[0];
    }

    private SendMessageRequestHeaderV2 uncheckedV2(HashMap<String, String> extFields) {
        try {
            return decoder().decodeV2(extFields);
        } catch (RemotingCommandException e) {
            throw new AssertionError(e);
        }
    }

    private SendMessageRequestHeader uncheckedV1(HashMap<String, String> extFields) {
        try {
            return decoder().decodeV1(extFields);
        } catch (RemotingCommandException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void decodesEveryV2FieldOfWhatA490ProducerSends() {
        SendMessageRequestHeaderV2 h = decodeV2Silently(v2());
        assertThat(h.getA()).isEqualTo("please_rename_unique_group_name");
        assertThat(h.getB()).isEqualTo("TopicTest");
        assertThat(h.getC()).isEqualTo("TBW102");
        assertThat(h.getD()).isEqualTo(4);
        assertThat(h.getE()).isEqualTo(3);
        assertThat(h.getF()).isEqualTo(0);
        assertThat(h.getG()).isEqualTo(1700000000123L);
        assertThat(h.getH()).isEqualTo(0);
        assertThat(h.getI()).isEqualTo("KEYS\1OrderID188\2WAIT\1true\2TAGS\1TagA\2");
        assertThat(h.getJ()).isEqualTo(0);
        assertThat(h.isK()).isFalse();
        assertThat(h.getL()).isEqualTo(16);
        assertThat(h.isM()).isFalse();
    }

    @Test
    void decodesEveryV1FieldOfWhatA490ProducerSends() {
        SendMessageRequestHeader[] header = new SendMessageRequestHeader[1];
        assertThat(RemotingLog.during(() -> header[0] = uncheckedV1(with(v1(), "unitMode", "true")))).isEmpty();
        SendMessageRequestHeader h = header[0];
        assertThat(h.getProducerGroup()).isEqualTo("please_rename_unique_group_name");
        assertThat(h.getTopic()).isEqualTo("TopicTest");
        assertThat(h.getDefaultTopic()).isEqualTo("TBW102");
        assertThat(h.getDefaultTopicQueueNums()).isEqualTo(4);
        assertThat(h.getQueueId()).isEqualTo(3);
        assertThat(h.getSysFlag()).isEqualTo(0);
        assertThat(h.getBornTimestamp()).isEqualTo(1700000000123L);
        assertThat(h.getFlag()).isEqualTo(0);
        assertThat(h.getProperties()).isEqualTo("KEYS\1OrderID188\2WAIT\1true\2TAGS\1TagA\2");
        assertThat(h.getReconsumeTimes()).isEqualTo(0);
        assertThat(h.isUnitMode()).isTrue();
        assertThat(h.getMaxReconsumeTimes()).isEqualTo(16);
        assertThat(h.isBatch()).isFalse();
    }

    @ParameterizedTest(name = "V2 without {0}")
    @ValueSource(strings = {"a", "b", "c", "d", "e", "f", "g", "h"})
    void decodesMissingRequiredV2FieldAsNullAndLogsLikeReflection(String field) {
        DecodeOutcome missing = v2Outcome(with(v2(), field, null));
        assertThat(missing.result()).doesNotStartWith("threw").contains("SendMessageRequestHeaderV2." + field + "=null,");
        assertThat(missing.logged()).containsExactly(
            fieldFailure(field, RemotingCommandException.class, "the custom field <" + field + "> is null"));
    }

    @ParameterizedTest(name = "V1 without {0}")
    @ValueSource(strings = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId", "sysFlag",
        "bornTimestamp", "flag"})
    void decodesMissingRequiredV1FieldAsNullAndLogsLikeReflection(String field) {
        DecodeOutcome missing = v1Outcome(with(v1(), field, null));
        assertThat(missing.result()).doesNotStartWith("threw").contains("SendMessageRequestHeader." + field + "=null,");
        assertThat(missing.logged()).containsExactly(
            fieldFailure(field, RemotingCommandException.class, "the custom field <" + field + "> is null"));
    }

    @Test
    void leavesMissingOptionalFieldsAtTheirDefaultsWithoutLogging() {
        HashMap<String, String> v2 = v2();
        for (String optional : new String[] {"i", "j", "k", "l", "m"}) {
            v2.remove(optional);
        }
        SendMessageRequestHeaderV2 h = decodeV2Silently(v2);
        assertThat(h.getI()).isNull();
        assertThat(h.getJ()).isNull();
        assertThat(h.isK()).isFalse();
        assertThat(h.getL()).isNull();
        assertThat(h.isM()).isFalse();

        HashMap<String, String> v1 = v1();
        for (String optional : new String[] {"properties", "reconsumeTimes", "unitMode", "maxReconsumeTimes", "batch"}) {
            v1.remove(optional);
        }
        List<String> logged = RemotingLog.during(() -> {
            SendMessageRequestHeader h1 = uncheckedV1(v1);
            assertThat(h1.getProperties()).isNull();
            assertThat(h1.getReconsumeTimes()).isNull();
            assertThat(h1.isUnitMode()).isFalse();
            assertThat(h1.getMaxReconsumeTimes()).isNull();
            assertThat(h1.isBatch()).isFalse();
        });
        assertThat(logged).isEmpty();
    }

    @ParameterizedTest(name = "e=\"{0}\"")
    @ValueSource(strings = {"x", " 7", "7 ", "\t7", "1.5", "", "+", "-", "--1", "+-1", "0x10", "1e3", "1_000", "2147483648",
        "-2147483649", "99999999999", "\ud835\udfd5"})
    void logsIntegerThatParseIntRejectsAndLeavesTheFieldNull(String value) {
        String message = nfeMessage(() -> Integer.parseInt(value));
        DecodeOutcome v2 = v2Outcome(with(v2(), "e", value));
        assertThat(v2.result()).contains("SendMessageRequestHeaderV2.e=null,");
        assertThat(v2.logged()).containsExactly(fieldFailure("e", NumberFormatException.class, message));
        DecodeOutcome v1 = v1Outcome(with(v1(), "maxReconsumeTimes", value));
        assertThat(v1.result()).contains("SendMessageRequestHeader.maxReconsumeTimes=null,");
        assertThat(v1.logged()).containsExactly(fieldFailure("maxReconsumeTimes", NumberFormatException.class, message));
    }

    @ParameterizedTest(name = "g=\"{0}\"")
    @ValueSource(strings = {"x", "1700000000000 ", " 1700000000000", "", "+", "1.7e12", "9223372036854775808",
        "-9223372036854775809", "17000000000000000000000"})
    void logsLongThatParseLongRejectsAndLeavesTheFieldNull(String value) {
        String message = nfeMessage(() -> Long.parseLong(value));
        DecodeOutcome v2 = v2Outcome(with(v2(), "g", value));
        assertThat(v2.result()).contains("SendMessageRequestHeaderV2.g=null,");
        assertThat(v2.logged()).containsExactly(fieldFailure("g", NumberFormatException.class, message));
        DecodeOutcome v1 = v1Outcome(with(v1(), "bornTimestamp", value));
        assertThat(v1.result()).contains("SendMessageRequestHeader.bornTimestamp=null,");
        assertThat(v1.logged()).containsExactly(fieldFailure("bornTimestamp", NumberFormatException.class, message));
    }

    @ParameterizedTest(name = "e=\"{0}\" is {1}")
    @CsvSource(delimiter = '|', value = {
        "+7|7", "-7|-7", "-0|0", "+0|0", "007|7", "0000000000000000000007|7", "2147483647|2147483647",
        "+2147483647|2147483647", "-2147483648|-2147483648", "999999999|999999999", "1000000000|1000000000",
        // Character.digit accepts every Unicode decimal digit: Arabic-Indic, fullwidth, Devanagari
        "\u0663|3", "\uff17|7", "\u0967\u0968|12", "-\u0663|-3", "\uff11\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10|1000000000"})
    void decodesEveryIntegerParseIntAcceptsLikeReflection(String value, int expected) {
        assertThat(decodeV2Silently(with(v2(), "e", value)).getE()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "g=\"{0}\" is {1}")
    @CsvSource(delimiter = '|', value = {
        "+1|1", "-0|0", "0001700000000000|1700000000000", "9223372036854775807|9223372036854775807",
        "-9223372036854775808|-9223372036854775808", "999999999999999999|999999999999999999",
        "1000000000000000000|1000000000000000000", "\u0661\u0667\u0660\u0660|1700"})
    void decodesEveryLongParseLongAcceptsLikeReflection(String value, long expected) {
        assertThat(decodeV2Silently(with(v2(), "g", value)).getG()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "k=m=\"{0}\" is {1}")
    @CsvSource(delimiter = '|', value = {
        "true|true", "TRUE|true", "True|true", "tRuE|true", "false|false", "yes|false", "1|false", "on|false",
        "' true'|false", "'true '|false", "''|false", "truee|false"})
    void decodesBooleansLikeBooleanParseBoolean(String value, boolean expected) {
        SendMessageRequestHeaderV2 v2 = decodeV2Silently(with(with(v2(), "k", value), "m", value));
        assertThat(v2.isK()).isEqualTo(expected);
        assertThat(v2.isM()).isEqualTo(expected);
        List<String> logged = RemotingLog.during(() -> {
            SendMessageRequestHeader v1 = uncheckedV1(with(with(v1(), "unitMode", value), "batch", value));
            assertThat(v1.isUnitMode()).isEqualTo(expected);
            assertThat(v1.isBatch()).isEqualTo(expected);
        });
        assertThat(logged).isEmpty();
    }

    @Test
    void keepsEmptyAndNonAsciiStringsAsTheyAre() {
        SendMessageRequestHeaderV2 h = decodeV2Silently(with(with(with(v2(), "a", ""), "b", "\u4e2d\ud83d\ude00\ud800"), "i", ""));
        assertThat(h.getA()).isEmpty();
        assertThat(h.getB()).isEqualTo("\u4e2d\ud83d\ude00\ud800");
        assertThat(h.getI()).isEmpty();
    }

    @Test
    void ignoresUnknownKeys() {
        HashMap<String, String> v2 = v2();
        v2.putAll(map("producerGroup", "other", "n", "broker-a", "A", "x", "", "y", "aa", "1", "this", "z", "thisA", "w"));
        assertThat(v2Outcome(v2)).isEqualTo(v2Outcome(v2()));
        HashMap<String, String> v1 = v1();
        v1.putAll(map("a", "other", "e", "9", "brokerName", "broker-a", "QUEUEID", "1"));
        assertThat(v1Outcome(v1)).isEqualTo(v1Outcome(v1()));
    }

    @Test
    void decodesNullExtFieldsAsAllDefaultHeaderWithoutLogging() {
        SendMessageRequestHeaderV2 v2 = decodeV2Silently(null);
        assertThat(DecodeOutcome.describe(v2)).isEqualTo(DecodeOutcome.describe(new SendMessageRequestHeaderV2()));
        List<String> logged = RemotingLog.during(() -> assertThat(DecodeOutcome.describe(uncheckedV1(null)))
            .isEqualTo(DecodeOutcome.describe(new SendMessageRequestHeader())));
        assertThat(logged).isEmpty();
    }

    @Test
    void logsEveryRequiredFieldOfAnEmptyMapInDeclarationOrder() {
        DecodeOutcome v2 = v2Outcome(new HashMap<>());
        assertThat(v2.result()).isEqualTo("returned " + DecodeOutcome.describe(new SendMessageRequestHeaderV2()));
        assertThat(v2.logged()).containsExactly(missing(V2_REQUIRED));
        DecodeOutcome v1 = v1Outcome(new HashMap<>());
        assertThat(v1.result()).isEqualTo("returned " + DecodeOutcome.describe(new SendMessageRequestHeader()));
        assertThat(v1.logged()).containsExactly(missing(V1_REQUIRED));
    }

    @Test
    void logsEveryRequiredV2FieldWhenSentV1Names() {
        assertThat(v2Outcome(v1()).logged()).containsExactly(missing(V2_REQUIRED));
        assertThat(v1Outcome(v2()).logged()).containsExactly(missing(V1_REQUIRED));
    }

    static String[] missing(String... fields) {
        String[] lines = new String[fields.length];
        for (int i = 0; i < fields.length; i++) {
            lines[i] = fieldFailure(fields[i], RemotingCommandException.class, "the custom field <" + fields[i] + "> is null");
        }
        return lines;
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void logsAValueThatIsNotAStringAsClassCastExceptionLikeReflection() {
        HashMap raw = v2();
        raw.put("e", 7);
        raw.put("i", new StringBuilder("props"));
        raw.put("k", Boolean.TRUE);
        DecodeOutcome v2 = v2Outcome(raw);
        assertThat(v2.result()).contains("SendMessageRequestHeaderV2.e=null,", "SendMessageRequestHeaderV2.i=null,",
            "SendMessageRequestHeaderV2.k=Boolean false,");
        assertThat(v2.logged()).containsExactly(
            fieldFailure("e", ClassCastException.class, castMessage(7)),
            fieldFailure("i", ClassCastException.class, castMessage(new StringBuilder())),
            fieldFailure("k", ClassCastException.class, castMessage(Boolean.TRUE)));
    }

    private static String castMessage(Object notAString) {
        try {
            String s = (String) notAString;
            throw new AssertionError(s);
        } catch (ClassCastException e) {
            return e.getMessage();
        }
    }

    @Test
    void callsCheckFieldsOnceAfterTheFieldsWhenExtFieldsArePresent() throws RemotingCommandException {
        for (HashMap<String, String> extFields : List.of(v2(), v1(), new HashMap<String, String>())) {
            CheckedHeaders.reset(null);
            decoder().decodeV2As(extFields, CheckedHeaders.CheckedV2.class);
            assertThat(CheckedHeaders.calls).as("V2 checkFields() calls").isEqualTo(1);
            CheckedHeaders.reset(null);
            decoder().decodeV1As(extFields, CheckedHeaders.CheckedV1.class);
            assertThat(CheckedHeaders.calls).as("V1 checkFields() calls").isEqualTo(1);
        }
    }

    @Test
    void doesNotCallCheckFieldsForNullExtFields() throws RemotingCommandException {
        CheckedHeaders.reset(new RemotingCommandException("must not be called"));
        assertThat(decoder().decodeV2As(null, CheckedHeaders.CheckedV2.class)).isNotNull();
        assertThat(decoder().decodeV1As(null, CheckedHeaders.CheckedV1.class)).isNotNull();
        assertThat(CheckedHeaders.calls).isZero();
    }

    @Test
    void propagatesTheExceptionOfCheckFields() {
        RemotingCommandException invalid = new RemotingCommandException("invalid header");
        CheckedHeaders.reset(invalid);
        assertThatThrownBy(() -> decoder().decodeV2As(v2(), CheckedHeaders.CheckedV2.class)).isSameAs(invalid);
        assertThatThrownBy(() -> decoder().decodeV1As(new HashMap<>(), CheckedHeaders.CheckedV1.class)).isSameAs(invalid);
    }

    // ---- the broker entry points ----

    private DecodeOutcome send(int code, HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> decoder().parseRequestHeader(SendHeaderDecoderImpl.request(code, extFields)));
    }

    private DecodeOutcome reply(int code, HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> decoder().parseReplyRequestHeader(SendHeaderDecoderImpl.request(code, extFields)));
    }

    private static String describedV1Of(SendMessageRequestHeaderV2 v2) {
        return "returned " + DecodeOutcome.describe(SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(v2));
    }

    @Test
    void parsesSendMessageV2AndBatchAsTheConvertedV1Header() {
        SendMessageRequestHeaderV2 v2 = decodeV2Silently(v2());
        for (int code : new int[] {RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE}) {
            DecodeOutcome parsed = send(code, with(v2(), "m", code == RequestCode.SEND_BATCH_MESSAGE ? "true" : "false"));
            v2.setM(code == RequestCode.SEND_BATCH_MESSAGE);
            assertThat(parsed.result()).as("code %d", code).isEqualTo(describedV1Of(v2));
            assertThat(parsed.logged()).isEmpty();
        }
    }

    @Test
    void parsesSendMessageAsTheV1Header() {
        DecodeOutcome parsed = send(RequestCode.SEND_MESSAGE, v1());
        assertThat(parsed.result()).isEqualTo("returned " + DecodeOutcome.describe(uncheckedV1(v1())));
        assertThat(parsed.logged()).isEmpty();
    }

    @Test
    void parsesReplyV2AsTheConvertedV1HeaderAndReplyAsV1() {
        assertThat(reply(RequestCode.SEND_REPLY_MESSAGE_V2, v2()).result()).isEqualTo(describedV1Of(decodeV2Silently(v2())));
        assertThat(reply(RequestCode.SEND_REPLY_MESSAGE, v1()).result())
            .isEqualTo("returned " + DecodeOutcome.describe(uncheckedV1(v1())));
    }

    @Test
    void returnsNullForCodesTheProcessorDoesNotParse() {
        for (int code : new int[] {RequestCode.SEND_REPLY_MESSAGE, RequestCode.SEND_REPLY_MESSAGE_V2,
            RequestCode.CONSUMER_SEND_MSG_BACK, 0, -1, 11}) {
            DecodeOutcome parsed = send(code, v2());
            assertThat(parsed.result()).as("send processor, code %d", code).isEqualTo("returned null");
            assertThat(parsed.logged()).isEmpty();
        }
        for (int code : new int[] {RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE, 0}) {
            assertThat(reply(code, v2()).result()).as("reply processor, code %d", code).isEqualTo("returned null");
        }
    }

    @Test
    void parsesNullExtFieldsOfEveryCodeAsAllDefaultV1Header() {
        String allDefault = "returned " + DecodeOutcome.describe(new SendMessageRequestHeader());
        for (int code : new int[] {RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE, RequestCode.SEND_MESSAGE}) {
            DecodeOutcome parsed = send(code, null);
            assertThat(parsed.result()).as("code %d", code).isEqualTo(allDefault);
            assertThat(parsed.logged()).isEmpty();
        }
        assertThat(reply(RequestCode.SEND_REPLY_MESSAGE_V2, null).result()).isEqualTo(allDefault);
        assertThat(reply(RequestCode.SEND_REPLY_MESSAGE, null).result()).isEqualTo(allDefault);
    }

    @Test
    void parsesMalformedRequestsWithoutThrowingAndLogsEachField() {
        DecodeOutcome parsed = send(RequestCode.SEND_MESSAGE_V2, with(with(v2(), "a", null), "e", "x"));
        assertThat(parsed.result()).contains("SendMessageRequestHeader.producerGroup=null,", "SendMessageRequestHeader.queueId=null,");
        assertThat(parsed.logged()).containsExactly(missing("a")[0],
            fieldFailure("e", NumberFormatException.class, "For input string: \"x\""));
        assertThat(send(RequestCode.SEND_MESSAGE, v2()).logged()).containsExactly(missing(V1_REQUIRED));
    }

    @Test
    void readsOnlyTheCodeAndExtFieldsOfTheRequest() {
        RemotingCommand request = SendHeaderDecoderImpl.request(RequestCode.SEND_MESSAGE_V2, v2());
        request.setBody(new byte[] {1, 2, 3});
        request.setRemark("remark");
        assertThat(DecodeOutcome.of(() -> decoder().parseRequestHeader(request)).result())
            .isEqualTo(describedV1Of(decodeV2Silently(v2())));
        assertThat(request.getExtFields()).isEqualTo(v2());
    }
}
