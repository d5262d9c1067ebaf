package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.lines.ReleaseLine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provenance check on what the masters of a real 5.3.3 smoke recorded ({@code bin/hotpath smoke --line 5.3.3
 * --dist both -n 2000} with {@link DecoderProvenance#brokerJvmOptions()}, 2026-11-26, in /work/h-provenance):
 * excerpts of broker-a's class-load log on the stock and on the patched distribution (its send processors loaded at
 * boot, then the stretch of its first send), and the decoder's class-load event of the patched broker-a's
 * recording, as {@code jfr print --events jdk.ClassLoad} showed it (timestamp left out). On these runs
 * {@code bin/hotpath profile provenance} exited 1 on the stock run directory and 0 on the patched one.
 */
class DecoderProvenanceTest {

    private static final String DECODER = "io.hotpath.codec.header.SendHeaderDecoder533";
    private static final Path CAPTURED_ROOT = Path.of("/work/h-provenance/broker-dist/target");
    private static final Path PATCHED_JAR = CAPTURED_ROOT.resolve("rocketmq-5.3.3-patched/lib/rocketmq-broker-5.3.3.jar");
    private static final Path STOCK_JAR = CAPTURED_ROOT.resolve("rocketmq-5.3.3-stock/lib/rocketmq-broker-5.3.3.jar");

    /** The decoder's load in the patched broker-a's recording: thread and Java frames, innermost first. */
    private static final ClassLoadRecording.Load PATCHED_LOAD = new ClassLoadRecording.Load(DECODER, 0L, "SendMessageThread_1",
        List.of("org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor.parseRequestHeader",
            "org.apache.rocketmq.broker.processor.SendMessageProcessor.processRequest",
            "org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.lambda$buildProcessRequestHandler$1",
            "org.apache.rocketmq.remoting.netty.RequestTask.run",
            "java.util.concurrent.Executors$RunnableAdapter.call"));

    @Test
    void passesThePatchedMasterThatLoadedTheDecoderFromItsBrokerJarOnASend() {
        List<ClassLoadLog.Loaded> logged = ClassLoadLog.loadsOf(excerpt("patched-5.3.3-broker-a-class-load.log"), DECODER);

        assertThat(logged).extracting(ClassLoadLog.Loaded::sourceFile).containsExactly(PATCHED_JAR);
        assertThat(DecoderProvenance.verify("broker-a", DECODER, PATCHED_JAR, logged, List.of(PATCHED_LOAD))).isEmpty();
    }

    @Test
    void failsTheStockMasterWhichNeverLoadsTheDecoder() {
        List<String> stock = excerpt("stock-5.3.3-broker-a-class-load.log");

        assertThat(DecoderProvenance.verify("broker-a", DECODER, STOCK_JAR, ClassLoadLog.loadsOf(stock, DECODER), List.of()))
            .hasValueSatisfying(failure -> assertThat(failure).startsWith("broker-a never loaded " + DECODER));
        // the control of the excerpt: the stock broker did load its send processors in the same stretch of its log
        assertThat(ClassLoadLog.loadsOf(stock, "org.apache.rocketmq.broker.processor.SendMessageProcessor")).hasSize(1);
    }

    @Test
    void failsADecoderLoadedFromAnotherJarThanTheDistributionsBrokerJar() {
        List<ClassLoadLog.Loaded> logged = ClassLoadLog.loadsOf(excerpt("patched-5.3.3-broker-a-class-load.log"), DECODER);

        assertThat(DecoderProvenance.verify("broker-a", DECODER, STOCK_JAR, logged, List.of(PATCHED_LOAD)))
            .hasValueSatisfying(failure -> assertThat(failure).contains("not from " + STOCK_JAR));
    }

    @Test
    void failsADecoderLoadedByAnythingButASendProcessorsHeaderParsing() {
        List<ClassLoadLog.Loaded> logged = ClassLoadLog.loadsOf(excerpt("patched-5.3.3-broker-a-class-load.log"), DECODER);
        // what a load at boot would show: the verifier or an eager initialiser, not a send
        ClassLoadRecording.Load atBoot = new ClassLoadRecording.Load(DECODER, 0L, "main", List.of(
            "java.lang.ClassLoader.loadClass", "org.apache.rocketmq.broker.BrokerController.registerProcessor",
            "org.apache.rocketmq.broker.BrokerController.initialize"));

        assertThat(DecoderProvenance.verify("broker-a", DECODER, PATCHED_JAR, logged, List.of(atBoot)))
            .hasValueSatisfying(failure -> assertThat(failure)
                .contains("from org.apache.rocketmq.broker.BrokerController.registerProcessor on thread main"));
        assertThat(DecoderProvenance.verify("broker-a", DECODER, PATCHED_JAR, logged, List.of()))
            .hasValueSatisfying(failure -> assertThat(failure).contains("its recording has no load of it"));
    }

    @Test
    void aMasterWithoutItsEvidenceFailsAndSaysWhichFileIsMissing(@TempDir Path runDir) throws IOException {
        Files.createDirectories(runDir.resolve("broker-a"));
        StringBuilder report = new StringBuilder();

        List<String> failures = DecoderProvenance.check(runDir, List.of("broker-a"), DECODER, PATCHED_JAR, report);

        assertThat(failures).containsExactly("broker-a: no " + runDir.resolve("broker-a/class-load.log")
            + " (was the smoke run with the JVM options of the provenance check, and did the broker exit normally?)");
        assertThat(report.toString()).isEqualTo(failures.get(0) + "\n");
    }

    @Test
    void findsTheDecoderOfEveryLineWhosePatchesCarryOne() {
        Path patches = Path.of(System.getProperty("hotpath.root"), "patches");
        Map<String, Optional<String>> decoders = ReleaseLine.all(patches).stream()
            .collect(Collectors.toMap(ReleaseLine::release, DecoderProvenance::decoderClass));

        assertThat(decoders).containsEntry("4.9.0", Optional.of("io.hotpath.codec.header.SendHeaderDecoder"))
            .containsEntry("4.9.8", Optional.of("io.hotpath.codec.header.SendHeaderDecoder498"))
            .containsEntry("5.3.3", Optional.of(DECODER));
    }

    @Test
    void givesTheBrokersBothRecordersInOptionsWithoutWhitespace() {
        // bin/mqbroker splits JAVA_OPTS on whitespace
        assertThat(DecoderProvenance.brokerJvmOptions()).hasSize(2).noneMatch(option -> option.matches(".*\\s.*"))
            .anyMatch(option -> option.startsWith("-Xlog:class+load=info:file=class-load.log:"))
            .anyMatch(option -> option.startsWith("-XX:StartFlightRecording=") && option.contains("filename=decoder-provenance.jfr"));
    }

    private static List<String> excerpt(String name) {
        try (InputStream in = DecoderProvenanceTest.class.getResourceAsStream("provenance/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
