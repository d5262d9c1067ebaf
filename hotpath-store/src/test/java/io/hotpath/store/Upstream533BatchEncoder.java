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

import io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageAccessor;
import io.hotpath.upstream.v533.org.apache.rocketmq.common.message.MessageExtBatch;
import io.hotpath.upstream.v533.org.apache.rocketmq.store.MessageExtEncoder;
import io.hotpath.upstream.v533.org.apache.rocketmq.store.PutMessageContext;
import io.hotpath.upstream.v533.org.apache.rocketmq.store.config.MessageStoreConfig;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The real batch encoder of rocketmq-store 5.3.3 ({@code MessageExtEncoder#encode(MessageExtBatch, ..)}, shaded as
 * {@code io.hotpath.upstream.v533}; a default {@code MessageStoreConfig}: no CRC entry): what 5.3.3 stores as the
 * properties block of one message of a batch. The batch body is one message in the client's batch layout (TOTALSIZE,
 * MAGICCODE, BODYCRC, FLAG, BODY, PROPLEN, the client's block as is); the block is read from the record the encoder
 * wrote (message version 1, IPv4 hosts).
 */
final class Upstream533BatchEncoder {

    /** TOTALSIZE .. PREPARED_TRANSACTION_OFFSET of a record with IPv4 hosts: where BODYLEN starts. */
    private static final int BODY_LENGTH_AT = 84;
    private static final MessageExtEncoder ENCODER = new MessageExtEncoder(new MessageStoreConfig());

    private Upstream533BatchEncoder() {
    }

    /** The properties block 5.3.3 stores for a batch of one message whose client block is {@code inner}. */
    static synchronized byte[] storedBlock(byte[] inner, Map<String, String> outer) {
        MessageExtBatch batch = new MessageExtBatch();
        batch.setTopic("hotpath_batch");
        batch.setBody(BatchRecordBytes.clientBatchBody(inner));
        MessageAccessor.setProperties(batch, outer); // the map itself: a copy could iterate in another order
        batch.setBornHost(new InetSocketAddress("127.0.0.1", 51234));
        batch.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
        ByteBuffer record = ENCODER.encode(batch, new PutMessageContext("hotpath_batch-0"));
        return BatchRecordBytes.propertiesBlock(record, BODY_LENGTH_AT);
    }
}
