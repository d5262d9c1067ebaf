package io.hotpath.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllocationSitesTest {

    /** Keeps every scratch buffer reachable for a while, so that the JIT cannot take the allocation away. */
    private static final byte[][] KEPT = new byte[64][];

    @TempDir
    Path nodeDir;

    @Test
    void aSiteIsTheInnermostFrameOfRocketMqOrOurCode() {
        assertThat(AllocationSites.site(List.of("java.util.Arrays.copyOf", "java.lang.StringBuilder.append",
                "org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String",
                "org.apache.rocketmq.broker.processor.SendMessageProcessor.sendMessage"), "SendMessageThread_3"))
                .isEqualTo("MessageDecoder.messageProperties2String");
        assertThat(AllocationSites.site(List.of("java.util.HashMap.resize", "io.hotpath.codec.MessagePropertiesCodec.parse",
                "org.apache.rocketmq.store.CommitLog.putMessage"), "SendMessageThread_3")).isEqualTo("MessagePropertiesCodec.parse");
    }

    @Test
    void aSampleOutsideRocketMqCountsUnderItsThreadGroup() {
        assertThat(AllocationSites.site(List.of("io.netty.buffer.PoolArena.allocate", "io.netty.channel.nio.NioEventLoop.run"),
                "NettyServerNIOSelector_3_1")).isEqualTo(AllocationSites.NO_SITE + ThreadCpuTimes.group("NettyServerNIOSelector_3_1"));
        assertThat(AllocationSites.site(List.of(), null)).isEqualTo(AllocationSites.NO_SITE + "?");
    }

    @Test
    void sharesOfTheSampledWeightScaleToTheExactTotal() {
        AllocationSites sites = new AllocationSites(10, Map.of("A.a", 300L, "B.b", 100L))
                .plus(new AllocationSites(5, Map.of("A.a", 100L, "C.c", 500L)));

        assertThat(sites.samples()).isEqualTo(15);
        assertThat(sites.bytesPerMessage(2000)).containsExactly(Map.entry("C.c", 1000.0), Map.entry("A.a", 800.0),
                Map.entry("B.b", 200.0));
    }

    @Test
    void readsTheSitesOfARealRecordingInItsWindowOnly() throws Exception {
        Instant start;
        Instant end;
        try (Recording recording = new Recording()) {
            recording.enable(AllocationSites.EVENT).withStackTrace().with("throttle", "1000/s");
            // the broker's recording has the counters too, and a recording without them has no figures at all
            recording.enable("jdk.ThreadAllocationStatistics").withPeriod(Duration.ofMillis(100));
            recording.start();
            start = Instant.now();
            long kept = allocateScratch(Instant.now().plusMillis(800));
            end = Instant.now();
            recording.stop();
            recording.dump(nodeDir.resolve(BrokerFlightRecording.FILE_NAME));
            assertThat(kept).isPositive();
        }

        AllocationSites sites = BrokerFlightRecording.read(nodeDir, start, end).sites();

        assertThat(sites).isNotNull();
        assertThat(sites.samples()).isPositive();
        Map<String, Double> perMessage = sites.bytesPerMessage(100);
        assertThat(perMessage.keySet().iterator().next()).isEqualTo("AllocationSitesTest.allocateScratch");
        assertThat(perMessage.get("AllocationSitesTest.allocateScratch")).isGreaterThan(50);
        assertThat(BrokerFlightRecording.read(nodeDir, end.plusSeconds(10), end.plusSeconds(20)).sites()).isNull();
        assertThat(BrokerFlightRecording.read(nodeDir.resolve("no-such-node"), start, end).sites()).isNull();
    }

    /** Allocates 4 KiB buffers until {@code until}; returns how many, so that the loop is not dead code. */
    private static long allocateScratch(Instant until) {
        long count = 0;
        while (Instant.now().isBefore(until)) {
            for (int i = 0; i < 1000; i++) {
                KEPT[(int) (count++ & 63)] = new byte[4096];
            }
        }
        return count;
    }
}
