package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.idle.CostModel.Point;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostModelTest {

    @Test
    void pointsOnALineGiveItsInterceptAndSlopeWithNoResidual() {
        // 80 ms/s idle, 200 us per message: 125 msg/s -> 105 ms/s, 1250 msg/s -> 330 ms/s
        CostModel model = CostModel.fit(List.of(Point.idle(80), new Point(125, 105), new Point(1250, 330)));

        assertThat(model.fixedMsPerSecond()).isCloseTo(80, offset(1e-9));
        assertThat(model.marginalMicrosPerMessage()).isCloseTo(200, offset(1e-9));
        assertThat(model.residualMsPerSecond()).isCloseTo(0, offset(1e-9));
        assertThat(model.degreesOfFreedom()).isEqualTo(1);
        assertThat(model.msPerSecondAt(500)).isCloseTo(180, offset(1e-9));
        // at 125 msg/s the fixed cost is 640 us of each message's 840
        assertThat(model.microsPerMessageAt(125)).isCloseTo(840, offset(1e-9));
        assertThat(model.describe()).isEqualTo("fixed 80.0 ms/s + 200.0 us/msg (residual 0.0 ms/s over 1 degree of freedom)");
    }

    @Test
    void theResidualIsTheRootMeanSquareOverNMinusTwo() {
        // y = 10 + x / 10 with residuals +1, -2, +1 (they sum to 0 and do not tilt the line: x-weighted sum 0 as well)
        CostModel model = CostModel.fit(List.of(new Point(0, 11), new Point(100, 18), new Point(200, 31)));

        assertThat(model.fixedMsPerSecond()).isCloseTo(10, offset(1e-9));
        assertThat(model.marginalMicrosPerMessage()).isCloseTo(100, offset(1e-9));
        assertThat(model.residualMsPerSecond()).isCloseTo(Math.sqrt((1 + 4 + 1) / 1.0), offset(1e-9));
        assertThat(model.pointLines()).containsExactly("0 msg/s: 11.0 ms/s measured, 10.0 on the line",
                "100 msg/s: 18.0 ms/s measured, 20.0 on the line", "200 msg/s: 31.0 ms/s measured, 30.0 on the line");
    }

    @Test
    void aCampaignsFigureIsBothMastersCpuPerMessageSoEachMasterTakesHalfTheRate() {
        // 2500 msg/s to the cluster at 375 us/msg (both masters): each master 1250 msg/s and 468.75 ms/s
        Point point = Point.ofCampaign(2500, 375, 2);

        assertThat(point.messagesPerSecond()).isEqualTo(1250);
        assertThat(point.cpuMsPerSecond()).isCloseTo(468.75, offset(1e-9));
    }

    @Test
    void twoPointsHaveNoResidualAndOneRateIsNoModel() {
        CostModel two = CostModel.fit(List.of(Point.idle(77), Point.ofCampaign(2500, 375, 2)));
        assertThat(two.degreesOfFreedom()).isZero();
        assertThat(two.describe()).endsWith("(two points: no residual)");

        assertThatThrownBy(() -> CostModel.fit(List.of(new Point(125, 100), new Point(125, 110)))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("a cost model needs points at two different rates at least");
    }
}
