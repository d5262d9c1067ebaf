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
package io.hotpath.codec;

import org.apache.rocketmq.common.message.MessageConst;

/**
 * Turns a region of a properties string into a key or value String, returning the shared
 * constant for RocketMQ's own property names (and "true"/"false") instead of a fresh substring.
 *
 * <p>Why: almost every key a broker parses is one of a few dozen system names (UNIQ_KEY, WAIT,
 * TAGS, KEYS, CLUSTER, ...). A constant costs no allocation and carries a cached hash code, so
 * the following {@code HashMap.put} skips hashing. The map is still equal to upstream's: Strings
 * are compared by value, and identity of keys is not part of the {@code Map} contract.
 */
final class PropertyNames {

    private static final String[] SYSTEM_NAMES = {
        MessageConst.PROPERTY_KEYS,
        MessageConst.PROPERTY_TAGS,
        MessageConst.PROPERTY_WAIT_STORE_MSG_OK,
        MessageConst.PROPERTY_DELAY_TIME_LEVEL,
        MessageConst.PROPERTY_RETRY_TOPIC,
        MessageConst.PROPERTY_REAL_TOPIC,
        MessageConst.PROPERTY_REAL_QUEUE_ID,
        MessageConst.PROPERTY_TRANSACTION_PREPARED,
        MessageConst.PROPERTY_PRODUCER_GROUP,
        MessageConst.PROPERTY_MIN_OFFSET,
        MessageConst.PROPERTY_MAX_OFFSET,
        MessageConst.PROPERTY_BUYER_ID,
        MessageConst.PROPERTY_ORIGIN_MESSAGE_ID,
        MessageConst.PROPERTY_TRANSFER_FLAG,
        MessageConst.PROPERTY_CORRECTION_FLAG,
        MessageConst.PROPERTY_MQ2_FLAG,
        MessageConst.PROPERTY_RECONSUME_TIME,
        MessageConst.PROPERTY_MSG_REGION,
        MessageConst.PROPERTY_TRACE_SWITCH,
        MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
        MessageConst.PROPERTY_MAX_RECONSUME_TIMES,
        MessageConst.PROPERTY_CONSUME_START_TIMESTAMP,
        MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET,
        MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES,
        MessageConst.PROPERTY_CHECK_IMMUNITY_TIME_IN_SECONDS,
        MessageConst.PROPERTY_INSTANCE_ID,
        MessageConst.PROPERTY_CORRELATION_ID,
        MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT,
        MessageConst.PROPERTY_MESSAGE_TTL,
        MessageConst.PROPERTY_REPLY_MESSAGE_ARRIVE_TIME,
        MessageConst.PROPERTY_PUSH_REPLY_TIME,
        MessageConst.PROPERTY_CLUSTER,
        MessageConst.PROPERTY_MESSAGE_TYPE,
    };

    private static final int MASK = 127; // > 3x the names: probes stay short
    private static final String[] NAMES = new String[MASK + 1];

    static {
        for (String name : SYSTEM_NAMES) {
            int slot = slot(name, 0, name.length());
            while (NAMES[slot] != null) {
                slot = (slot + 1) & MASK;
            }
            NAMES[slot] = name;
        }
    }

    private PropertyNames() {
    }

    /** {@code s.substring(from, to)}, or the equal system-name constant. */
    static String name(String s, int from, int to) {
        final int len = to - from;
        if (len == 0) {
            return "";
        }
        int slot = slot(s, from, len);
        String candidate;
        while ((candidate = NAMES[slot]) != null) {
            if (candidate.length() == len && s.regionMatches(from, candidate, 0, len)) {
                return candidate;
            }
            slot = (slot + 1) & MASK;
        }
        return s.substring(from, to);
    }

    /** {@code s.substring(from, to)}, or the constant "true"/"false" (WAIT, TRAN_MSG, ...). */
    static String value(String s, int from, int to) {
        final int len = to - from;
        if (len == 4 && s.regionMatches(from, "true", 0, 4)) {
            return "true";
        }
        if (len == 5 && s.regionMatches(from, "false", 0, 5)) {
            return "false";
        }
        return s.substring(from, to);
    }

    private static int slot(String s, int from, int len) {
        return (len * 31 + s.charAt(from) * 7 + s.charAt(from + len - 1)) & MASK;
    }
}
