/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.codec.header;

import java.util.Map;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Drop-in for Apache RocketMQ <b>4.9.0</b>'s reflective
 * {@code RemotingCommand#decodeCommandCustomHeader} on the send path, for 4.9.0's own
 * {@link SendMessageRequestHeaderV2} (codes 310, 320, 325) and {@link SendMessageRequestHeader}
 * (codes 10, 324), and for the broker methods that call it,
 * {@code AbstractSendMessageProcessor#parseRequestHeader} and
 * {@code ReplyMessageProcessor#parseRequestHeader}: same header, field by field, same
 * {@code checkFields()} call, same exception, same log lines, for every extFields map. (The entry
 * points build no V2 header, so they skip its {@code checkFields()}, which is empty in 4.9.0.)
 *
 * <p>Quirks of 4.9.0 reflection kept on purpose (docs/upstream-behavior.md, section 2):
 * <ul>
 *   <li>nothing throws while decoding a field: a missing {@code @CFNotNull} field, a number
 *       {@code Integer/Long.parseInt} rejects (blank, {@code " 7"}, {@code "1.5"}, overflow) and a
 *       value that is not a String are each logged as
 *       {@code error("Failed field [{}] decoding", name, cause)} on logger
 *       {@code RocketmqRemoting}, with the cause reflection builds, and the field keeps its
 *       default (null, or false for the primitive booleans);</li>
 *   <li>numbers are whatever the JDK's {@code parseInt}/{@code parseLong} accept: a leading
 *       {@code +}, leading zeros, and non-ASCII Unicode digits ({@code "\u0663"} is 3);</li>
 *   <li>booleans are {@code Boolean.parseBoolean}: only a case-insensitive "true" is true;</li>
 *   <li>fields are visited in declaration order, so several failures are logged in reflection's
 *       order; unknown keys are ignored;</li>
 *   <li>null extFields give an all-default header without {@code checkFields()} and without
 *       logging; otherwise {@code checkFields()} runs after the fields and its exception
 *       propagates.</li>
 * </ul>
 *
 * <p>Faster because it reads the 13 keys with constant names and sets the fields through their
 * setters: no {@code Class.newInstance}, no per-field cache lookups, canonical-name compares or
 * {@code Field.set}. Plain ASCII numbers are parsed inline; anything else goes to the JDK parser,
 * so the result is the JDK's by construction. On the broker path V2 keys go straight into the V1
 * header, without the intermediate V2 object upstream allocates and copies.
 */
public final class SendHeaderDecoder {

    // The logger reflection logs to (RemotingCommand's), through the same InternalLogger method.
    private static final InternalLogger REMOTING_LOG = InternalLoggerFactory.getLogger(RemotingHelper.ROCKETMQ_REMOTING);

    private SendHeaderDecoder() {
    }

    /**
     * {@code AbstractSendMessageProcessor#parseRequestHeader} of 4.9.0: SEND_MESSAGE_V2 and
     * SEND_BATCH_MESSAGE give the V1 header of the decoded V2 fields, SEND_MESSAGE decodes V1, any
     * other code gives null.
     */
    public static SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
        switch (request.getCode()) {
            case RequestCode.SEND_BATCH_MESSAGE:
            case RequestCode.SEND_MESSAGE_V2:
                return decodeV2AsV1(request.getExtFields());
            case RequestCode.SEND_MESSAGE:
                return decodeV1(request.getExtFields());
            default:
                return null;
        }
    }

    /**
     * {@code ReplyMessageProcessor#parseRequestHeader} of 4.9.0: SEND_REPLY_MESSAGE_V2 gives the V1
     * header of the decoded V2 fields, SEND_REPLY_MESSAGE decodes V1, any other code gives null.
     */
    public static SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
        switch (request.getCode()) {
            case RequestCode.SEND_REPLY_MESSAGE_V2:
                return decodeV2AsV1(request.getExtFields());
            case RequestCode.SEND_REPLY_MESSAGE:
                return decodeV1(request.getExtFields());
            default:
                return null;
        }
    }

    /** {@code request.decodeCommandCustomHeader(SendMessageRequestHeaderV2.class)} of 4.9.0. */
    public static SendMessageRequestHeaderV2 decodeV2(Map<String, String> extFields) throws RemotingCommandException {
        return decodeV2Into(extFields, new SendMessageRequestHeaderV2());
    }

    /** {@code request.decodeCommandCustomHeader(SendMessageRequestHeader.class)} of 4.9.0. */
    public static SendMessageRequestHeader decodeV1(Map<String, String> extFields) throws RemotingCommandException {
        return decodeV1Into(extFields, new SendMessageRequestHeader());
    }

    /**
     * {@code SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(decodeV2(extFields))}
     * without the intermediate V2 header: V2 keys straight into the V1 header the send path uses.
     * The only thing skipped is {@code SendMessageRequestHeaderV2#checkFields()}, which is empty in
     * 4.9.0 (the differential suite compares this against the broker's own parseRequestHeader,
     * which does call it).
     */
    public static SendMessageRequestHeader decodeV2AsV1(Map<String, String> extFields) {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        if (extFields != null) {
            setV2FieldsOnV1(extFields, header);
        }
        return header;
    }

    /** Decodes into a fresh header; tests pass a subclass to watch the {@code checkFields()} call. */
    static <H extends SendMessageRequestHeaderV2> H decodeV2Into(Map<String, String> extFields, H header)
        throws RemotingCommandException {
        if (extFields != null) {
            setV2Fields(extFields, header);
            header.checkFields();
        }
        return header;
    }

    static <H extends SendMessageRequestHeader> H decodeV1Into(Map<String, String> extFields, H header)
        throws RemotingCommandException {
        if (extFields != null) {
            setV1Fields(extFields, header);
            header.checkFields();
        }
        return header;
    }

    // Values are read as Object (no checkcast): reflection's `String value = extFields.get(name)`
    // fails inside its per-field try when a raw-typed caller stored a non-String, and so must ours.
    // Declaration order of 4.9.0: a b c d e f g h (@CFNotNull) i j k (@CFNullable) l (none) m (@CFNullable).
    private static void setV2Fields(Map<String, String> extFields, SendMessageRequestHeaderV2 header) {
        Object value = extFields.get("a");
        if (value instanceof String) {
            header.setA((String) value);
        } else {
            logUndecodableField("a", value);
        }
        value = extFields.get("b");
        if (value instanceof String) {
            header.setB((String) value);
        } else {
            logUndecodableField("b", value);
        }
        value = extFields.get("c");
        if (value instanceof String) {
            header.setC((String) value);
        } else {
            logUndecodableField("c", value);
        }
        value = extFields.get("d");
        if (value instanceof String) {
            header.setD(parseIntegerField("d", (String) value));
        } else {
            logUndecodableField("d", value);
        }
        value = extFields.get("e");
        if (value instanceof String) {
            header.setE(parseIntegerField("e", (String) value));
        } else {
            logUndecodableField("e", value);
        }
        value = extFields.get("f");
        if (value instanceof String) {
            header.setF(parseIntegerField("f", (String) value));
        } else {
            logUndecodableField("f", value);
        }
        value = extFields.get("g");
        if (value instanceof String) {
            header.setG(parseLongField("g", (String) value));
        } else {
            logUndecodableField("g", value);
        }
        value = extFields.get("h");
        if (value instanceof String) {
            header.setH(parseIntegerField("h", (String) value));
        } else {
            logUndecodableField("h", value);
        }
        // nullable from here on: a missing key is skipped silently
        value = extFields.get("i");
        if (value instanceof String) {
            header.setI((String) value);
        } else if (value != null) {
            logUndecodableField("i", value);
        }
        value = extFields.get("j");
        if (value instanceof String) {
            header.setJ(parseIntegerField("j", (String) value));
        } else if (value != null) {
            logUndecodableField("j", value);
        }
        value = extFields.get("k");
        if (value instanceof String) {
            header.setK(Boolean.parseBoolean((String) value));
        } else if (value != null) {
            logUndecodableField("k", value);
        }
        value = extFields.get("l");
        if (value instanceof String) {
            header.setL(parseIntegerField("l", (String) value));
        } else if (value != null) {
            logUndecodableField("l", value);
        }
        value = extFields.get("m");
        if (value instanceof String) {
            header.setM(Boolean.parseBoolean((String) value));
        } else if (value != null) {
            logUndecodableField("m", value);
        }
    }

    // setV2Fields with the V1 setters createSendMessageRequestHeaderV1 would call: same keys, same
    // declaration order (a..m), same logged names.
    private static void setV2FieldsOnV1(Map<String, String> extFields, SendMessageRequestHeader header) {
        Object value = extFields.get("a");
        if (value instanceof String) {
            header.setProducerGroup((String) value);
        } else {
            logUndecodableField("a", value);
        }
        value = extFields.get("b");
        if (value instanceof String) {
            header.setTopic((String) value);
        } else {
            logUndecodableField("b", value);
        }
        value = extFields.get("c");
        if (value instanceof String) {
            header.setDefaultTopic((String) value);
        } else {
            logUndecodableField("c", value);
        }
        value = extFields.get("d");
        if (value instanceof String) {
            header.setDefaultTopicQueueNums(parseIntegerField("d", (String) value));
        } else {
            logUndecodableField("d", value);
        }
        value = extFields.get("e");
        if (value instanceof String) {
            header.setQueueId(parseIntegerField("e", (String) value));
        } else {
            logUndecodableField("e", value);
        }
        value = extFields.get("f");
        if (value instanceof String) {
            header.setSysFlag(parseIntegerField("f", (String) value));
        } else {
            logUndecodableField("f", value);
        }
        value = extFields.get("g");
        if (value instanceof String) {
            header.setBornTimestamp(parseLongField("g", (String) value));
        } else {
            logUndecodableField("g", value);
        }
        value = extFields.get("h");
        if (value instanceof String) {
            header.setFlag(parseIntegerField("h", (String) value));
        } else {
            logUndecodableField("h", value);
        }
        // nullable from here on: a missing key is skipped silently
        value = extFields.get("i");
        if (value instanceof String) {
            header.setProperties((String) value);
        } else if (value != null) {
            logUndecodableField("i", value);
        }
        value = extFields.get("j");
        if (value instanceof String) {
            header.setReconsumeTimes(parseIntegerField("j", (String) value));
        } else if (value != null) {
            logUndecodableField("j", value);
        }
        value = extFields.get("k");
        if (value instanceof String) {
            header.setUnitMode(Boolean.parseBoolean((String) value));
        } else if (value != null) {
            logUndecodableField("k", value);
        }
        value = extFields.get("l");
        if (value instanceof String) {
            header.setMaxReconsumeTimes(parseIntegerField("l", (String) value));
        } else if (value != null) {
            logUndecodableField("l", value);
        }
        value = extFields.get("m");
        if (value instanceof String) {
            header.setBatch(Boolean.parseBoolean((String) value));
        } else if (value != null) {
            logUndecodableField("m", value);
        }
    }

    // Declaration order of 4.9.0 V1 differs from V2 after `reconsumeTimes`: unitMode, batch, maxReconsumeTimes.
    private static void setV1Fields(Map<String, String> extFields, SendMessageRequestHeader header) {
        Object value = extFields.get("producerGroup");
        if (value instanceof String) {
            header.setProducerGroup((String) value);
        } else {
            logUndecodableField("producerGroup", value);
        }
        value = extFields.get("topic");
        if (value instanceof String) {
            header.setTopic((String) value);
        } else {
            logUndecodableField("topic", value);
        }
        value = extFields.get("defaultTopic");
        if (value instanceof String) {
            header.setDefaultTopic((String) value);
        } else {
            logUndecodableField("defaultTopic", value);
        }
        value = extFields.get("defaultTopicQueueNums");
        if (value instanceof String) {
            header.setDefaultTopicQueueNums(parseIntegerField("defaultTopicQueueNums", (String) value));
        } else {
            logUndecodableField("defaultTopicQueueNums", value);
        }
        value = extFields.get("queueId");
        if (value instanceof String) {
            header.setQueueId(parseIntegerField("queueId", (String) value));
        } else {
            logUndecodableField("queueId", value);
        }
        value = extFields.get("sysFlag");
        if (value instanceof String) {
            header.setSysFlag(parseIntegerField("sysFlag", (String) value));
        } else {
            logUndecodableField("sysFlag", value);
        }
        value = extFields.get("bornTimestamp");
        if (value instanceof String) {
            header.setBornTimestamp(parseLongField("bornTimestamp", (String) value));
        } else {
            logUndecodableField("bornTimestamp", value);
        }
        value = extFields.get("flag");
        if (value instanceof String) {
            header.setFlag(parseIntegerField("flag", (String) value));
        } else {
            logUndecodableField("flag", value);
        }
        // nullable from here on: a missing key is skipped silently
        value = extFields.get("properties");
        if (value instanceof String) {
            header.setProperties((String) value);
        } else if (value != null) {
            logUndecodableField("properties", value);
        }
        value = extFields.get("reconsumeTimes");
        if (value instanceof String) {
            header.setReconsumeTimes(parseIntegerField("reconsumeTimes", (String) value));
        } else if (value != null) {
            logUndecodableField("reconsumeTimes", value);
        }
        value = extFields.get("unitMode");
        if (value instanceof String) {
            header.setUnitMode(Boolean.parseBoolean((String) value));
        } else if (value != null) {
            logUndecodableField("unitMode", value);
        }
        value = extFields.get("batch");
        if (value instanceof String) {
            header.setBatch(Boolean.parseBoolean((String) value));
        } else if (value != null) {
            logUndecodableField("batch", value);
        }
        value = extFields.get("maxReconsumeTimes");
        if (value instanceof String) {
            header.setMaxReconsumeTimes(parseIntegerField("maxReconsumeTimes", (String) value));
        } else if (value != null) {
            logUndecodableField("maxReconsumeTimes", value);
        }
    }

    /**
     * {@code Integer.parseInt(value)} boxed, or null (the field's default) after logging like
     * reflection. Up to 9 ASCII digits cannot overflow and parse the same inline; signs, longer
     * strings, non-ASCII digits and junk go to the JDK.
     */
    static Integer parseIntegerField(String name, String value) {
        final int length = value.length();
        if (length == 0 || length > 9) {
            return parseIntegerByJdk(name, value);
        }
        int result = 0;
        for (int i = 0; i < length; i++) {
            final int digit = value.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return parseIntegerByJdk(name, value);
            }
            result = result * 10 + digit;
        }
        return result; // Integer.valueOf, as reflection's autoboxing
    }

    /** {@code Long.parseLong(value)} boxed, or null after logging; up to 18 ASCII digits inline. */
    static Long parseLongField(String name, String value) {
        final int length = value.length();
        if (length == 0 || length > 18) {
            return parseLongByJdk(name, value);
        }
        long result = 0;
        for (int i = 0; i < length; i++) {
            final int digit = value.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return parseLongByJdk(name, value);
            }
            result = result * 10 + digit;
        }
        return result;
    }

    private static Integer parseIntegerByJdk(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            logFieldFailure(name, e);
            return null;
        }
    }

    private static Long parseLongByJdk(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            logFieldFailure(name, e);
            return null;
        }
    }

    /** A required field's key is missing (value null), or any field's value is not a String. */
    private static void logUndecodableField(String name, Object value) {
        if (value == null) {
            logFieldFailure(name, new RemotingCommandException("the custom field <" + name + "> is null"));
        } else {
            logFieldFailure(name, classCastFailure(value));
        }
    }

    /** The JVM's own checkcast failure, so the logged message is the one reflection logs. */
    private static ClassCastException classCastFailure(Object notAString) {
        try {
            String cast = (String) notAString;
            throw new IllegalStateException("a String after all: " + cast);
        } catch (ClassCastException e) {
            return e;
        }
    }

    private static void logFieldFailure(String name, Throwable cause) {
        // the same InternalLogger method as reflection: the inner logger writes it as WARN, slf4j as ERROR
        REMOTING_LOG.error("Failed field [{}] decoding", name, cause);
    }
}
