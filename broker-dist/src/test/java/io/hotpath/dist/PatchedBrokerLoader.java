package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The patched distribution's lib/ plus the suites' test-jars (hotpath-codec's, hotpath-line-4.9.8's, hotpath-line-5.3.3's) in one class loader, so that
 * hotpath-codec's send-header suites (which link to the broker processors statically) run
 * against the PATCHED broker classes, exactly as the patched broker runs them.
 *
 * <p>Child-first: every {@code org.apache.rocketmq} and {@code io.hotpath.codec} class, and
 * every class found in lib/ or the test-jar, comes from this loader; a rocketmq or
 * io.hotpath.codec class it cannot find is an error, never a silent fallback to the stock jars
 * on the test classpath (which hold the classes of the same name). Only the test framework
 * (JUnit, jqwik, AssertJ and what they need) is shared with the test classpath, so that the
 * engines running here recognise the suites' annotations. hotpath-codec's MAIN jar is not on
 * this loader: {@code io.hotpath.codec.header.SendHeaderDecoder} is the copy patch 0002 put
 * into the patched rocketmq-broker jar.
 */
final class PatchedBrokerLoader extends URLClassLoader {

    static final String NAME = "patched-broker-lib+codec-tests";
    /** A class of hotpath-line-4.9.8's test-jar, which this loader also holds. */
    static final String LINE_498_SUITE = "io/hotpath/codec/header/SendHeaderParser498.class";
    /** A class of hotpath-line-5.3.3's test-jar, which this loader also holds. */
    static final String LINE_533_SUITE = "io/hotpath/codec/header/SendHeaderParser533.class";
    private static final String[] SHARED = {"org.junit.", "net.jqwik.", "org.assertj.", "org.opentest4j.", "org.apiguardian.",
        "net.bytebuddy."};
    private static final String[] OWN_ONLY = {"org.apache.rocketmq.", "io.hotpath.codec."};

    /**
     * The 4.9.x store probes' package, loaded child-first from broker-dist's test classes so that it links to the patched
     * classes. Every other {@code io.hotpath.dist} class, {@code io.hotpath.dist.store.shared} (what the probes return)
     * among them, stays the test classpath's. Named, not referenced: a 5.x line's build leaves the 4.9.x probes out of
     * its test sources (broker-dist/pom.xml, profile line-5.x).
     */
    static final String STORE_PROBES = "io.hotpath.dist.store.probe.";

    /**
     * The 5.3.3 store probes' package ({@code src/test/probe-5.3.3}), compiled against the stock 5.3.3 lib/ at test time
     * ({@link Probe533Classes}) and loaded child-first from that output, so that it links to the distribution's classes.
     */
    static final String STORE_PROBES_533 = Probe533Classes.PACKAGE;

    private static final class Holder {
        static final PatchedBrokerLoader INSTANCE = new PatchedBrokerLoader(BuiltDistributions.patched().resolve("lib"), codecTestJar(), null,
            null);
    }

    private static final class Stock {
        static final PatchedBrokerLoader INSTANCE = new PatchedBrokerLoader(BuiltDistributions.stock().resolve("lib"), codecTestJar(), null,
            null);
    }

    private static final class WithProbes {
        static final PatchedBrokerLoader INSTANCE = new PatchedBrokerLoader(BuiltDistributions.patched().resolve("lib"), codecTestJar(),
            STORE_PROBES, testClasses());
    }

    private static final class StockWithProbes {
        static final PatchedBrokerLoader INSTANCE = new PatchedBrokerLoader(BuiltDistributions.stock().resolve("lib"), codecTestJar(),
            STORE_PROBES, testClasses());
    }

    private static final class With533Probes {
        static final PatchedBrokerLoader INSTANCE = new PatchedBrokerLoader(BuiltDistributions.patched().resolve("lib"), codecTestJar(),
            STORE_PROBES_533, Probe533Classes.dir());
    }

    private static final class StockWith533Probes {
        static final PatchedBrokerLoader INSTANCE = new PatchedBrokerLoader(BuiltDistributions.stock().resolve("lib"), codecTestJar(),
            STORE_PROBES_533, Probe533Classes.dir());
    }

    final Path lib;
    final Path testJar;
    private final String probePackage;

    private PatchedBrokerLoader(Path lib, Path testJar, String probePackage, URL probeClasses) {
        super(NAME, urls(lib, testJar, probeClasses), PatchedBrokerLoader.class.getClassLoader());
        this.lib = lib;
        this.testJar = testJar;
        this.probePackage = probePackage;
        // lib/ holds slf4j + logback, so RocketMQ would log through them; the suites record what is
        // logged on RocketmqRemoting through RocketMQ's inner logger (as on hotpath-codec's test
        // classpath, which has no slf4j). Both the candidate and the oracle call the same InternalLogger
        // methods; this only picks the backend, before any logger of this loader exists. 5.x has no inner
        // logger (it logs through its shaded logback; the 5.3.3 probes bring their own configuration).
        if (findResource(INNER_LOGGER_FACTORY.replace('.', '/') + ".class") != null) {
            selectInnerLogger(load(INNER_LOGGER_FACTORY), "the patched lib/");
        }
    }

    private static final String INNER_LOGGER_FACTORY = "org.apache.rocketmq.logging.InternalLoggerFactory";

    /** Makes RocketMQ log through its own inner logger, given a loader's {@code InternalLoggerFactory}. */
    static void selectInnerLogger(Class<?> internalLoggerFactory, String classpath) {
        try {
            internalLoggerFactory.getMethod("setCurrentLoggerType", String.class).invoke(null, "inner");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot select RocketMQ's inner logger in " + classpath, e);
        }
    }

    /** Child-first for resources too: the class bytes the provenance tests read are the patched ones. */
    @Override
    public URL getResource(String name) {
        URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    static PatchedBrokerLoader get() {
        return Holder.INSTANCE;
    }

    /** The same kind of loader over the STOCK distribution's lib/: upstream's own classes, the oracle of a patched one. */
    static PatchedBrokerLoader stock() {
        return Stock.INSTANCE;
    }

    /**
     * Another loader of the same kind that also loads the store probes ({@link #STORE_PROBES}), compiled against the
     * stock API, from broker-dist's test classes, so that they link to the patched classes.
     */
    static PatchedBrokerLoader withProbe() {
        return WithProbes.INSTANCE;
    }

    /**
     * The same kind of loader over the STOCK distribution's lib/ (upstream's source release built by upstream's build),
     * with the store probes: the control a patched store is told apart from.
     */
    static PatchedBrokerLoader stockWithProbe() {
        return StockWithProbes.INSTANCE;
    }

    /** A loader over the patched lib/ with the 5.3.3 store probes ({@link #STORE_PROBES_533}). */
    static PatchedBrokerLoader with533Probe() {
        return With533Probes.INSTANCE;
    }

    /** The same over the STOCK distribution's lib/. */
    static PatchedBrokerLoader stockWith533Probe() {
        return StockWith533Probes.INSTANCE;
    }

    /**
     * The class, initialized with this loader as the thread's context loader: RocketMQ 5.x's shaded slf4j finds its
     * logging provider through the context loader, and the test classpath's provider is not a subtype of this loader's.
     */
    Class<?> load(String name) {
        try {
            return callInside(() -> Class.forName(name, true, this));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " is neither in " + lib + " nor in " + testJar, e);
        }
    }

    /** What {@link #callInside} runs; it may throw what its body throws. */
    @FunctionalInterface
    interface Inside<T, E extends Exception> {
        T call() throws E;
    }

    /**
     * Runs {@code call} with this loader as the thread's context loader (see {@link #load}); threads it starts inherit
     * that loader (a store's services).
     */
    <T, E extends Exception> T callInside(Inside<T, E> call) throws E {
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(this);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        for (String prefix : SHARED) {
            if (name.startsWith(prefix)) {
                return super.loadClass(name, resolve);
            }
        }
        if (name.startsWith("io.hotpath.dist.") && (probePackage == null || !name.startsWith(probePackage))) {
            // the test's own classes stay the test classpath's, the probes' shared results with them
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException e) {
                    for (String prefix : OWN_ONLY) {
                        if (name.startsWith(prefix)) {
                            throw e;
                        }
                    }
                    return super.loadClass(name, resolve); // JDK, or a test-framework dependency
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /** hotpath-codec's test-jar, as Maven put it on the test classpath. */
    private static Path codecTestJar() {
        return testJarOf("io/hotpath/codec/header/SendHeaderDecoder490Contract.class");
    }

    /** The jar on the test classpath that holds {@code resource} (a test-jar, as Maven put it there). */
    private static Path testJarOf(String resource) {
        URL url = PatchedBrokerLoader.class.getClassLoader().getResource(resource);
        if (url == null || !url.getProtocol().equals("jar")) {
            throw new IllegalStateException(resource + " is not on the test classpath in a jar: " + url);
        }
        String jar = url.getPath().substring(0, url.getPath().indexOf("!/"));
        try {
            return Path.of(new URL(jar).toURI());
        } catch (MalformedURLException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** broker-dist's test classes directory (the 4.9.x probes' code source). */
    private static URL testClasses() {
        return PatchedBrokerLoader.class.getProtectionDomain().getCodeSource().getLocation();
    }

    private static URL[] urls(Path lib, Path testJar, URL probeClasses) {
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(jar.toUri().toURL());
            }
            urls.add(testJar.toUri().toURL());
            // the 4.9.8 line's send-header suites (same package as hotpath-codec's, other class names)
            urls.add(testJarOf(LINE_498_SUITE).toUri().toURL());
            urls.add(testJarOf(LINE_533_SUITE).toUri().toURL());
            if (probeClasses != null) {
                // the probes' code source: broker-dist's test classes (4.9.x) or the 5.3.3 probes' compiled classes
                urls.add(probeClasses);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return urls.toArray(URL[]::new);
    }
}
