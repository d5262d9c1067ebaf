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

import java.util.Map;

/**
 * Shared encode loop of the 4.9.0 and 4.9.1 formats. Writes each entry once into a per-thread
 * char buffer and makes the String in one copy: upstream 4.9.0 grows a StringBuilder from 16
 * chars (4 copies for a 101-char block), 4.9.1+ walks the map twice to size it and still copies
 * the builder into the String.
 */
final class PropertiesEncoder {

    // here, not in a format's class: every line's properties patch carries this class, and only its own format
    static final char NAME_VALUE_SEPARATOR = 1;
    static final char PROPERTY_SEPARATOR = 2;

    private PropertiesEncoder() {
    }

    static String encode(Map<String, String> properties, boolean trailingSeparator) {
        if (properties == null) {
            return "";
        }
        final EncodeBuffer buffer = EncodeBuffer.acquire();
        try {
            char[] chars = buffer.chars;
            int pos = 0;
            // same iteration, same getKey/getValue calls and casts as upstream, so a hostile map
            // fails with the same exception
            for (final Map.Entry<String, String> entry : properties.entrySet()) {
                final String name = entry.getKey();
                final String value = entry.getValue();
                if (value == null) {
                    continue;
                }
                final String written = name == null ? "null" : name; // StringBuilder.append(null)
                final int nameLen = written.length();
                final int valueLen = value.length();
                final int needed = pos + nameLen + valueLen + 2;
                if (needed > chars.length || needed < 0) {
                    chars = buffer.grow(pos, needed);
                }
                written.getChars(0, nameLen, chars, pos);
                pos += nameLen;
                chars[pos++] = NAME_VALUE_SEPARATOR;
                value.getChars(0, valueLen, chars, pos);
                pos += valueLen;
                chars[pos++] = PROPERTY_SEPARATOR;
            }
            if (!trailingSeparator && pos > 0) {
                pos--;
            }
            return pos == 0 ? "" : new String(chars, 0, pos);
        } finally {
            buffer.release();
        }
    }
}
