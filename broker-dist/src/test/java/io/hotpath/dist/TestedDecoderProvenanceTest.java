package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/**
 * The contract and differential suites only prove the patch if the candidate really is the patched
 * class and the oracle really is the line's stock release; both would pass if, say, the patch had not
 * been applied. These tests pin down which bytes each side runs, for whichever line this build assembled:
 * the codec the candidate must delegate to is the {@code PropertiesCodec*} the line's descriptor says a
 * patch carries into common.
 */
class TestedDecoderProvenanceTest {

    private static final String CODEC_INTERNAL_NAME = lineCodecInternalName();

    private static String lineCodecInternalName() {
        List<String> codecs = BuiltDistributions.line().carries().values().stream()
            .filter(carried -> carried.upstreamModule().equals("common"))
            .flatMap(carried -> carried.files().stream())
            .filter(file -> file.matches("io/hotpath/codec/PropertiesCodec\\d+\\.java"))
            .toList();
        assertThat(codecs).as("the properties codec the line's patches carry into common").hasSize(1);
        return codecs.get(0).substring(0, codecs.get(0).length() - ".java".length());
    }

    @Test
    void candidateIsLoadedFromThePatchedDistributionsCommonJar() throws Exception {
        PatchedMessageDecoder patched = PatchedMessageDecoder.get();
        Path jar = BuiltDistributions.patched().resolve("lib").resolve("rocketmq-common-" + BuiltDistributions.upstreamVersion() + ".jar");
        assertThat(patched.decoderClass.getClassLoader()).isSameAs(patched.loader);
        assertThat(Path.of(patched.decoderClass.getProtectionDomain().getCodeSource().getLocation().toURI()))
            .isEqualTo(jar.toAbsolutePath());
        assertThat(patched.decoderClass).isNotSameAs(MessageDecoder.class);
    }

    @Test
    void candidateDelegatesToTheLinesCodecFromThePatchedJar() throws Exception {
        PatchedMessageDecoder patched = PatchedMessageDecoder.get();
        assertThat(classBytes(patched.loader)).contains(CODEC_INTERNAL_NAME);

        patched.string2messageProperties("a\1b\2");
        String codecName = CODEC_INTERNAL_NAME.replace('/', '.');
        Class<?> codec = Class.forName(codecName, false, patched.loader);
        assertThat(codec.getClassLoader()).as("the codec the patch added, not hotpath-codec's").isSameAs(patched.loader);
        assertThat(codec).isNotSameAs(Class.forName(codecName, false, getClass().getClassLoader()));
    }

    @Test
    void oracleIsCentralsStockCommonJar() throws Exception {
        // the oracle is what Maven Central ships, not our build of the stock tree: the jar on the test classpath is
        // the local repository's copy of the line's rocketmq-common, with the bytes Central's .sha1 names
        Path oracleJar = Path.of(MessageDecoder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String version = BuiltDistributions.upstreamVersion();
        assertThat(oracleJar).isEqualTo(Path.of(System.getProperty("hotpath.maven.repo"))
            .resolve("org/apache/rocketmq/rocketmq-common").resolve(version).resolve("rocketmq-common-" + version + ".jar")
            .toAbsolutePath().normalize());
        Path sha1 = oracleJar.resolveSibling(oracleJar.getFileName() + ".sha1");
        assertThat(UserRepositoryUntouchedTest.sha1(oracleJar))
            .isEqualTo(Files.readString(sha1, StandardCharsets.US_ASCII).strip().substring(0, 40));
        assertThat(classBytes(MessageDecoder.class.getClassLoader())).doesNotContain(CODEC_INTERNAL_NAME);
    }

    @Test
    void stockDistributionsDecoderIsUnpatched() throws Exception {
        Path stockJar = BuiltDistributions.stock().resolve("lib").resolve("rocketmq-common-" + BuiltDistributions.upstreamVersion() + ".jar");
        try (URLClassLoader stock = new URLClassLoader(new URL[] {stockJar.toUri().toURL()}, null)) {
            assertThat(classBytes(stock)).doesNotContain(CODEC_INTERNAL_NAME);
        }
    }

    @Test
    void candidateAndOracleAgreeOnWhatABrokerStores() {
        // a stock 4.9.0 broker's block (WAIT, trailing separator): every later release reads such records too
        String stored = "KEYS\1OrderID188\2UNIQ_KEY\1" + "7F0000010B5718B4AAC2170C8D500000"
            + "\2CLUSTER\1DefaultCluster\2WAIT\1true\2TAGS\1TagA\2";
        Map<String, String> parsed = PatchedMessageDecoder.get().string2messageProperties(stored);
        assertThat(parsed).isEqualTo(MessageDecoder.string2messageProperties(stored));
        assertThat(PatchedMessageDecoder.get().messageProperties2String(parsed))
            .isEqualTo(MessageDecoder.messageProperties2String(MessageDecoder.string2messageProperties(stored)));
    }

    private static String classBytes(ClassLoader loader) throws IOException {
        try (InputStream in = loader.getResourceAsStream(PatchedMessageDecoder.CLASS_NAME.replace('.', '/') + ".class")) {
            assertThat(in).isNotNull();
            // constant pool names are modified UTF-8; ASCII class names read fine as ISO-8859-1
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
