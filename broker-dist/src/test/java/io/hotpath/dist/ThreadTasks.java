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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** This JVM's threads as Linux shows them ({@code /proc/self/task}): found by name, their context switches counted. */
final class ThreadTasks {

    private ThreadTasks() {
    }

    /** The tasks whose {@code comm} (a thread name cut to 15 bytes) is {@code comm}. */
    static List<Path> named(String comm) {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(comm)) {
                        found.add(task);
                    }
                } catch (IOException gone) {
                    // the thread ended while we listed
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    /**
     * Waits up to {@code within} until no task is named {@code comm} and returns those still there (empty: all gone). A
     * joined Java thread's task can outlive {@code join()} by a moment: its {@code /proc} entry goes when the kernel reaps
     * it, so a check right after a service's shutdown must wait for it before calling it a thread that kept running.
     */
    static List<Path> awaitNoneNamed(String comm, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        List<Path> left = named(comm);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
            left = named(comm);
        }
        return left;
    }

    /** voluntary + nonvoluntary context switches of {@code tasks}, summed. */
    static long switches(List<Path> tasks) throws IOException {
        return sum(tasks, "voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:");
    }

    /**
     * The voluntary context switches of {@code tasks}, summed: each is the thread going to sleep, so each wake-up counts
     * once; the nonvoluntary ones are preemptions, which on a shared machine come with other processes' load.
     */
    static long voluntarySwitches(List<Path> tasks) throws IOException {
        return sum(tasks, "voluntary_ctxt_switches:");
    }

    private static long sum(List<Path> tasks, String... fields) throws IOException {
        long sum = 0;
        for (Path task : tasks) {
            for (String line : Files.readAllLines(task.resolve("status"))) {
                for (String field : fields) {
                    if (line.startsWith(field)) {
                        sum += Long.parseLong(line.substring(field.length()).strip());
                    }
                }
            }
        }
        return sum;
    }
}
