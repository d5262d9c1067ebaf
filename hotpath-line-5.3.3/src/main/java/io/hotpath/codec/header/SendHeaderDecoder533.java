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
import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.org.slf4j.Logger;
import org.apache.rocketmq.logging.org.slf4j.LoggerFactory;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;

/**
 * Drop-in for Apache RocketMQ <b>5.3.3</b>'s {@code SendMessageRequestHeader#parseRequestHeader} (what
 * {@code AbstractSendMessageProcessor#parseRequestHeader} calls) and {@code ReplyMessageProcessor#parseRequestHeader}:
 * same V1 header, field by field up to {@code RpcRequestHeader}, same exception, same log lines, for every extFields map.
 *
 * <p>5.3.3 decodes a V2 request (codes 310, 320, 325) into a {@code SendMessageRequestHeaderV2} that it creates by
 * reflection ({@code getDeclaredConstructor().newInstance()}), through {@code FastCodesHeader#decode}, and then copies
 * it into a new V1 header ({@code createSendMessageRequestHeaderV1}). This decoder reads the V2 keys straight into the
 * V1 header: no reflective instantiation, no intermediate V2 object, no copy. What 5.3.3 does, kept on purpose
 * (docs/upstream-behavior.md, section 2.2; SendHeaderDecoder533ContractTest):
 * <ul>
 *   <li>keys a to n in that order; a missing required key (a-h) is logged as {@code error("the custom field {}.{} is
 *       null", "SendMessageRequestHeaderV2", key)} on logger {@code RocketmqRemoting}, and the field stays null;</li>
 *   <li>a number {@code Integer/Long.parseInt} rejects, in a required or an optional key (j, l), throws its
 *       {@code NumberFormatException} out of the call, after the lines logged for the keys before it;</li>
 *   <li>k and m are {@code Boolean.parseBoolean}; key n (brokerName) becomes the V1 header's {@code bname}; the other
 *       RPC fields ({@code ns}, {@code nsd}, {@code oway}, {@code lo}) are never read on this path;</li>
 *   <li>null extFields give an all-null header without a log line.</li>
 * </ul>
 * Not kept: 5.3.3 also stores the V2 object in the request's {@code cachedHeader}; only a
 * {@code decodeCommandCustomHeader(cls, true)} reads that field, and 5.3.3 calls that for pop requests alone.
 * V1 requests (codes 10, 324) go through 5.3.3's own reflective {@code decodeCommandCustomHeader}, as upstream does:
 * producers send V2 by default, and 5.3.3's reflection visits the fields of the whole hierarchy (the
 * {@code RpcRequestHeader}/{@code TopicRequestHeader} ones {@code ns}, {@code nsd}, {@code bname}, {@code oway},
 * {@code lo} included) in the order of a {@code HashSet<Field>}, logging each failed field in that order, which a
 * hand-written decoder would have to copy.
 */
public final class SendHeaderDecoder533 {

    // The logger FastCodesHeader#getAndCheckNotNull logs to (RemotingCommand's), through the same method.
    private static final Logger REMOTING_LOG = LoggerFactory.getLogger(LoggerName.ROCKETMQ_REMOTING_NAME);
    // FastCodesHeader logs the simple name of the header class it decodes into: always V2 on these codes.
    private static final String V2_CLASS = "SendMessageRequestHeaderV2";

    private SendHeaderDecoder533() {
    }

