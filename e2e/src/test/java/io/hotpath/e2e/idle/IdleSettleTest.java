package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.measure.OtherCpu;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settling ends under the budget the report counts by: the masters' JIT under 5 % of the baseline's median master
 * CPU, not of the arm's own. Control: judged by its own CPU (no basis), a patched+tuned probe like 2026-11-29's (26 ms/s a
 * master, JIT 2.6 ms/s = 10 %) is not warm, though its window would count against stock's 103 ms/s (budget 5.15 ms/s).
 */
class IdleSettleTest {

    private static IdleFigures probe(double masterMsPerSecond, double jitShare) {
        IdleFigures.Role master = new IdleFigures.Role(2, masterMsPerSecond, masterMsPerSecond, 0, 100, 100, 0, Map.of());
        return new IdleFigures(30, Map.of(IdleFigures.MASTER, master), OtherCpu.notMeasured("fixture"), jitShare);
    }

    private static IdleRound round(int n, String arm, double masterMsPerSecond) {
        return round(n, arm, masterMsPerSecond, "quiet");
    }

    private static IdleRound round(int n, String arm, double masterMsPerSecond, String machine) {
        return new IdleRound(n, arm, "5.5.1", "stock", "r" + n, machine, 180, probe(masterMsPerSecond, 0.01));
    }

    @Test
    void theBasisIsTheBaselinesMedianMasterCpuSoFar() {
        assertThat(IdleRun.settleBasis(List.of(), "stock")).isEqualTo(-1);
        assertThat(IdleRun.settleBasis(List.of(round(1, "patched+tuned", 26)), "stock")).isEqualTo(-1);
        assertThat(IdleRun.settleBasis(List.of(round(1, "stock", 103), round(1, "patched+tuned", 26), round(2, "stock", 99),
                round(3, "stock", 120)), "stock")).isEqualTo(103);
        assertThat(IdleRun.settleBasis(List.of(round(1, "stock", 100), round(2, "stock", 110)), "stock")).isEqualTo(105);
        // as the counting rule's basis (RoundFigures.baselineMedian): a baseline round on a busy machine is left out
        assertThat(IdleRun.settleBasis(List.of(round(1, "stock", 100), round(2, "stock", 160, "busy")), "stock")).isEqualTo(100);
    }

    @Test
    void aQuietArmSettlesUnderTheBaselinesBudget() {
        IdleFigures tuned = probe(26, 0.10);
        assertThat(IdleRun.warm(tuned, 103)).isTrue();
        // control: the old rule, the arm's own CPU
        assertThat(IdleRun.warm(tuned, -1)).isFalse();
        // over the budget: 26 ms/s at 25 % is 6.5 ms/s of JIT
        assertThat(IdleRun.warm(probe(26, 0.25), 103)).isFalse();
    }

    @Test
    void withoutABasisTheArmsOwnShareDecides() {
        assertThat(IdleRun.warm(probe(103, 0.04), -1)).isTrue();
        assertThat(IdleRun.warm(probe(103, 0.06), -1)).isFalse();
        // masters that used no CPU: nothing left to compile
        assertThat(IdleRun.warm(probe(0, -1), -1)).isTrue();
    }
}
