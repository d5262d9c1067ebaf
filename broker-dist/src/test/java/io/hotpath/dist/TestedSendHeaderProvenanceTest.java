package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * {@link PatchedBrokerSendHeaderSuitesTest} only proves patch 0002 if the processors it runs are the
 * patched ones and they really decode through {@code SendHeaderDecoder}; it would also pass if the
 * patch had not been applied (stock reflection equals the oracle). These tests pin down which bytes
 * run: the processor classes come from the patched rocketmq-broker jar, reference SendHeaderDecoder,
 * and when they read a request's extFields the call stack goes through the patched jar's
 * SendHeaderDecoder and not through RemotingCommand#decodeCommandCustomHeader, while the stock
 * 4.9.0 processor (test classpath) still reads them by reflection.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
class TestedSendHeaderProvenanceTest {

    private static final String DECODER = "io.hotpath.codec.header.SendHeaderDecoder";
    private static final String SEND_PROCESSOR = "org.apache.rocketmq.broker.processor.SendMessageProcessor";
    private static final String REPLY_PROCESSOR = "org.apache.rocketmq.broker.processor.ReplyMessageProcessor";
    private static final String ABSTRACT_PROCESSOR = "org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor";
    private static final int SEND_MESSAGE_V2 = 310;
    private static final int SEND_REPLY_MESSAGE_V2 = 325;

    @Test
    void processorsAreLoadedFromThePatchedDistributionsBrokerJar() throws Exception {
        PatchedBrokerLoader loader = PatchedBrokerLoader.get();
        Path jar = BuiltDistributions.patched().resolve("lib").resolve("rocketmq-broker-" + BuiltDistributions.upstreamVersion() + ".jar");
        for (String name : List.of(ABSTRACT_PROCESSOR, REPLY_PROCESSOR, DECODER)) {
            Class<?> type = loader.load(name);
            assertThat(type.getClassLoader()).as(name).isSameAs(loader);
            assertThat(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())).as(name)
                .isEqualTo(jar.toAbsolutePath());
        }
        assertThat(loader.load(DECODER)).as("the decoder patch 0002 added, not hotpath-codec's")
            .isNotSameAs(io.hotpath.codec.header.SendHeaderDecoder.class);
    }

    @Test
    void patchedProcessorsReferenceSendHeaderDecoderAndStockOnesDoNot() throws IOException {
        String internalName = DECODER.replace('.', '/');
        for (String name : List.of(ABSTRACT_PROCESSOR, REPLY_PROCESSOR)) {
            assertThat(classBytes(PatchedBrokerLoader.get(), name).contains(internalName))
                .as("patched %s references %s", name, internalName).isTrue();
            assertThat(classBytes(getClass().getClassLoader(), name).contains(internalName))
                .as("stock %s references %s", name, internalName).isFalse();
        }
    }

    @Test
    void patchedProcessorsReadExtFieldsThroughTheirSendHeaderDecoder() throws Exception {
        PatchedBrokerLoader loader = PatchedBrokerLoader.get();
        for (Object[] processorAndCode : new Object[][] {{SEND_PROCESSOR, SEND_MESSAGE_V2}, {REPLY_PROCESSOR, SEND_REPLY_MESSAGE_V2}}) {
            List<StackTraceElement> stack = stackWhenReadingExtFields(loader, (String) processorAndCode[0], (int) processorAndCode[1]);
            assertThat(stack).as("%s: frames of the patched %s", processorAndCode[0], DECODER)
                .anyMatch(f -> f.getClassName().equals(DECODER) && PatchedBrokerLoader.NAME.equals(f.getClassLoaderName()));
            assertThat(stack).as("%s: no reflective decode", processorAndCode[0])
                .noneMatch(f -> f.getMethodName().equals("decodeCommandCustomHeader"));
        }
    }

    @Test
    void stockProcessorReadsExtFieldsByReflection() throws Exception {
        List<StackTraceElement> stack = stackWhenReadingExtFields(getClass().getClassLoader(), SEND_PROCESSOR, SEND_MESSAGE_V2);
        assertThat(stack).anyMatch(f -> f.getMethodName().equals("decodeCommandCustomHeader"));
        assertThat(stack).noneMatch(f -> f.getClassName().equals(DECODER));
    }

    /**
     * Calls the processor's protected parseRequestHeader (on an instance allocated without its
     * constructor, which needs a live BrokerController the method never touches) with extFields that
     * record the call stack of their first get().
     */
    private static List<StackTraceElement> stackWhenReadingExtFields(ClassLoader loader, String processorName, int code)
        throws Exception {
        List<StackTraceElement> stack = new ArrayList<>();
        HashMap<String, String> extFields = new HashMap<>() {
            @Override
            public String get(Object key) {
                if (stack.isEmpty()) {
                    stack.addAll(Arrays.asList(new Throwable().getStackTrace()));
                }
                return super.get(key);
            }
        };
        // every required field, as a 4.9.0 producer sends them: nothing to log
        String[][] fields = {{"a", "group"}, {"b", "topic"}, {"c", "TBW102"}, {"d", "4"}, {"e", "0"}, {"f", "0"},
            {"g", "1700000000000"}, {"h", "0"}, {"j", "0"}, {"k", "false"}, {"m", "false"}};
        for (String[] field : fields) {
            extFields.put(field[0], field[1]);
        }
        Class<?> commandClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, loader);
        Class<?> customHeader = Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, loader);
        Object request = commandClass.getMethod("createRequestCommand", int.class, customHeader).invoke(null, code, null);
        commandClass.getMethod("setExtFields", HashMap.class).invoke(request, extFields);

        Object processor = Reflection.allocate(Class.forName(processorName, true, loader));
        Method parse = Class.forName(ABSTRACT_PROCESSOR, true, loader).getDeclaredMethod("parseRequestHeader", commandClass);
        parse.setAccessible(true);
        try {
            assertThat(parse.invoke(processor, request)).as("%s decoded code %d", processorName, code).isNotNull();
        } catch (InvocationTargetException e) {
            throw new AssertionError(processorName + " threw", e.getCause());
        }
        assertThat(stack).as("%s read the request's extFields", processorName).isNotEmpty();
        return stack;
    }

    private static String classBytes(ClassLoader loader, String className) throws IOException {
        try (InputStream in = loader.getResourceAsStream(className.replace('.', '/') + ".class")) {
            assertThat(in).as(className).isNotNull();
            // constant pool names are modified UTF-8; ASCII class names read fine as ISO-8859-1
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
