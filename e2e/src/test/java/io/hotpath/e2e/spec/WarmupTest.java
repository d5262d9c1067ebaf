package io.hotpath.e2e.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WarmupTest {

    @Test
    void onlySlicesInARowUnderTheShareCountAndAnUnmeasuredSliceIsNoneOfThem() {
        Warmup warmup = new Warmup(180, 0.05);
        assertThat(warmup.warmSlicesAfter(0, 0.036)).isEqualTo(1);
        // one slice under, then a burst over (as the patched 5.3.3 masters did on 2026-11-26): start again
        assertThat(warmup.warmSlicesAfter(1, 0.070)).isZero();
        assertThat(warmup.warmSlicesAfter(1, 0.021)).isEqualTo(Warmup.WARM_SLICES);
        assertThat(warmup.warmSlicesAfter(1, 0.05)).isZero();
        assertThat(warmup.warmSlicesAfter(1, -1)).isZero();
    }
}
