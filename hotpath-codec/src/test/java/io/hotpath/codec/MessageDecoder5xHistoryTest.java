package io.hotpath.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which 5.x release changed the properties format, on the real {@code MessageDecoder} of every 5.x rocketmq-common
 * release up to 5.3.3 (Maven Central's jars, copied to target/rocketmq-common-5x by this module's pom), each loaded in
 * a class loader of its own: 5.0.0 is the 4.9.1 format; 5.1.0 parses into {@code new HashMap<>(128)}; 5.2.0 writes
 * the trailing {@code \2} again. So 5.2.0 is the first release that behaves as 5.3.3 does, hence
 * {@link PropertiesCodec520}'s name (docs/upstream-behavior.md, section 1.3).
 */
class MessageDecoder5xHistoryTest {

    static Stream<Arguments> releases() {
        return Stream.of(
            Arguments.of("5.0.0", false, 16),
            Arguments.of("5.1.0", false, 128), Arguments.of("5.1.1", false, 128), Arguments.of("5.1.2", false, 128),
            Arguments.of("5.1.3", false, 128), Arguments.of("5.1.4", false, 128),
            Arguments.of("5.2.0", true, 128), Arguments.of("5.3.0", true, 128), Arguments.of("5.3.1", true, 128),
            Arguments.of("5.3.2", true, 128), Arguments.of("5.3.3", true, 128));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void changesOnlyTheTrailingSeparatorAndTheMapCapacityAcross5x(String release, boolean trailingSeparator, int capacity)
        throws Exception {
        try (URLClassLoader loader = isolated(release)) {
            PropertiesCodecImpl upstream = messageDecoder(loader, release);
            PropertiesCodecImpl sameFormat = trailingSeparator ? PropertiesCodecImpl.hotpath520() : PropertiesCodecImpl.hotpath491();
            Map<String, String> m = new LinkedHashMap<>();
            m.put("KEYS", "k");
            m.put(null, "v");
            m.put("NULLV", null);
            m.put("EV", "");
            assertThat(upstream.encode(m)).isEqualTo(trailingSeparator ? "KEYS\1k\2null\1v\2EV\1\2" : "KEYS\1k\2null\1v\2EV\1");
            Map<String, String> parsed = upstream.parse("a\1b\1c\2\1x\2ab\2c\1d\2e\1f");
            assertThat(parsed).containsOnly(Map.entry("a", "b\1c"), Map.entry("c", "d"), Map.entry("e", "f"));
            assertThat(Outcome.capacity(parsed)).isEqualTo(capacity);
            // apart from those two, the same rules as our codec of that format, on a few awkward inputs
            for (String s : new String[] {"\1b\2", "a\1\1", "ab\2c\1d", "a\1b\2a\1c", "\2\2a\1b\2\2", "ab\1", "k\1v\2x"}) {
                Map<String, String> ours = sameFormat.parse(s);
                assertThat(upstream.parse(s)).as(Escapes.escape(s)).isEqualTo(ours);
            }
        }
    }

    /** Child-first for RocketMQ's classes, so that this release's MessageDecoder is used, not the test class path's 4.9.0. */
    private static URLClassLoader isolated(String release) throws IOException {
        Path jar = Paths.get(System.getProperty("hotpath.rocketmqCommon5x", "target/rocketmq-common-5x"))
            .resolve("rocketmq-common-" + release + ".jar");
        assertThat(jar).as("copied by hotpath-codec's pom (copy-rocketmq-common-5x)").exists();
        ClassLoader parent = MessageDecoder5xHistoryTest.class.getClassLoader();
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, parent) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.startsWith("org.apache.rocketmq.")) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : findClass(name);
                }
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static PropertiesCodecImpl messageDecoder(ClassLoader loader, String release) throws ReflectiveOperationException {
        Class<?> decoder = Class.forName("org.apache.rocketmq.common.message.MessageDecoder", true, loader);
        assertThat(decoder.getClassLoader()).isSameAs(loader);
        Method encode = decoder.getMethod("messageProperties2String", Map.class);
        Method parse = decoder.getMethod("string2messageProperties", String.class);
        return PropertiesCodecImpl.of("upstream " + release + " MessageDecoder",
            m -> (String) invoke(encode, m), s -> (Map<String, String>) invoke(parse, s));
    }

    private static Object invoke(Method method, Object argument) {
        try {
            return method.invoke(null, argument);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
