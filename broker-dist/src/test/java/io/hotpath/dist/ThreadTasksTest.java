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
package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The wait the services' shutdown checks share: a thread that ended is gone, one that keeps running is reported. */
class ThreadTasksTest {

    private static final String COMM = "hotpath-tt-test";

    @Test
    void aThreadThatKeepsRunningIsReportedAndOneThatEndedIsNot() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, COMM);
        thread.start();
        try {
            // the new thread names its task itself, a moment after start()
            long visible = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (ThreadTasks.named(COMM).isEmpty() && System.nanoTime() < visible) {
                Thread.sleep(5);
            }
            long start = System.nanoTime();
            assertThat(ThreadTasks.awaitNoneNamed(COMM, Duration.ofMillis(200))).as("still running").hasSize(1);
            assertThat(System.nanoTime() - start).as("it waited its whole bound").isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
        } finally {
            release.countDown();
            thread.join();
        }
        assertThat(ThreadTasks.awaitNoneNamed(COMM, Duration.ofSeconds(2))).as("ended and joined").isEmpty();
    }
}
