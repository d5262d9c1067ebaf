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
package io.hotpath.dist.store.probe533;

import io.hotpath.dist.store.shared.HaWireProbe;
import io.hotpath.dist.store.shared.LoopbackStores;
import io.hotpath.dist.store.shared.ReputProbe.ReputPut;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.netty.NettySystemConfig;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.PutMessageStatus;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Patch 0016's probe: the store is {@link ReputProbe533}'s (256 KB CommitLog files, HA accept service on loopback, an
 * ephemeral port); the slave a plain socket. Compiled against the stock lib/ ({@code Probe533Classes}); the patch's switch
 * is set the way a broker's configuration file sets it, by name.
 */
public final class HaWireProbe533 implements HaWireProbe {

    /** DefaultHAConnection's frame header: the offset (8 bytes) and the size (4) of the CommitLog data that follows. */
    private static final int FRAME_HEADER = 12;
    private static final String WRITER_THREAD = "WriteSocketServ"; // the kernel's 15 characters of the thread's name
    private static final int READ_TIMEOUT_MS = 10_000;

    @Override
    public long fill(String root, List<Integer> bodySizes) throws Exception {
        DefaultMessageStore store = ReputProbe533.start(root, Map.of(), (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { });
        try {
            int i = 0;
            for (int bodyBytes : bodySizes) {
                ReputPut put = new ReputPut("ha-wire", i % 4, 1, bodyBytes, "tag-" + i % 3, List.of("key-" + i), "uniq-" + i, Map.of("n", Integer.toString(i)), 0);
                PutMessageResult result = store.putMessage(ReputProbe533.single(put));
                if (result.getPutMessageStatus() != PutMessageStatus.PUT_OK) {
                    throw new IllegalStateException("put " + i + ": " + result.getPutMessageStatus());
                }
                i++;
            }
            return store.getMaxPhyOffset();
        } finally {
            store.shutdown(); // not in the background: the files must be whole before they are copied
        }
    }

    @Override
    public HaWire capture(String root, Map<String, String> settings, long from, int readChunk, long readPauseMicros, int masterSendBuffer)
        throws Exception {
        Set<Path> before = ReputProbe533.tasksNamed(WRITER_THREAD);
        DefaultMessageStore store = ReputProbe533.start(root, settings, (topic, queueId, logicOffset, tagsCode, msgStoreTime, filterBitMap, properties) -> { });
        int sendBuffer = NettySystemConfig.socketRcvbufSize;
        if (masterSendBuffer > 0) {
            // DefaultHAConnection sizes its socket's send buffer from socketRcvbufSize (and its receive buffer from the other)
            NettySystemConfig.socketRcvbufSize = masterSendBuffer;
        }
        try (Socket slave = new Socket()) {
            long max = store.getMaxPhyOffset();
            slave.setReceiveBufferSize(readChunk);
            slave.setSoTimeout(READ_TIMEOUT_MS);
            slave.connect(new InetSocketAddress("127.0.0.1", LoopbackStores.haPort(store)), READ_TIMEOUT_MS);
            Path writer = newWriterTask(before);
            long writesBefore = writer == null ? -1 : writeSystemCalls(writer);
            DataOutputStream out = new DataOutputStream(slave.getOutputStream());
            out.writeLong(from); // what DefaultHAClient#reportSlaveMaxOffset sends: the offset the slave holds up to
            out.flush();
            DataInputStream in = new DataInputStream(slave.getInputStream());
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            byte[] chunk = new byte[readChunk];
            long end = -1;
            boolean complete = true;
            while (end < max) {
                byte[] header = new byte[FRAME_HEADER];
                try {
                    in.readFully(header);
                } catch (EOFException | SocketTimeoutException stopped) {
                    complete = false;
                    break;
                }
                wire.write(header);
                ByteBuffer fields = ByteBuffer.wrap(header);
                long offset = fields.getLong();
                int size = fields.getInt();
                int left = size;
                while (left > 0) {
                    int n = in.read(chunk, 0, Math.min(left, chunk.length));
                    if (n < 0) {
                        throw new IOException("the master closed the connection in the frame at " + offset);
                    }
                    wire.write(chunk, 0, n);
                    left -= n;
                    if (readPauseMicros > 0) {
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(readPauseMicros));
                    }
                }
                end = offset + size;
            }
            long writes = writer == null || !Files.exists(writer.resolve("io")) ? -1 : writeSystemCalls(writer) - writesBefore;
            return new HaWire(wire.toByteArray(), complete, writes);
        } finally {
            NettySystemConfig.socketRcvbufSize = sendBuffer;
            ReputProbe533.closeInBackground(store);
        }
    }

    @Override
    public Boolean haTransferGatherWrite(Map<String, String> settings) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        MixAll.properties2Object(ReputProbe533.properties(settings), config);
        try {
            return (Boolean) config.getClass().getMethod("isHaTransferGatherWrite").invoke(config);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** The connection's WriteSocketService thread, started when the master accepted; null when not found alone. */
    private static Path newWriterTask(Set<Path> before) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            Set<Path> ours = ReputProbe533.tasksNamed(WRITER_THREAD);
            ours.removeAll(before);
            if (ours.size() == 1) {
                return ours.iterator().next();
            }
            if (ours.size() > 1) {
                return null;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return null;
    }

    private static long writeSystemCalls(Path task) throws IOException {
        for (String line : Files.readAllLines(task.resolve("io"), StandardCharsets.UTF_8)) {
            if (line.startsWith("syscw:")) {
                return Long.parseLong(line.substring("syscw:".length()).trim());
            }
        }
        throw new IOException("no syscw in " + task.resolve("io"));
    }
}
