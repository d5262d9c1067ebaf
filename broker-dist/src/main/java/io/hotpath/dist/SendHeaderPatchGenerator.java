package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates {@code patches/4.9.0/0002-broker-send-header-direct-decode.patch} from hotpath-codec's
 * {@code io.hotpath.codec.header} sources and the rocketmq-broker 4.9.0 {@code -sources} jar, the
 * way {@link CodecPatchGenerator} generates 0001; broker-dist's {@code CodecPatchFreshnessTest}
 * regenerates both and compares.
 *
 * <p>The patch (git format-patch, against the rocketmq-all-4.9.0 tree):
 * <ul>
 *   <li>adds {@code broker/src/main/java/io/hotpath/codec/header/SendHeaderDecoder.java},
 *       byte-identical to hotpath-codec's file ({@link #HEADER_FILES});</li>
 *   <li>swaps the bodies of {@code AbstractSendMessageProcessor#parseRequestHeader} and of the
 *       {@code ReplyMessageProcessor} override for a call to {@code SendHeaderDecoder}, keeping the
 *       signatures, and drops the imports only the old bodies used (upstream's checkstyle bans
 *       unused imports).</li>
 * </ul>
 *
 * <p>Run: {@code patches/regenerate.sh}.
 */
public final class SendHeaderPatchGenerator {

    public static final String PATCH_NAME = "0002-broker-send-header-direct-decode.patch";
    public static final String PROCESSOR_DIR = "broker/src/main/java/org/apache/rocketmq/broker/processor/";
    public static final String ABSTRACT_SEND_PATH = PROCESSOR_DIR + "AbstractSendMessageProcessor.java";
    public static final String REPLY_PATH = PROCESSOR_DIR + "ReplyMessageProcessor.java";
    public static final String HEADER_DIR = "broker/src/main/java/io/hotpath/codec/header/";
    /** What the broker needs from hotpath-codec: the decoder depends on rocketmq-common/remoting/logging only. */
    public static final List<String> HEADER_FILES = List.of("SendHeaderDecoder.java");

    private static final String SEND_SIGNATURE = "protected SendMessageRequestHeader parseRequestHeader(RemotingCommand request)\n"
        + "        throws RemotingCommandException {";
    private static final String SEND_BODY = "\n"
        + "        return SendHeaderDecoder.parseRequestHeader(request);\n"
        + "    ";
    private static final String REPLY_SIGNATURE =
        "protected SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {";
    private static final String REPLY_BODY = "\n"
        + "        return SendHeaderDecoder.parseReplyRequestHeader(request);\n"
        + "    ";
    private static final String IMPORT = "import io.hotpath.codec.header.SendHeaderDecoder;\n";

    private static final String DEFAULT_MESSAGE = """
        Broker send path: decode send headers directly, identical to 4.9.0

        Motivation:

        Every send request (SEND_MESSAGE_V2 310, SEND_BATCH_MESSAGE 320,
        SEND_MESSAGE 10) and every reply (SEND_REPLY_MESSAGE_V2 325,
        SEND_REPLY_MESSAGE 324) is decoded through
        RemotingCommand#decodeCommandCustomHeader, which in 4.9.0 walks the
        header class by reflection on every request; V2 requests also allocate a
        V2 header only to copy it into a V1 header. Upstream's own fast decoders
        (4.9.1 - 4.9.3, and FastCodesHeader in 4.9.4+/5.x) throw where 4.9.0 logs
        and continues, so they are no drop-in for a 4.9.0 cluster.

        Modification:

        - Add io.hotpath.codec.header.SendHeaderDecoder to the broker module:
          byte-identical to the rocketmq-hotpath hotpath-codec module, from
          which this patch is generated. It depends on rocketmq-common,
          -remoting and -logging 4.9.0 only.
        - AbstractSendMessageProcessor#parseRequestHeader and the
          ReplyMessageProcessor override keep their signatures and delegate to
          it; the imports only the old bodies used are removed. For every
          request the result is that of 4.9.0: every header field, null for
          codes the processor does not parse, no exception while decoding
          fields, the same "Failed field [..] decoding" line on RocketmqRemoting
          per field that cannot be decoded, and checkFields() on the V1 header.
          The one call no longer made is SendMessageRequestHeaderV2#checkFields()
          on the V2 path, which is empty in 4.9.0: no V2 header is built.
        - Proven against 4.9.0 reflection as oracle: hotpath-codec's send-header
          contract suite and jqwik differential properties (>= 100,000 cases
          each) run against the patched processors of the built broker.

        Result: see jmh summary (filled in by the lead)
        """;

    private SendHeaderPatchGenerator() {
    }

    /**
     * The patch text. {@code existingPatch}, if not null, provides the message part; {@code workDir}
     * is emptied and used as a scratch repository.
     */
    public static String generate(Path brokerSourcesJar, Path codecSources, String existingPatch, Path workDir) {
        String stockSend = CodecPatchGenerator.readEntry(brokerSourcesJar,
            ABSTRACT_SEND_PATH.substring("broker/src/main/java/".length()));
        String stockReply = CodecPatchGenerator.readEntry(brokerSourcesJar, REPLY_PATH.substring("broker/src/main/java/".length()));

        Map<String, String> stock = new LinkedHashMap<>();
        stock.put(ABSTRACT_SEND_PATH, stockSend);
        stock.put(REPLY_PATH, stockReply);
        Map<String, String> patched = new LinkedHashMap<>();
        patched.put(ABSTRACT_SEND_PATH, patchProcessor("AbstractSendMessageProcessor.java", stockSend, SEND_SIGNATURE, SEND_BODY));
        patched.put(REPLY_PATH, patchProcessor("ReplyMessageProcessor.java", stockReply, REPLY_SIGNATURE, REPLY_BODY));
        for (String file : HEADER_FILES) {
            patched.put(HEADER_DIR + file, CodecPatchGenerator.readSource(codecSources.resolve("io/hotpath/codec/header").resolve(file)));
        }
        return CodecPatchGenerator.formatPatch(stock, patched, DEFAULT_MESSAGE, existingPatch, workDir);
    }

    static String patchProcessor(String file, String source, String signature, String body) {
        String patched = CodecPatchGenerator.replaceBody(file, source, signature, body);
        // imports are sorted in upstream's processors: io.hotpath goes before the first (io.netty) import
        int firstImport = patched.indexOf("\nimport ") + 1;
        if (firstImport == 0 || !patched.startsWith("import io.netty.", firstImport)) {
            throw new DistBuildException(file + ": imports do not start with io.netty.*; update SendHeaderPatchGenerator");
        }
        patched = patched.substring(0, firstImport) + IMPORT + patched.substring(firstImport);
        for (String type : List.of("RequestCode", "SendMessageRequestHeaderV2")) {
            if (!CodecPatchGenerator.usedOutsideImportsAndComments(patched, type)) {
                String line = "import org.apache.rocketmq.common.protocol." + (type.equals("RequestCode") ? "" : "header.") + type + ";\n";
                if (!patched.contains(line)) {
                    throw new DistBuildException(file + ": no '" + line.strip() + "' to remove; update SendHeaderPatchGenerator");
                }
                patched = patched.replace(line, "");
            }
        }
        return patched;
    }

    /**
     * {@code --sources-jar JAR --codec-sources DIR --patch FILE --work DIR}: (re)writes FILE, keeping
     * its message if it exists.
     */
    public static void main(String[] args) {
        PatchCommand.run(() -> {
            if (args.length != 8 || !args[0].equals("--sources-jar") || !args[2].equals("--codec-sources")
                || !args[4].equals("--patch") || !args[6].equals("--work")) {
                throw new DistBuildException("usage: SendHeaderPatchGenerator --sources-jar JAR --codec-sources DIR --patch FILE --work DIR");
            }
            PatchCommand.regenerate(Path.of(args[5]),
                existing -> generate(Path.of(args[1]), Path.of(args[3]), existing, Path.of(args[7])));
        });
    }
}
