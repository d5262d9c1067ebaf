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
 * Finds, for a region of a properties string, a String the broker already holds that spells it, so that
 * the parse need not make a fresh substring: the shared constant for RocketMQ's own property names, a
 * remembered copy of any other name seen before, and the constants "true"/"false" for values.
 *
 * <p>Why: almost every key a broker parses is one of a few dozen system names (UNIQ_KEY, WAIT, TAGS,
 * KEYS, CLUSTER, ...) or one of the few user property names its producers set on every message
 * (orderId, traceId, ...). A String held already costs no allocation and carries a cached hash code,
 * so the following {@code HashMap.put} skips hashing. The map is still equal to upstream's: Strings
 * are compared by value, and identity of keys is not part of the {@code Map} contract.
 *
 * <p>One table is shared by all threads without locks. System names are placed when it is made.
 * Any other name of at most {@value #MAX_REMEMBERED_LENGTH} chars is remembered in the first free
 * slot on its probe path and never replaced, so the table never holds more than {@value #SLOTS}
 * Strings (first come, first served: a flood of distinct names fills it once and then costs every
 * unknown name a few compares, never memory). Publishing a String through a plain array store is
 * safe: its chars are a final field, so a thread that sees the reference sees the chars; a thread
 * that misses a store makes its own substring.
 *
 * <p>The lookups return null instead of making the substring themselves, so that the parse loop
 * calls {@code substring} directly, as upstream's loop does, and HotSpot's C2 compiles the two loops
 * alike. When this class made the substrings, C2 compiled it as a separate, larger method first and
 * then did not inline it into the loop ("already compiled into a big method" in -XX:+PrintInlining),
 * and the parse measured slower than upstream's on the JMH parse benchmark's large12 corpus
 * (rocketmq-hotpath's jmh/README.md). Names are compared with {@code startsWith(known, from)}: a plain
 * loop over the two backing arrays, where {@code regionMatches} adds a vectorized compare's setup and
 * {@code charAt} a coder and bounds check per char.
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

    private static final int SLOTS = 256; // the system names fill an eighth: probes stay short
    private static final int MASK = SLOTS - 1;
    /** A lookup gives up after this many occupied slots and makes a fresh substring. */
    private static final int MAX_PROBES = 8;
    /** Longer names are not remembered: they are rarely repeated, and this bounds the table's memory. */
    private static final int MAX_REMEMBERED_LENGTH = 64;

    /** The table every parse uses. */
    private static final PropertyNames SHARED = new PropertyNames();

    private final String[] names = new String[SLOTS];

    /** A table holding the system names only; package-private for tests that need a fresh one. */
    PropertyNames() {
        for (String name : SYSTEM_NAMES) {
            int slot = slot(name, 0, name.length());
            int probes = 1;
            while (names[slot] != null) {
                slot = (slot + 1) & MASK;
                probes++;
            }
            if (probes > MAX_PROBES) {
                throw new IllegalStateException("system name " + name + " lies " + probes + " slots deep");
            }
            names[slot] = name;
        }
    }

    /** The String held for the name at {@code s[from, to)} (system or remembered name), or null. */
    static String held(String s, int from, int to) {
        return SHARED.find(s, from, to);
    }

    /** Holds {@code name} for later lookups, if it is short enough and a slot on its path is free. */
    static void remember(String name) {
        SHARED.add(name);
    }

    /** The constant "true" or "false" when {@code s[from, to)} spells it (WAIT, TRAN_MSG, ...), or null. */
    static String heldValue(String s, int from, int to) {
        final int len = to - from;
        if (len == 4 && s.charAt(from) == 't' && s.startsWith("true", from)) {
            return "true";
        }
        if (len == 5 && s.charAt(from) == 'f' && s.startsWith("false", from)) {
            return "false";
        }
        return null;
    }

    /** {@link #held}, on this table. */
    String find(String s, int from, int to) {
        final int len = to - from;
        if (len == 0) {
            return "";
        }
        int slot = slot(s, from, len);
        for (int probe = 0; probe < MAX_PROBES; probe++) {
            final String known = names[slot];
            if (known == null) {
                return null;
            }
            if (known.length() == len && s.startsWith(known, from)) {
                return known;
            }
            slot = (slot + 1) & MASK;
        }
        return null;
    }

    /** {@link #remember}, on this table. */
    void add(String name) {
        final int len = name.length();
        if (len == 0 || len > MAX_REMEMBERED_LENGTH) {
            return;
        }
        int slot = slot(name, 0, len);
        for (int probe = 0; probe < MAX_PROBES; probe++) {
            if (names[slot] == null) {
                names[slot] = name;
                return;
            }
            slot = (slot + 1) & MASK;
        }
    }

    private static int slot(String s, int from, int len) {
        return (len * 31 + s.charAt(from) * 7 + s.charAt(from + len - 1)) & MASK;
    }
}
