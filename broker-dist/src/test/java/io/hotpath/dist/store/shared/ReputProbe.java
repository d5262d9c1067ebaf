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
 * A 5.x store probe for patch 0007 (ReputMessageService woken by the CommitLog's advance): it starts a REAL
 * {@code DefaultMessageStore} of whichever distribution its class loader holds, with {@code settings} laid over a
 * small store's {@code MessageStoreConfig} by upstream's own {@code MixAll.properties2Object} (as a broker's {@code -c}
 * file is; a stock store ignores the patch's keys).
 */
public interface ReputProbe {

    /**
     * The thread a probe shuts a store down on (in the background: shutdown sleeps 3 s, then writes a checkpoint); a test
     * joins these before it deletes the stores' directories.
     */
    String CLOSE_THREAD = "reput-probe-close";

    /**
     * Puts {@code puts} in order, waits until the reput has dispatched everything, shuts the store down and returns what
     * the dispatch built. With {@code skipConsumeQueueDispatch} >= 0 the store's consume-queue dispatcher skips that
     * dispatch call (0-based): the control of a reput that loses a message.
     */
    ReputRun putAll(String root, Map<String, String> settings, List<ReputPut> puts, int skipConsumeQueueDispatch) throws Exception;

    /**
     * For each of {@code count} single puts, each after an idle pause of {@code pauseMs}: microseconds from just before
     * the put to the store's long-polling notification of that message ({@code MessageArrivingListener#arriving}, called
     * by the reput right after it dispatched it: when a held pull request would be answered). With
     * {@code dropWakeUps}, the store's wake-ups go to a ReputMessageService that is not running (the control of a
     * patch that does not wake the reput).
     */
    long[] arrivalDelaysMicros(String root, Map<String, String> settings, int count, int pauseMs, boolean dropWakeUps) throws Exception;

    /**
     * The store's ReputMessageService thread's context switches (voluntary + involuntary, from
     * {@code /proc/self/task/<tid>/status}) over {@code windowMs} of an idle store, after {@code settleMs}.
     */
    long idleReputContextSwitches(String root, Map<String, String> settings, long settleMs, long windowMs) throws Exception;

    /** The value of {@code MessageStoreConfig#isReputWakeOnAppend} after {@code settings}, or null when there is no such key. */
    Boolean reputWakeOnAppend(Map<String, String> settings) throws Exception;

    /**
     * One put: a single message, or with {@code batch} > 1 a client batch of that many ({@code putMessages}). Each message
     * has {@code bodyBytes} of body, the tag, the keys (index entries), a deterministic UNIQ_KEY when {@code uniqKey} is
     * not null, the user properties; {@code pauseMicros} of idle time before the put.
     */
    record ReputPut(String topic, int queueId, int batch, int bodyBytes, String tags, List<String> keys, String uniqKey,
                    Map<String, String> userProperties, int pauseMicros) {
    }

    /**
     * What a store's dispatch built: every consume queue file and every index file (path relative to the store root,
     * bytes, after shutdown), the CommitLog offset and size of each message in put order, and the CommitLog offsets in
     * the order the reput dispatched them.
     */
    record ReputRun(Map<String, byte[]> consumeQueueFiles, Map<String, byte[]> indexFiles, List<Long> recordOffsets,
                    List<Integer> recordSizes, List<Long> dispatchOrder) {
    }
}
