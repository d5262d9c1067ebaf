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
 * The properties format of Apache RocketMQ <b>5.2.0</b> and later (5.2.0 - 5.3.3 checked): drop-in for that
 * line's {@code MessageDecoder#messageProperties2String} and {@code #string2messageProperties}, named after the
 * first release with exactly this behaviour.
 *
 * <p>The 5.x history, from the rocketmq-common jars on Maven Central (docs/upstream-behavior.md, section 1.3):
 * 5.0.0 is the 4.9.1 format ({@code PropertiesCodec491}); 5.1.0 - 5.1.4 parse into {@code new HashMap<>(128)}
 * but still write no trailing {@code \2}; 5.2.0 writes every entry as {@code key \1 value \2}, the last one
 * included, again. Kept on purpose (PropertiesCodec520Contract):
 * <ul>
 *   <li>encode writes the trailing {@code \2}, a {@code null} key as {@code "null"}, skips null values, writes
 *       empty keys and values, escapes nothing, and follows the map's iteration order (4.9.0's string);</li>
 *   <li>parse uses the 4.9.1 rules: a segment is taken only when its first {@code \1} lies after the segment
 *       start and before its last char, so an empty key or value drops it and a value keeps further
 *       {@code \1}s; that {@code \1} is searched without the segment as bound, so a segment whose first
 *       {@code \1} is in a later segment is skipped; the last duplicate wins;</li>
 *   <li>parse returns a fresh {@code new HashMap<>(128)} filled in input order: 128 buckets from the first put
 *       on, so its iteration order, and every re-serialisation of it, equal upstream's.</li>
 * </ul>
 * The parse loop is {@code PropertiesCodec491}'s with the 128 map; it is repeated here rather than shared so
 * that each line's patch carries only its own format, and so that neither loop gains a call layer: how HotSpot
 * inlines the name lookup into this loop decides its speed (PropertyNames).
 */
public final class PropertiesCodec520 {

    // HashMap(128): the capacity 5.1.0+ asks for; equal capacity is what keeps the iteration order equal
    private static final int INITIAL_CAPACITY = 128;

    private PropertiesCodec520() {
    }

    public static String messageProperties2String(Map<String, String> properties) {
        return PropertiesEncoder.encode(properties, true);
    }

    /**
     * The map {@code string2messageProperties(messageProperties2String(properties))} returns, made without the String:
     * where a broker encodes a map and then parses that String again, the parse can be a copy. Returns null where the
     * round trip is not an entry-by-entry copy (a null name, which encodes as {@code "null"}; a {@code \1} in a name,
     * or a {@code \2} anywhere, which the parse splits at), so that the caller parses. Entries the round trip drops (a
     * null or empty value, an empty name) are left out; the others are put in the map's iteration order, the order the
     * encoder writes them and the parse puts them, into a fresh HashMap of the same capacity: the parse's map, its
     * bucket layout and iteration order included (the values are the map's own Strings, equal to the parse's).
     */
    public static Map<String, String> reparsedCopy(Map<String, String> properties) {
        Map<String, String> map = new HashMap<String, String>(INITIAL_CAPACITY);
        if (properties == null) {
            return map;
        }
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            String name = entry.getKey();
            String value = entry.getValue();
            if (value == null) {
                continue;
            }
            if (name == null || name.indexOf(PropertiesEncoder.NAME_VALUE_SEPARATOR) >= 0
                || name.indexOf(PropertiesEncoder.PROPERTY_SEPARATOR) >= 0 || value.indexOf(PropertiesEncoder.PROPERTY_SEPARATOR) >= 0) {
                return null;
            }
            if (!name.isEmpty() && !value.isEmpty()) {
                map.put(name, value);
            }
        }
        return map;
    }

    public static Map<String, String> string2messageProperties(final String properties) {
        Map<String, String> map = new HashMap<String, String>(INITIAL_CAPACITY);
        if (properties == null) {
            return map;
        }
        final int len = properties.length();
        // first \1 at or after index, reused across segments (upstream rescans from every segment)
        int nv = properties.indexOf(PropertiesEncoder.NAME_VALUE_SEPARATOR);
        int index = 0;
        while (index < len) {
            int end = properties.indexOf(PropertiesEncoder.PROPERTY_SEPARATOR, index);
            if (end < 0) {
                end = len;
            }
            if (end - index >= 3) {
                if (nv >= 0 && nv < index) {
                    nv = properties.indexOf(PropertiesEncoder.NAME_VALUE_SEPARATOR, index);
                }
                if (nv > index && nv < end - 1) {
                    String name = PropertyNames.held(properties, index, nv);
                    if (name == null) {
                        name = properties.substring(index, nv);
                        PropertyNames.remember(name);
                    }
                    String value = PropertyNames.heldValue(properties, nv + 1, end);
                    if (value == null) {
                        value = properties.substring(nv + 1, end);
                    }
                    map.put(name, value);
                }
            }
            index = end + 1;
        }
        return map;
    }
}
