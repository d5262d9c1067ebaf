package io.hotpath.codec.header;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;

/**
 * The send-header parsers the 5.3.x suites compare: upstream and a candidate ({@link #candidate()}): ours
 * ({@link SendHeaderDecoder533}), or the broker processors of the class loader the suites run in ({@link #BROKER}: a
 * patched broker, whose processors call the copy of {@link SendHeaderDecoder533} a patch put into it).
 *
 * <p>Upstream is the stock broker's own {@code SendMessageProcessor} and {@code ReplyMessageProcessor}: their
 * {@code parseRequestHeader}, called on the unmodified classes of a stock rocketmq-broker jar (the system property
 * {@value #STOCK_BROKER_JAR}: Maven Central's jar of this module's release, or the stock distribution's in broker-dist),
 * loaded by a class loader of their own ({@link StockBrokerLoader}), so that they are never the candidate's processors of
 * the same name.
 */
enum SendHeaderParser533 {
    UPSTREAM {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Processors.stock().parse(Processors.stock().send, request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Processors.stock().parse(Processors.stock().reply, request);
        }
    },
    HOTPATH {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendHeaderDecoder533.parseRequestHeader(request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return SendHeaderDecoder533.parseReplyRequestHeader(request);
        }
    },
    BROKER {
        @Override
        SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Processors.broker().parse(Processors.broker().send, request);
        }

        @Override
        SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException {
            return Processors.broker().parse(Processors.broker().reply, request);
        }
    };

    /** The stock rocketmq-broker jar whose processors are the oracle. */
    static final String STOCK_BROKER_JAR = "hotpath.upstream.broker.jar";

    static final String SEND_PROCESSOR = "org.apache.rocketmq.broker.processor.SendMessageProcessor";
    static final String REPLY_PROCESSOR = "org.apache.rocketmq.broker.processor.ReplyMessageProcessor";

    /**
     * The parser the suites test against upstream: ours by default; {@code -Dhotpath.candidate=broker} the broker
     * processors of this class loader; {@code -Dhotpath.candidate=upstream} upstream itself (proves the suites encode
     * upstream's behaviour).
     */
    static SendHeaderParser533 candidate() {
        String candidate = System.getProperty("hotpath.candidate", "hotpath");
        switch (candidate) {
            case "broker":
                return BROKER;
            case "upstream":
                return UPSTREAM;
            default:
                return HOTPATH;
        }
    }

    abstract SendMessageRequestHeader parseRequestHeader(RemotingCommand request) throws RemotingCommandException;

    abstract SendMessageRequestHeader parseReplyRequestHeader(RemotingCommand request) throws RemotingCommandException;

    /** A request as the broker's Netty decoder hands it over: the code and the extFields map, nothing else. */
    static RemotingCommand request(int code, HashMap<String, String> extFields) {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        request.setExtFields(extFields);
        return request;
    }

    /** What {@code parser} does with the request, and what it logs (the release's own logging). */
    static DecodeOutcome outcome(SendHeaderParser533 parser, boolean reply, int code, HashMap<String, String> extFields) {
        return DecodeOutcome.of(() -> reply
            ? parser.parseReplyRequestHeader(request(code, extFields))
            : parser.parseRequestHeader(request(code, extFields)), RemotingLog533::during);
    }

    /**
     * A broker's send and reply processors, as loaded by one class loader, and their protected {@code parseRequestHeader}
     * (ReplyMessageProcessor overrides it). The processors are allocated without their constructors (which need a live
     * BrokerController); {@code parseRequestHeader} reads no field. The method is looked up as a handle, not through
     * {@code getDeclaredMethod}, which would load the types of every method the processor declares (store, metrics), and
     * this module's class path holds only what header decoding needs.
     */
    static final class Processors {
        private static final class Stock {
            static final Processors INSTANCE = new Processors(StockBrokerLoader.get());
        }

        private static final class Broker {
            static final Processors INSTANCE = new Processors(SendHeaderParser533.class.getClassLoader());
        }

        final Object send;
        final Object reply;
        private final MethodHandle parseRequestHeader;

        private Processors(ClassLoader loader) {
            Class<?> sendClass = load(SEND_PROCESSOR, loader);
            this.send = allocate(sendClass);
            this.reply = allocate(load(REPLY_PROCESSOR, loader));
            try {
                Class<?> abstractProcessor = sendClass.getSuperclass();
                this.parseRequestHeader = MethodHandles.privateLookupIn(abstractProcessor, MethodHandles.lookup()).findVirtual(
                    abstractProcessor, "parseRequestHeader", MethodType.methodType(SendMessageRequestHeader.class, RemotingCommand.class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The stock broker's, from {@link #STOCK_BROKER_JAR}. */
        static Processors stock() {
            return Stock.INSTANCE;
        }

        /** The broker on this class path: only where one is (broker-dist's patched-broker loader). */
        static Processors broker() {
            return Broker.INSTANCE;
        }

        /** The class loader the processors come from. */
        ClassLoader loader() {
            return send.getClass().getClassLoader();
        }

        SendMessageRequestHeader parse(Object processor, RemotingCommand request) throws RemotingCommandException {
            try {
                return (SendMessageRequestHeader) parseRequestHeader.invoke(processor, request);
            } catch (RemotingCommandException | RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        private static Class<?> load(String name, ClassLoader loader) {
            try {
                return Class.forName(name, true, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(name + " is not loadable by " + loader
                    + ": -Dhotpath.candidate=broker needs a broker on the class path", e);
            }
        }

        private static Object allocate(Class<?> type) {
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                return unsafeClass.getMethod("allocateInstance", Class.class).invoke(theUnsafe.get(null), type);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * The stock rocketmq-broker jar's classes ({@code org.apache.rocketmq.broker.*}) over the class loader of these
     * suites, child-first: a broker class comes from the stock jar or not at all, never from the parent (which, in
     * broker-dist, holds the patched broker of the same names). Everything else (remoting, common, logging) is the
     * parent's: the request, the header and the log recorder are the suites' own classes.
     */
    static final class StockBrokerLoader extends URLClassLoader {
        private static final String BROKER_PACKAGE = "org.apache.rocketmq.broker.";

        final Path jar;

        private StockBrokerLoader(Path jar) throws MalformedURLException {
            super("stock-broker", new URL[] {jar.toUri().toURL()}, SendHeaderParser533.class.getClassLoader());
            this.jar = jar;
        }

        static StockBrokerLoader get() {
            String jar = System.getProperty(STOCK_BROKER_JAR);
            if (jar == null || !Files.isRegularFile(Path.of(jar))) {
                throw new IllegalStateException("-D" + STOCK_BROKER_JAR + " must name the stock rocketmq-broker jar, the oracle: " + jar);
            }
            try {
                return new StockBrokerLoader(Path.of(jar));
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(BROKER_PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
