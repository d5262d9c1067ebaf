package io.hotpath.codec.header;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Stock rocketmq-broker 4.9.0's send processors from Maven Central's jar, whichever broker the test class path holds (in
 * broker-dist it is the PATCHED one): a class loader that takes {@code org.apache.rocketmq.broker.*} from that jar and
 * everything else from the suites' own loader, so the headers it returns are the same classes the candidates return.
 * Sharing common and remoting is sound because no 4.9.0 patch touches the header classes or the decoding in
 * {@code RemotingCommand}.
 */
final class StockBroker490 {
    /** Where the module's build put Central's rocketmq-broker 4.9.0 jar (generate-test-resources). */
    static final String JAR_PROPERTY = "hotpath.stockBroker490";
    private static final String BROKER_PACKAGE = "org.apache.rocketmq.broker.";
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

    private StockBroker490() {
    }

    static SendMessageRequestHeader parse(Object processor, RemotingCommand request) throws RemotingCommandException {
        return ProcessorReflection.parse(PARSE_REQUEST_HEADER, processor, request);
    }

    /** The jar the processors come from, for test names. */
    static String jarName() {
        return jar().getFileName().toString();
    }

    private static Path jar() {
        return Paths.get(System.getProperty(JAR_PROPERTY, "target/stock-rocketmq-broker-4.9.0.jar"));
    }

    private static ClassLoader loader() {
        Path jar = jar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the module's build copies rocketmq-broker 4.9.0 from Maven Central"
                + " (generate-test-resources; -D" + JAR_PROPERTY + " names another)");
        }
        URL url;
        try {
            url = jar.toUri().toURL();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new URLClassLoader(new URL[] {url}, StockBroker490.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.startsWith(BROKER_PACKAGE)) {
                    return super.loadClass(name, resolve);
                }
                // the broker's classes from the stock jar only, never from the parent (which may hold a patched broker)
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

    private static Class<?> load(String name) {
        try {
            Class<?> type = Class.forName(name, true, LOADER);
            if (type.getClassLoader() != LOADER) {
                throw new IllegalStateException(name + " came from " + type.getClassLoader() + ", not from " + jar());
            }
            return type;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " is not in " + jar(), e);
        }
    }

    private static Object allocate(String name) {
        return ProcessorReflection.allocate(load(name));
    }
}
