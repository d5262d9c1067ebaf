package io.hotpath.jmh.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The summary's parsing and ratio arithmetic on a canned JMH JSON; nothing here measures speed. */
class SummaryWriterTest {

    private static String summary;

    @BeforeAll
    static void writeCannedSummary() throws IOException {
        String json;
        try (InputStream in = SummaryWriterTest.class.getResourceAsStream("canned-result.json")) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        SummaryWriter.RunContext ctx = new SummaryWriter.RunContext();
        ctx.date = "2026-01-02T03:04:05Z";
        ctx.command = "mvn -B -pl jmh verify";
        ctx.jmhArgs = "^io\\.hotpath\\.jmh\\. -f 2";
        ctx.duration = "4 min 10 s";
        ctx.estimate = "4 min 00 s";
        ctx.cpus = 2;
        ctx.idleBeforePercent = 97.5;
        ctx.othersDuringPercent = 1.2;
        summary = new SummaryWriter("upstream490").write(json, ctx);
    }

    @Test
    void headerDescribesRunFromJsonAndContext() {
        assertThat(summary)
            .contains("- Date: 2026-01-02T03:04:05Z\n")
            .contains("- JVM: OpenJDK 64-Bit Server VM 17.0.15+6 (JDK 17.0.15), /opt/jdk/bin/java; JMH 1.37\n")
            .contains("- Settings: 2 forks x (3 warmup x 1 s + 5 measurement x 1 s), mode avgt, 1 thread(s)\n")
            .contains("- Fork JVM args: `-Xms2g -Xmx2g -XX:+AlwaysPreTouch`\n")
            .contains("- Command: `mvn -B -pl jmh verify`\n")
            .contains("- Duration: 4 min 10 s (estimated 4 min 00 s)\n")
            .contains("- Machine: 2 CPUs; 97.5 % idle right before the run, other processes used 1.2 % of all CPUs during it -> **quiet**\n");
    }

    @Test
    void putsBaselineFirstAndComputesRatiosAgainstItFromTheSameGroup() {
        assertThat(summary).contains("## SampleEncodeBenchmark · corpus=small5\n\n"
            + "| method | ns/op | ± error | B/op | speed-up vs upstream490 | B/op vs upstream490 |\n"
            + "|---|---:|---:|---:|---:|---:|\n"
            + "| upstream490 | 400.0 | 60.0 (15 %) noisy | 480 | 1.00x | 1.00x |\n"
            + "| upstreamLatest | 250.0 | n/a | 644 (forks 600...688) | 1.60x | 1.34x |\n"
            + "| hotpath | 100.0 | 5.00 (5 %) | 120 | 4.00x | 0.25x |\n");
    }

    @Test
    void givesNoByteRatioWhenTheBaselineAllocatesNothing() {
        assertThat(summary).contains("## SampleEncodeBenchmark · corpus=large12\n\n"
            + "| method | ns/op | ± error | B/op | speed-up vs upstream490 | B/op vs upstream490 |\n"
            + "|---|---:|---:|---:|---:|---:|\n"
            + "| upstream490 | 5000 | 100.0 (2 %) | 0 | 1.00x | n/a |\n"
            + "| hotpath | 1250 | 12.5 (1 %) | 0 | 4.00x | n/a |\n");
    }

    @Test
    void writesATableWithoutRatiosForAClassWithoutBaseline() {
        assertThat(summary).contains("## SampleDecodeBenchmark\n\n"
            + "| method | ns/op | ± error | B/op |\n"
            + "|---|---:|---:|---:|\n"
            + "| upstreamLatest | 84.0 | 2.00 (2 %) | n/a |\n"
            + "| hotpath | 42.0 | 1.00 (2 %) | n/a |\n"
            + "\n(no upstream490 method in this group: no ratios)\n");
    }

    @Test
    void keepsGroupsInJmhOrder() {
        assertThat(summary.indexOf("corpus=small5")).isLessThan(summary.indexOf("corpus=large12"));
        assertThat(summary.indexOf("corpus=large12")).isLessThan(summary.indexOf("## SampleDecodeBenchmark"));
    }

    @Test
    void countsThroughputAsFasterWhenHigher() {
        assertThat(SummaryWriter.speedUp("thrpt", 10.0, 40.0)).isEqualTo(4.0);
        assertThat(SummaryWriter.speedUp("avgt", 40.0, 10.0)).isEqualTo(4.0);
        assertThat(SummaryWriter.speedUp("sample", 40.0, 10.0)).isEqualTo(4.0);
    }

    @Test
    void flagsABusyMachine() {
        SummaryWriter.RunContext busy = new SummaryWriter.RunContext();
        busy.cpus = 2;
        busy.idleBeforePercent = 40.0;
        busy.othersDuringPercent = 55.0;
        assertThat(SummaryWriter.machine(busy)).endsWith("**NOT quiet: absolute numbers are inflated, ratios noisy**");
    }
}
