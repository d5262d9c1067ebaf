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
package io.hotpath.lines;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * A broker configuration overlay that cuts per-message work: a line's {@code patches/<release>/tuned.properties}, or
 * a file given for a screen. Its keys are broker config keys (BrokerConfig, NettyServerConfig, MessageStoreConfig: the
 * broker's {@code -c} file sets them all), laid over a node's configuration by whoever starts the broker.
 *
 * <p>A tuned broker must promise what an untuned one promises when it answers SEND_OK, so a key that decides the
 * role, the flush or the replication is refused here, whatever its value: the arm under test sets those.
 */
public record TunedConfig(Path file, Map<String, String> knobs) {

    /** A line's tuned configuration, beside its descriptor. */
    public static final String FILE = "tuned.properties";

    /** What a send's SEND_OK promises, and which broker a node is: never a knob. */
    static final Set<String> GUARANTEES = Set.of("brokerRole", "flushDiskType", "totalReplicas", "inSyncReplicas",
        "minInSyncReplicas", "allAckInSyncStateSet", "enableControllerMode", "enableSlaveActingMaster",
        "syncFlushTimeout", "brokerClusterName", "brokerName", "brokerId", "namesrvAddr");

    public TunedConfig {
        knobs = Collections.unmodifiableMap(new LinkedHashMap<>(knobs));
    }

    /** Whether the line ships a {@value #FILE} (a line may have none: then it has no tuned arms). */
    public static boolean shipped(ReleaseLine line) {
        return Files.isRegularFile(line.dir().resolve(FILE));
    }

    /** The line's {@value #FILE}; an error when the line has none (a tuned arm needs one). */
    public static TunedConfig of(ReleaseLine line) {
        Path file = line.dir().resolve(FILE);
        if (!shipped(line)) {
            throw new ReleaseLineException("release line " + line.release() + " has no " + FILE + " (" + file
                + "): a tuned arm needs one, or give a file for a screen");
        }
        return load(file);
    }

    /** Reads and checks an overlay file: properties syntax, at least one knob, none of {@link #GUARANTEES}. */
    public static TunedConfig load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ReleaseLineException("no tuned configuration at " + file);
        }
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ReleaseLineException("cannot read " + file + ": " + e.getMessage());
        }
        if (p.isEmpty()) {
            throw new ReleaseLineException(file + " sets no knob: a tuned arm would equal its untuned one");
        }
        Map<String, String> knobs = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (GUARANTEES.contains(key)) {
                throw new ReleaseLineException(file + " sets " + key + ", which decides what SEND_OK promises or which"
                    + " broker a node is: the arm under test sets it, a tuned configuration may not");
            }
            knobs.put(key, p.getProperty(key).trim());
        }
        return new TunedConfig(file, knobs);
    }

    /** {@code base} with every knob laid over it (a new object; {@code base} is left as it was). */
    public Properties over(Properties base) {
        Properties out = new Properties();
        out.putAll(base);
        knobs.forEach(out::setProperty);
        return out;
    }

    /** "k1=v1, k2=v2" for a report. */
    public String describe() {
        StringBuilder s = new StringBuilder();
        knobs.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return s.toString();
    }
}
