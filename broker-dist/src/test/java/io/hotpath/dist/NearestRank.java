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

import java.util.Arrays;

/**
 * The nearest-rank percentile the lever tests compare stock's and the patched service's timings with: the smallest value
 * at or above p % of the sorted values, a value that was measured (no interpolation between two wake-ups).
 */
final class NearestRank {

    private NearestRank() {
    }

    static double percentile(double[] values, int p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[rank(sorted.length, p)];
    }

    static long percentile(long[] values, int p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[rank(sorted.length, p)];
    }

    private static int rank(int n, int p) {
        if (n == 0) {
            throw new IllegalArgumentException("no values");
        }
        return Math.max(0, Math.min(n - 1, (int) Math.ceil(p / 100.0 * n) - 1));
    }
}
