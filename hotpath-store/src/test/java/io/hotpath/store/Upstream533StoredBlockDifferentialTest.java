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
package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.codec.Escapes;
import io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The 5.3.3 line's store patch (0003) against the real 5.3.3 codec (rocketmq-common 5.3.3, shaded as
 * {@code io.hotpath.upstream.v533}). 5.3.3 stores the String a path set, as its UTF-8 bytes, and on the batch path the
 * client's block, a {@code \2} when it does not end with one and the batch block is non-empty, then the batch map's
 * String: the real {@code MessageExtEncoder#encode(MessageExtBatch, ..)} of rocketmq-store 5.3.3 (shaded,
 * {@link Upstream533BatchEncoder}) makes it; 5.2.0+ Strings end with {@code \2}. The patch stores {@link PersistedProperties#clientProperties2Bytes}
 * of that String and {@link PersistedProperties#putBatchMessage} per batch message. Checked here, for maps and client
 * blocks of 5.3.3, 4.9.8 and 4.9.0 encoders:
 * <ul>
 *   <li>ours is 5.3.3's bytes minus exactly its WAIT segments and its trailing separator ({@link StoredBlocks});</li>
 *   <li>for a map-made String, that is 5.3.3's String of the same map without WAIT, minus its trailing {@code \2};</li>
 *   <li>5.3.3's, 4.9.8's and 4.9.0's {@code string2messageProperties} read ours as they read 5.3.3's record, minus
 *       WAIT.</li>
 * </ul>
 * The store-level comparison with a real stock 5.3.3 store per path is not here (see hotpath-store/README.md).
 * Tries per property: jqwik.tries.default (100,000 in CI).
 */
class Upstream533StoredBlockDifferentialTest {

    private static final String WAIT = "WAIT";

    @Property
    void aStoredStringIs533sBytesWithoutWaitAndTrailingSeparator(@ForAll("storedStrings") String stored) {
        byte[] ours = PersistedProperties.clientProperties2Bytes(stored);
        byte[] expected = StoredBlocks.withoutWait(stored == null ? new byte[0] : stored.getBytes(StandardCharsets.UTF_8));
        assertThat(ours).as(() -> "stored String " + Escapes.escape(stored) + ": ours " + text(ours)).isEqualTo(expected);
    }

    @Property
    void aMapMadeStringIs533sStringOfTheMapWithoutWait(@ForAll("separatorFreeMaps") Map<String, String> map) {
        String stored = MessageDecoder.messageProperties2String(map);
        // what a reader gets from 5.3.3's record: the String back from its UTF-8 bytes (a lone surrogate reads as '?')
        String stockAsString = new String(stored.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        Map<String, String> read = MessageDecoder.string2messageProperties(stockAsString);
        // WAIT removed from the same map (a copy could iterate in another order): the others keep their order
        map.remove(WAIT);
        String withoutWait = MessageDecoder.messageProperties2String(map);
        String expected = withoutWait.endsWith("\2") ? withoutWait.substring(0, withoutWait.length() - 1) : withoutWait;
        byte[] ours = PersistedProperties.clientProperties2Bytes(stored);
        assertThat(new String(ours, StandardCharsets.UTF_8)).as(() -> "map " + map).isEqualTo(new String(
            expected.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));

        read.remove(WAIT);
        String oursAsString = new String(ours, StandardCharsets.UTF_8);
        assertThat(MessageDecoder.string2messageProperties(oursAsString)).as(() -> "ours " + Escapes.escape(oursAsString))
            .isEqualTo(read);
        Map<String, String> read498 = io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder
            .string2messageProperties(stockAsString);
        read498.remove(WAIT);
        assertThat(io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(oursAsString))
            .isEqualTo(read498);
        Map<String, String> read490 = org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(stockAsString);
        read490.remove(WAIT);
        assertThat(org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties(oursAsString)).isEqualTo(read490);
    }

    @Property
    void aBatchMessageIs533sRecordWithoutWait(@ForAll("clientBlocks") String client, @ForAll("batchMaps") Map<String, String> batch) {
        byte[] inner = client.getBytes(StandardCharsets.UTF_8);
        byte[] stock = Upstream533BatchEncoder.storedBlock(inner, batch);
        byte[] outer = PersistedProperties.messageProperties2Bytes(batch);
        ByteBuffer target = ByteBuffer.allocate(inner.length + outer.length + 1);
        int written = PersistedProperties.putBatchMessage(inner, 0, inner.length, outer, target);
        byte[] ours = new byte[written];
        System.arraycopy(target.array(), 0, ours, 0, written);
        byte[] expected = StoredBlocks.withoutWait(stock);
        assertThat(ours).as(() -> "client " + Escapes.escape(client) + ", batch " + batch + ": ours " + text(ours) + " vs 5.3.3 "
            + text(stock) + " without WAIT " + text(expected)).isEqualTo(expected);
        assertThat(PersistedProperties.batchMessageLength(inner, 0, inner.length, outer)).isEqualTo(written);
    }

    @Example
    void aPlainMessageOfA533Master() {
        // what a 5.3.3 master stores for a plain 5.3.3-client message (order of its HashMap(128))
        String stored = "MSG_REGION\1DefaultRegion\2UNIQ_KEY\1AC1100010001\2CLUSTER\1DefaultCluster\2TAGS\1TagA\2KEYS\1KEY-1\2"
            + "WAIT\1true\2TRACE_ON\1true\2";
        assertThat(new String(PersistedProperties.clientProperties2Bytes(stored), StandardCharsets.UTF_8)).isEqualTo(
            "MSG_REGION\1DefaultRegion\2UNIQ_KEY\1AC1100010001\2CLUSTER\1DefaultCluster\2TAGS\1TagA\2KEYS\1KEY-1\2TRACE_ON\1true");
        assertThat(stored.length() - PersistedProperties.clientProperties2Bytes(stored).length).isEqualTo(11);
    }

    private static String text(byte[] bytes) {
        return Escapes.escape(new String(bytes, StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> storedStrings() {
        Arbitrary<String> by533 = PersistedPropertiesArbitraries.nastyMaps().map(MessageDecoder::messageProperties2String);
        Arbitrary<String> pieces = Arbitraries.of("WAIT", "WAIT\1", "WAIT\1true", "WAIT\1false", "\1", "\2", "\2\2", "x", "KEYS\1k",
            "\u00e9", "\u4e2d", "\ud83d\ude00", "\ud800", "WAITS\1x", "MSG_REGION\1DefaultRegion", "TRACE_ON\1true");
        Arbitrary<String> junk = pieces.list().ofMaxSize(10).map(list -> String.join("", list));
        return Arbitraries.frequencyOf(Tuple.of(4, by533), Tuple.of(3, clientBlocks()), Tuple.of(3, junk)).injectNull(0.01);
    }

    @Provide
    Arbitrary<String> clientBlocks() {
        Arbitrary<Map<String, String>> maps = PersistedPropertiesArbitraries.separatorFreeMaps();
        return Arbitraries.frequencyOf(
            Tuple.of(3, maps.map(MessageDecoder::messageProperties2String)),
            Tuple.of(2, maps.map(io.hotpath.upstream.v498.org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String)),
            Tuple.of(2, maps.map(org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String)));
    }

    @Provide
    Arbitrary<Map<String, String>> batchMaps() {
        // the broker's batch map: the client's batch-level properties (WAIT, UNIQ_KEY, ...) plus MSG_REGION, TRACE_ON, CLUSTER
        return PersistedPropertiesArbitraries.separatorFreeMaps().map(map -> {
            Map<String, String> batch = new HashMap<>(map);
            batch.put("MSG_REGION", "DefaultRegion");
            batch.put("TRACE_ON", "true");
            batch.put("CLUSTER", "DefaultCluster");
            return batch;
        });
    }

    @Provide
    Arbitrary<Map<String, String>> separatorFreeMaps() {
        return PersistedPropertiesArbitraries.separatorFreeMaps();
    }
}
