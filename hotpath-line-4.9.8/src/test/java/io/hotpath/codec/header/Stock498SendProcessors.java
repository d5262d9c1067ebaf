package io.hotpath.codec.header;

import io.hotpath.testkit.SourceReleaseClasses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Upstream 4.9.8's own {@code SendMessageProcessor} and {@code ReplyMessageProcessor}, whose {@code parseRequestHeader}
 * is the suites' oracle for the entry points. No Maven repository has a rocketmq-broker 4.9.8 jar, so its classes are
 * compiled from Central's rocketmq-all 4.9.8 source release ({@link SourceReleaseClasses}) against rocketmq-store 4.9.8's
 * runtime class path (module upstream/rocketmq-4.9.8-store), both copied to target/ by the build, here and in
 * broker-dist.
 *
 * <p>The loader takes {@code org.apache.rocketmq.broker.*} and {@code org.apache.rocketmq.filter.*} from those classes
 * only, never from its parent (in broker-dist the parent holds the PATCHED 4.9.8 broker), and everything else from the
 * suites' own loader first, so the headers it returns are the classes the candidates return (0002 changes no header
 * class and no decoding in {@code RemotingCommand}).
 */
final class Stock498SendProcessors {
    private static final List<String> OWN_PACKAGES = List.of("org.apache.rocketmq.broker.", "org.apache.rocketmq.filter.");
    private static final ClassLoader LOADER = loader();
    static final Object SEND = allocate("org.apache.rocketmq.broker.processor.SendMessageProcessor");
    static final Object REPLY = allocate("org.apache.rocketmq.broker.processor.ReplyMessageProcessor");
    private static final Method PARSE_REQUEST_HEADER;

    static {
        try {
            // declared on AbstractSendMessageProcessor, overridden by ReplyMessageProcessor: invoke() dispatches
            PARSE_REQUEST_HEADER = load("org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor")
                .getDeclaredMethod("parseRequestHeader", RemotingCommand.class);
            PARSE_REQUEST_HEADER.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Stock498SendProcessors() {
    }

    static SendMessageRequestHeader parse(Object processor, RemotingCommand request) throws RemotingCommandException {
        return ProcessorReflection.parse(PARSE_REQUEST_HEADER, processor, request);
    }

    private static ClassLoader loader() {
        List<Path> classpath = storeClasspath();
        Path classes = SourceReleaseClasses.compile(
            Path.of(System.getProperty("hotpath.upstream498.sourceRelease", "target/rocketmq-all-498-source-release.zip")),
            "rocketmq-all-4.9.8/", List.of("broker", "filter"),
            List.of("org/apache/rocketmq/broker/processor/SendMessageProcessor",
                "org/apache/rocketmq/broker/processor/ReplyMessageProcessor"),
            classpath, Path.of("target", "upstream-498-send-processors"));
        List<URL> urls = new ArrayList<>();
        try {
            urls.add(classes.toUri().toURL());
            for (Path jar : classpath) {
                urls.add(jar.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
        return new URLClassLoader(urls.toArray(new URL[0]), Stock498SendProcessors.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (OWN_PACKAGES.stream().noneMatch(name::startsWith)) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> type = findLoadedClass(name);
                    if (type == null) {
                        type = findClass(name);
                    }
                    if (resolve) {
                        resolveClass(type);
                    }
                    return type;
                }
            }
        };
    }

    /** rocketmq-store 4.9.8's runtime class path as maven-dependency-plugin's build-classpath listed it. */
    private static List<Path> storeClasspath() {
        Path file = Path.of(System.getProperty("hotpath.upstream498.store.classpath", "target/upstream-498-store.classpath"));
        String repo = System.getProperty("hotpath.maven.repo", System.getProperty("user.home") + "/.m2/repository");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(file + " is missing: the module's build copies it (generate-test-resources)", e);
        }
        List<Path> jars = new ArrayList<>();
        for (String entry : text.split(java.io.File.pathSeparator)) {
            jars.add(Path.of(entry.replace("${M2_REPO}", repo)));
        }
        return jars;
    }

    private static Class<?> load(String name) {
        try {
            Class<?> type = Class.forName(name, true, LOADER);
            if (type.getClassLoader() != LOADER) {
                throw new IllegalStateException(name + " came from " + type.getClassLoader() + ", not from 4.9.8's source release");
            }
            return type;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " was not compiled from 4.9.8's source release", e);
        }
    }

    private static Object allocate(String name) {
        return ProcessorReflection.allocate(load(name));
    }
}
