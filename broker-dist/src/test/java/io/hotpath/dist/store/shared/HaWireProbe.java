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
package io.hotpath.dist.store.shared;

import java.util.List;
import java.util.Map;

/**
 * A 5.x store probe for patch 0016 (an HA connection's frames in one gathering write): a REAL {@code DefaultMessageStore}
 * of whichever distribution its class loader holds, as a master, and a slave that is no RocketMQ class, only a socket
 * that speaks the HA protocol of a {@code DefaultHAClient} (an 8-byte offset to start from) and keeps every byte the
 * master writes to it.
 */
public interface HaWireProbe {

    /** Puts one message per body size into a new store under {@code root} and shuts it down; returns its max offset. */
    long fill(String root, List<Integer> bodySizes) throws Exception;

    /**
     * Starts a master over the store under {@code root} (a copy of a filled one) with {@code settings} laid over its
     * {@code MessageStoreConfig} by upstream's {@code MixAll.properties2Object}; the slave connects, asks from
     * {@code from} and reads frame after frame until one ends at the master's max offset, {@code readPauseMicros} after
     * every {@code readChunk} bytes it reads. With {@code masterSendBuffer} > 0 the master's end of the connection gets a
     * send buffer of that size (upstream's own knob, {@code NettySystemConfig#socketRcvbufSize}, which DefaultHAConnection
     * gives its socket's send buffer): with a slow slave, the master's writes come back partial.
     */
    HaWire capture(String root, Map<String, String> settings, long from, int readChunk, long readPauseMicros, int masterSendBuffer)
        throws Exception;

    /** The value of {@code MessageStoreConfig#isHaTransferGatherWrite} after {@code settings}, or null when there is no such key. */
    Boolean haTransferGatherWrite(Map<String, String> settings) throws Exception;

    /**
     * What the slave read: every byte, in order; whether it reached the master's max offset ({@code complete}: else the
     * master stopped sending or closed within the read's 10 s); and the write system calls of the master's
     * WriteSocketService thread while it did ({@code syscw} of its {@code /proc/self/task/<tid>/io}), -1 when that thread
     * was not found alone.
     */
    record HaWire(byte[] bytes, boolean complete, long writeSystemCalls) {
    }
}
