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

import java.util.HashMap;
import java.util.Map;

/**
 * Drop-in for {@code org.apache.rocketmq.common.message.MessageDecoder#messageProperties2String}
 * and {@code #string2messageProperties} of Apache RocketMQ <b>4.9.0</b>: same String, same map,
 * same exception, for every input.
 *
 * <p>Quirks of 4.9.0 kept on purpose (docs/upstream-behavior.md, section 1.1):
 * <ul>
 *   <li>encode writes a trailing {@code \2}, a {@code null} key as {@code "null"}, skips null
 *       values, escapes nothing, and follows the map's iteration order;</li>
 *   <li>parse follows {@code split("\2")} then {@code split("\1")} with exactly two parts: an
 *       empty key is accepted, an empty value is dropped, a value with an inner {@code \1} is
 *       dropped, a value followed only by {@code \1}s is kept (split drops trailing empty
 *       parts), junk segments are skipped, the last duplicate wins;</li>
 *   <li>parse returns a fresh mutable {@code new HashMap()} filled in input order, so its
 *       capacity and iteration order, and every re-serialisation, equal upstream's.</li>
 * </ul>
 *
 * <p>Faster because encode writes once into a reused per-thread buffer instead of growing a
 * StringBuilder, and parse scans with {@code indexOf} instead of two regex-free splits with
 * their arrays, and takes property names from {@link PropertyNames}, which holds RocketMQ's own
 * names and remembers others (no substring, hash code already cached).
 */
public final class PropertiesCodec490 {

    /** U+0001 between a name and its value, as upstream's {@code MessageDecoder.NAME_VALUE_SEPARATOR}. */
    public static final char NAME_VALUE_SEPARATOR = PropertiesEncoder.NAME_VALUE_SEPARATOR;
    /** U+0002 after each property, as upstream's {@code MessageDecoder.PROPERTY_SEPARATOR}. */
    public static final char PROPERTY_SEPARATOR = PropertiesEncoder.PROPERTY_SEPARATOR;

    private PropertiesCodec490() {
    }

    public static String messageProperties2String(Map<String, String> properties) {
        return PropertiesEncoder.encode(properties, true);
    }

    public static Map<String, String> string2messageProperties(final String properties) {
        Map<String, String> map = new HashMap<String, String>();
        if (properties == null) {
            return map;
        }
        final int len = properties.length();
        // first \1 at or after the current segment start; -1 once none is left (keeps junk linear)
        int nv = properties.indexOf(NAME_VALUE_SEPARATOR);
        int start = 0;
        while (start < len) {
            int end = properties.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = len;
            }
            if (nv >= 0 && nv < start) {
                nv = properties.indexOf(NAME_VALUE_SEPARATOR, start);
            }
            if (nv >= 0 && nv < end) {
                // split("\1") yields exactly 2 parts iff the part after the first \1 is non-empty
                // and only \1s follow it (trailing empty parts are dropped by split)
                final int separator = nv;
                final int valueStart = separator + 1;
                // the next \1 also serves the following segments: every char is scanned once
                nv = properties.indexOf(NAME_VALUE_SEPARATOR, valueStart);
                final int valueEnd = nv < 0 || nv > end ? end : nv;
                if (valueEnd > valueStart && onlyNameValueSeparators(properties, valueEnd, end)) {
                    String name = PropertyNames.held(properties, start, separator);
                    if (name == null) {
                        name = properties.substring(start, separator);
                        PropertyNames.remember(name);
                    }
                    String value = PropertyNames.heldValue(properties, valueStart, valueEnd);
                    if (value == null) {
                        value = properties.substring(valueStart, valueEnd);
                    }
                    map.put(name, value);
                }
            }
            start = end + 1;
        }
        return map;
    }

    private static boolean onlyNameValueSeparators(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != NAME_VALUE_SEPARATOR) {
                return false;
            }
        }
        return true;
    }
}