    /**
     * {@code SendMessageRequestHeader#parseRequestHeader} of 5.3.3: SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE give the V1
     * header of the decoded V2 keys, SEND_MESSAGE decodes V1, any other code gives null.
     */
    public static SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
        switch (request.getCode()) {
            case RequestCode.SEND_BATCH_MESSAGE:
            case RequestCode.SEND_MESSAGE_V2:
                return decodeV2AsV1(request.getExtFields());
            case RequestCode.SEND_MESSAGE:
                return request.decodeCommandCustomHeader(SendMessageRequestHeader.class);
            default:
                return null;
        }
    }

    /** {@code ReplyMessageProcessor#parseRequestHeader} of 5.3.3: the same for SEND_REPLY_MESSAGE(_V2). */
    public static SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
        switch (request.getCode()) {
            case RequestCode.SEND_REPLY_MESSAGE_V2:
                return decodeV2AsV1(request.getExtFields());
            case RequestCode.SEND_REPLY_MESSAGE:
                return request.decodeCommandCustomHeader(SendMessageRequestHeader.class);
            default:
                return null;
        }
    }

    /**
     * What 5.3.3's {@code createSendMessageRequestHeaderV1(decodeCommandCustomHeader(SendMessageRequestHeaderV2.class))}
     * returns for {@code extFields}. Keys are read in 5.3.3's order (a to n), so the lines logged before a
     * NumberFormatException are the same. ({@code SendMessageRequestHeaderV2#checkFields} is empty in 5.3.3, and every
     * field of both headers defaults to null, so not setting a field equals copying a null.)
     */
    public static SendMessageRequestHeader decodeV2AsV1(Map<String, String> extFields) {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        if (extFields == null) {
            return header;
        }
        String value = required(extFields, "a");
        if (value != null) {
            header.setProducerGroup(value);
        }
        value = required(extFields, "b");
        if (value != null) {
            header.setTopic(value);
        }
        value = required(extFields, "c");
        if (value != null) {
            header.setDefaultTopic(value);
        }
        value = required(extFields, "d");
        if (value != null) {
            header.setDefaultTopicQueueNums(parseInt(value));
        }
        value = required(extFields, "e");
        if (value != null) {
            header.setQueueId(parseInt(value));
        }
        value = required(extFields, "f");
        if (value != null) {
            header.setSysFlag(parseInt(value));
        }
        value = required(extFields, "g");
        if (value != null) {
            header.setBornTimestamp(parseLong(value));
        }
        value = required(extFields, "h");
        if (value != null) {
            header.setFlag(parseInt(value));
        }
        value = extFields.get("i");
        if (value != null) {
            header.setProperties(value);
        }
        value = extFields.get("j");
        if (value != null) {
            header.setReconsumeTimes(parseInt(value));
        }
        value = extFields.get("k");
        if (value != null) {
            header.setUnitMode(Boolean.parseBoolean(value));
        }
        value = extFields.get("l");
        if (value != null) {
            header.setMaxReconsumeTimes(parseInt(value));
        }
        value = extFields.get("m");
        if (value != null) {
            header.setBatch(Boolean.parseBoolean(value));
        }
        value = extFields.get("n");
        if (value != null) {
            header.setBrokerName(value);
        }
        return header;
    }

    /**
     * {@code Integer.parseInt(value)}: up to 9 ASCII digits cannot overflow and give the same value inline;
     * signs, longer strings, non-ASCII digits and junk go to the JDK, which throws what 5.3.3 throws.
     */
    static int parseInt(String value) {
        final int length = value.length();
        if (length == 0 || length > 9) {
            return Integer.parseInt(value);
        }
        int result = 0;
        for (int i = 0; i < length; i++) {
            final int digit = value.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return Integer.parseInt(value);
            }
            result = result * 10 + digit;
        }
        return result;
    }

    /** {@code Long.parseLong(value)}, up to 18 ASCII digits inline (see {@link #parseInt}). */
    static long parseLong(String value) {
        final int length = value.length();
        if (length == 0 || length > 18) {
            return Long.parseLong(value);
        }
        long result = 0;
        for (int i = 0; i < length; i++) {
            final int digit = value.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return Long.parseLong(value);
            }
            result = result * 10 + digit;
        }
        return result;
    }

    /** {@code FastCodesHeader#getAndCheckNotNull}: the value, or null after its error line. */
    private static String required(Map<String, String> extFields, String key) {
        String value = extFields.get(key);
        if (value == null) {
            logMissing(key);
        }
        return value;
    }

    // cold: keeps the decode loop small enough to inline
    private static void logMissing(String key) {
        REMOTING_LOG.error("the custom field {}.{} is null", V2_CLASS, key);
    }
}
