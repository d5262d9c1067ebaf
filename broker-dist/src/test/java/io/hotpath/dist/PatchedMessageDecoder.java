package io.hotpath.dist;

import io.hotpath.codec.PropertiesCodecImpl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The PATCHED {@code org.apache.rocketmq.common.message.MessageDecoder}, exactly as the patched
 * broker runs it: loaded from the patched distribution's lib/ by its own class loader.
 *
 * <p>Why an isolated loader: the test classpath must hold the line's STOCK rocketmq-common jar, which
 * is the oracle ({@link #stock()} links to it statically), and both classes
 * have the same name. A URLClassLoader over lib/*.jar whose parent is the platform loader (JDK only,
 * not the test classpath) sees nothing of the stock jar, so every rocketmq class, and the
 * io.hotpath.codec classes the patch added, come from the patched distribution. The static methods
 * are called through MethodHandles; Map, String and the exceptions are JDK classes, shared by both
 * sides, so the suites compare outcomes as they do for hotpath-codec.
 */
final class PatchedMessageDecoder {

    static final String CLASS_NAME = "org.apache.rocketmq.common.message.MessageDecoder";

    private static final class Holder {
        static final PatchedMessageDecoder INSTANCE = new PatchedMessageDecoder(BuiltDistributions.patched().resolve("lib"));
    }

    final URLClassLoader loader;
    final Class<?> decoderClass;
    private final MethodHandle encode;
    private final MethodHandle parse;

    private PatchedMessageDecoder(Path lib) {
        loader = new URLClassLoader("patched-broker-lib", jarUrls(lib), ClassLoader.getPlatformClassLoader());
        try {
            decoderClass = Class.forName(CLASS_NAME, true, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            encode = lookup.findStatic(decoderClass, "messageProperties2String", MethodType.methodType(String.class, Map.class));
            parse = lookup.findStatic(decoderClass, "string2messageProperties", MethodType.methodType(Map.class, String.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("patched " + CLASS_NAME + " lacks the upstream entry points", e);
        }
    }

    static PatchedMessageDecoder get() {
        return Holder.INSTANCE;
    }

    /** The patched decoder as a codec implementation the hotpath-codec suites can test. */
    static PropertiesCodecImpl codec() {
        PatchedMessageDecoder patched = get();
        return PropertiesCodecImpl.of("patched " + BuiltDistributions.upstreamVersion() + " MessageDecoder ("
            + BuiltDistributions.patched().getFileName() + "/lib)", patched::messageProperties2String, patched::string2messageProperties);
    }

    /**
     * The line's stock decoder, the oracle: the rocketmq-common jar on the test classpath, which is the line's oracle
     * version from Maven Central (ShippedLinesTest and TestedDecoderProvenanceTest check both).
     */
    static PropertiesCodecImpl stock() {
        return PropertiesCodecImpl.of("stock " + BuiltDistributions.upstreamVersion() + " MessageDecoder (Maven Central)",
            org.apache.rocketmq.common.message.MessageDecoder::messageProperties2String,
            org.apache.rocketmq.common.message.MessageDecoder::string2messageProperties);
    }

    String messageProperties2String(Map<String, String> properties) {
        try {
            return (String) encode.invokeExact(properties);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t); // neither method declares a checked exception
        }
    }

    @SuppressWarnings("unchecked")
    Map<String, String> string2messageProperties(String properties) {
        try {
            return (Map<String, String>) parse.invokeExact(properties);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static URL[] jarUrls(Path lib) {
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().map(p -> {
                try {
                    return p.toUri().toURL();
                } catch (MalformedURLException e) {
                    throw new IllegalStateException(e);
                }
            }).toArray(URL[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
