package io.hotpath.profiling;

import static io.hotpath.profiling.ReflectionCheckTest.canned;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompareReportTest {

    @Test
    void tabulatesEachFamilyAsShareOfAllSamplesWithTheDifferenceInPoints() {
        String table = CompareReport.table(canned("stock-broker-cpu.collapsed"), canned("patched-broker-cpu.collapsed"));

        assertThat(table).startsWith("| frame family | stock % | patched % | difference (pp) |\n|---|---:|---:|---:|\n");
        assertThat(table).contains("| properties encode (`messageProperties2String`) | 4.00 | 2.50 | -1.50 |\n");
        assertThat(table).contains("| properties parse (`string2messageProperties`) | 8.00 | 5.00 | -3.00 |\n");
        // stock: 4 samples under decodeCommandCustomHeader; patched: SendHeaderDecoder + a heartbeat decode
        assertThat(table).contains("| header decode (`decodeCommandCustomHeader`, incl. `java/lang/reflect`) | 8.00 | 5.00 | -3.00 |\n");
        assertThat(table).contains("| CommitLog encode (`DefaultAppendMessageCallback.doAppend` and friends) | 10.00 | 12.50 | +2.50 |\n");
        assertThat(table).contains("| network (netty, `sun/nio/ch`, epoll, kernel send/recv) | 30.00 | 25.00 | -5.00 |\n");
        assertThat(table).contains("| GC threads | 12.00 | 15.00 | +3.00 |\n");
        assertThat(table).contains("| JIT compiler threads | 16.00 | 0.00 | -16.00 |\n");
        assertThat(table).contains("| other | 12.00 | 35.00 | +23.00 |\n");
        assertThat(table).contains("| *of which reflection under `decodeCommandCustomHeader`* | 6.00 | 0.00 | -6.00 |\n");
        assertThat(table).endsWith("| samples | 50 | 40 | |\n");
    }

    @Test
    void warnsWhenTheJitIsStillWarmingUp() {
        FamilyShares warm = canned("patched-broker-cpu.collapsed");

        assertThat(CompareReport.warmupNote(canned("stock-broker-cpu.collapsed"), warm))
            .contains("JIT compiler took 16 % (stock) and 0 % (patched)");
        assertThat(CompareReport.warmupNote(warm, warm)).isEmpty();
    }

    @Test
    void showsZeroSharesForAnEmptyProfile() {
        FamilyShares empty = FamilyShares.of(CollapsedStacks.empty());

        assertThat(CompareReport.table(empty, empty)).contains("| other | 0.00 | 0.00 | +0.00 |\n");
    }
}
