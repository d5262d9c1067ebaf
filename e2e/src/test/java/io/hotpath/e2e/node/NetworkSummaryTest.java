package io.hotpath.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.spec.NetMode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NetworkSummaryTest {

    @Test
    void loopbackRecordsOnlyItsMode() {
        assertThat(NetworkSummary.LOOPBACK.jsonFields()).containsExactly("\"net\": \"loopback\"");
        assertThat(NetworkSummary.LOOPBACK.describe()).startsWith("loopback");
    }

    @Test
    void realisticRecordsAddressesShapingAndWhatWasMeasured() {
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("controller", "10.213.0.1");
        addresses.put("broker-a", "10.213.0.11");
        NetworkSummary summary = new NetworkSummary(NetMode.REALISTIC, addresses, 30, 1000, 0.081, 0.095, 0.031, 941.4);

        assertThat(summary.jsonFields()).containsExactly(
                "\"net\": \"realistic\"",
                "\"netAddresses\": {\"controller\": \"10.213.0.1\", \"broker-a\": \"10.213.0.11\"}",
                "\"netShaping\": \"netem 30 us each way + tbf 1000 Mbit/s per link\"",
                "\"netDelayUsEachWay\": 30",
                "\"netRateMbit\": 1000",
                "\"netRttMs\": 0.081",
                "\"netRttMaxMs\": 0.095",
                "\"netLoopbackRttMs\": 0.031",
                "\"netThroughputMbit\": 941");
        assertThat(summary.describe()).contains("controller 10.213.0.1, broker-a 10.213.0.11")
                .contains("controller -> broker-a 0.081 ms").contains("941 Mbit/s").doesNotContain("\n");
    }

    @Test
    void realisticWithoutNetemSaysSo() {
        NetworkSummary summary = new NetworkSummary(NetMode.REALISTIC, Map.of(), 0, 1000, 0.1, 0.1, 0.1, 900);

        assertThat(summary.shaping()).isEqualTo("tbf 1000 Mbit/s per link, no added delay (kernel without sch_netem)");
    }
}
