package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import org.junit.jupiter.api.Test;

/** Fisher's exact test against values computed by hand from the hypergeometric distribution. */
class FisherExactTest {

    @Test
    void fishersTeaTasting() {
        // [[3, 1], [1, 3]]: tables with 3 or 4 of 4 right, or 0 or 1: (16 + 1 + 1 + 16) / 70
        assertThat(FisherExact.p(3, 1, 1, 3)).isCloseTo(34.0 / 70, offset(1e-12));
    }

    @Test
    void twoOfThirtyAgainstNoneOfTwentyNine() {
        // x = 2 of the 2 events in the first row: C(30,2) / C(59,2) = 435 / 1711; x = 0 as likely: C(29,2) / C(59,2) = 406 / 1711
        assertThat(FisherExact.p(2, 28, 0, 29)).isCloseTo((435.0 + 406) / 1711, offset(1e-12));
    }

    @Test
    void noEventOrEqualTablesGiveOne() {
        assertThat(FisherExact.p(0, 10, 0, 10)).isEqualTo(1);
        assertThat(FisherExact.p(5, 5, 5, 5)).isCloseTo(1, offset(1e-12));
        assertThat(FisherExact.p(0, 0, 0, 0)).isEqualTo(1);
    }

    @Test
    void aNegativeCountIsRefused() {
        assertThatThrownBy(() -> FisherExact.p(-1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
