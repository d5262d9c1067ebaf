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
 * The properties format of Apache RocketMQ <b>4.9.1 - 4.9.8</b> (and 5.0.0 - 5.1.4 on the wire):
 * drop-in for that line's {@code MessageDecoder#messageProperties2String} and
 * {@code #string2messageProperties}, and the format the trimmed store persists.
 *
 * <p>Differs from {@code PropertiesCodec490} on purpose: encode writes no trailing {@code \2};
 * parse takes a segment only when its first {@code \1} lies after the segment start and before
 * its last char, so an empty key is dropped and a value may contain further {@code \1}s. As in
 * 4.9.8, the {@code \1} search is not bounded by the segment: when the first {@code \1} at or
 * after the segment start lies in a later segment, this segment is skipped. The map is a fresh
 * {@code new HashMap()} (4.9.x sizing, not 5.1's 128) filled in input order.
 */
public final class PropertiesCodec491 {

    private PropertiesCodec491() {
    }

    public static String messageProperties2String(Map<String, String> properties) {
        return PropertiesEncoder.encode(properties, false);
    }

    public static Map<String, String> string2messageProperties(final String properties) {
        Map<String, String> map = new HashMap<String, String>();
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
