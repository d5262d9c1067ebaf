package io.hotpath.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessCpuTimesTest {

    @Test
    void readsUtimeAndStimeAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 567 0 0 20 0 40 0 100 0 0";

        assertThat(ProcessCpuTimes.parse(stat)).isEqualTo(new ProcessCpuTimes(1234 * 10_000L, 567 * 10_000L));
    }

    @Test
    void ownCpuTimeGrowsWhileThisJvmWorks() {
        ProcessCpuTimes before = ProcessCpuTimes.self();
        long sink = 0;
        long until = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < until) {
            sink += System.nanoTime() % 7;
        }

        assertThat(ProcessCpuTimes.self().minus(before).totalMicros()).isPositive();
        assertThat(sink).isNotNegative();
    }
}
