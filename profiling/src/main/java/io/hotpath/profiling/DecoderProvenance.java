package io.hotpath.profiling;

import io.hotpath.lines.ReleaseLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Proves, from what the masters of one smoke run recorded about themselves, that they decoded sends with the
 * send-header decoder the line's patch 0002 adds to the broker: each master loaded that class from the
 * distribution's {@code rocketmq-broker-<release>.jar}, and the load was caused by a send processor's
 * {@code parseRequestHeader} (the call site the patch changes). A class is loaded when code using it first
 * runs, so this holds only if a send reached the decoder. The stock distribution has no such class and fails.
 *
 * <p>It replaces a cpu-profile check ("no reflection under decodeCommandCustomHeader on the send path"), which
 * stock 5.3.3 passes too (it decodes SEND_MESSAGE_V2 through FastCodesHeader, without reflection) and which
 * a few seconds of samples cannot settle for a decoder that takes ~100 ns. This one is deterministic: two
 * JVM options give each broker a class-load log (where each class came from) and a JFR recording of
 * {@code jdk.ClassLoad} with stacks (what made it load); both are written into the broker's node directory.
 */
public final class DecoderProvenance {

    /** Each broker's class-load log, relative to its node directory (the broker's working directory). */
    static final String CLASS_LOAD_LOG = "class-load.log";
    /** Each broker's recording of class loads with their stacks, written when the broker exits. */
    static final String RECORDING = "decoder-provenance.jfr";
    /** The call site patch 0002 changes on every line: the send processors' header parsing. */
    static final String CALL_SITE_PACKAGE = "org.apache.rocketmq.broker.processor.";
    static final String CALL_SITE_METHOD = "parseRequestHeader";

    private DecoderProvenance() {
    }

    /**
     * The broker JVM options that make the evidence (bin/hotpath smoke --broker-jvm-opts: no option may contain
     * whitespace). The class-load log never rotates; the recording holds only {@code jdk.ClassLoad}, and is
     * separate from the smoke's own allocation recording so that neither changes what the other asks for.
     */
    public static List<String> brokerJvmOptions() {
        return List.of(
            "-Xlog:class+load=info:file=" + CLASS_LOAD_LOG + ":uptime,level,tags:filecount=0",
            "-XX:StartFlightRecording=name=hotpath-provenance,settings=none,+jdk.ClassLoad#enabled=true,"
                + "+jdk.ClassLoad#stackTrace=true,+jdk.ClassLoad#threshold=0ms,filename=" + RECORDING + ",dumponexit=true");
    }

    /**
     * The send-header decoder the line's patches carry into upstream's broker module ({@code carries.*} in its
     * descriptor); empty when they carry none.
     */
    public static Optional<String> decoderClass(ReleaseLine line) {
        List<String> decoders = line.carries().values().stream()
            .filter(carried -> carried.upstreamModule().equals("broker"))
            .flatMap(carried -> carried.files().stream())
            .filter(file -> file.matches("io/hotpath/codec/header/SendHeaderDecoder\\w*\\.java"))
            .map(file -> file.substring(0, file.length() - ".java".length()).replace('/', '.'))
            .toList();
        if (decoders.size() > 1) {
            throw new ProfilingException(line.dir().resolve(ReleaseLine.DESCRIPTOR) + " carries " + decoders.size()
                + " send-header decoders into broker (" + decoders + "); the provenance check expects one");
        }
        return decoders.stream().findFirst();
    }

    /** The broker jar of a distribution, where the patch puts the decoder. */
    public static Path brokerJar(Path distribution, String release) {
        return distribution.resolve("lib").resolve("rocketmq-broker-" + release + ".jar").toAbsolutePath().normalize();
    }

    /**
     * Checks every master of the run in {@code runDir} ({@code <runDir>/<master>/} holds its evidence); appends one
     * line per master to {@code report} and returns the failures, one sentence each.
     */
    public static List<String> check(Path runDir, List<String> masters, String decoder, Path brokerJar, StringBuilder report) {
        List<String> failures = new ArrayList<>();
        for (String master : masters) {
            Path node = runDir.resolve(master);
            Path log = node.resolve(CLASS_LOAD_LOG);
            Path recording = node.resolve(RECORDING);
            String line;
            Optional<String> failure;
            if (!Files.isRegularFile(log) || !Files.isRegularFile(recording)) {
                failure = Optional.of(master + ": no " + (Files.isRegularFile(log) ? recording : log)
                    + " (was the smoke run with the JVM options of the provenance check, and did the broker exit normally?)");
                line = failure.get();
            } else {
                List<ClassLoadRecording.Load> recorded = ClassLoadRecording.loadsOf(recording, decoder);
                failure = verify(master, decoder, brokerJar, ClassLoadLog.loadsOf(log, decoder), recorded);
                line = failure.orElseGet(() -> master + ": " + describe(decoder, brokerJar, recorded.get(0)));
            }
            report.append(line).append('\n');
            failure.ifPresent(failures::add);
        }
        return failures;
    }

    /**
     * Empty when {@code master} loaded {@code decoder} from {@code brokerJar} only ({@code logged}: the class-load
     * log's lines of it) and its first load was caused by a send processor's header parsing ({@code recorded}:
     * its {@code jdk.ClassLoad} events); otherwise one sentence saying what was found instead.
     */
    static Optional<String> verify(String master, String decoder, Path brokerJar, List<ClassLoadLog.Loaded> logged,
            List<ClassLoadRecording.Load> recorded) {
        if (logged.isEmpty()) {
            return Optional.of(master + " never loaded " + decoder + ": its sends were not decoded by the patch's decoder"
                + " (a stock distribution, or a build without the send-header patch?)");
        }
        for (ClassLoadLog.Loaded load : logged) {
            if (!brokerJar.equals(load.sourceFile())) {
                return Optional.of(master + " loaded " + decoder + " from " + load.source() + ", not from " + brokerJar);
            }
        }
        if (recorded.isEmpty()) {
            return Optional.of(master + ": its class-load log has " + decoder + " but its recording has no load of it,"
                + " so what made it load is unknown");
        }
        ClassLoadRecording.Load first = recorded.get(0);
        String caller = caller(first);
        if (caller == null || !caller.startsWith(CALL_SITE_PACKAGE) || !caller.endsWith("." + CALL_SITE_METHOD)) {
            return Optional.of(master + " loaded " + decoder + " from " + caller + " on thread " + first.thread()
                + ", not from a send processor's " + CALL_SITE_METHOD + ": no send is known to have reached it");
        }
        return Optional.empty();
    }

    /** The innermost frame of the load outside the JDK: the code that needed the class. */
    static String caller(ClassLoadRecording.Load load) {
        for (String frame : load.frames()) {
            if (!frame.startsWith("java.") && !frame.startsWith("jdk.") && !frame.startsWith("sun.")) {
                return frame;
            }
        }
        return null;
    }

    private static String describe(String decoder, Path brokerJar, ClassLoadRecording.Load first) {
        return decoder + " loaded from " + brokerJar.getFileName() + " by " + caller(first) + " on thread " + first.thread();
    }
}
