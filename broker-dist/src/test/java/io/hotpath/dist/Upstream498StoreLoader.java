package io.hotpath.dist;

import io.hotpath.testkit.Upstream498StoreClasspath;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.hotpath.dist.store.shared.Release;

/**
 * Upstream rocketmq-store 4.9.8 with its own runtime dependencies (rocketmq-common/remoting/logging 4.9.8,
 * dledger, netty-all, fastjson, jna, ... exactly as Maven resolved them for {@code upstream-rocketmq-498-store};
 * the list is {@code target/upstream-498-store.classpath}, which also holds rocketmq-broker 4.9.8's other Central
 * dependencies), upstream's rocketmq-broker 4.9.8 classes compiled from Central's source release
 * ({@link Upstream498BrokerClasses}), plus the store probes from broker-dist's test classes, in a class loader of its own.
 *
 * <p>Child-first, and its parent is the platform class loader: no class of the test classpath (where the stock
 * 4.9.0 jars live) is visible, so an {@code org.apache.rocketmq} class missing from the 4.9.8 jars is a
 * {@code ClassNotFoundException}, never a silent fallback to 4.9.0. The one exception is
 * {@code io.hotpath.dist.store.shared} (JDK types only): taken from the test class loader, so that what a probe
 * returns is of the classes the test casts to. The probe must therefore use only the JDK, that package and what
 * these jars hold.
 */
final class Upstream498StoreLoader extends URLClassLoader {

    static final String NAME = "upstream-4.9.8-store";
    private static final String[] JDK = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml."};
    /** The interfaces the probes implement and the records they return. */
    private static final String SHARED = Release.class.getPackageName() + ".";

    final List<Path> jars;

    private Upstream498StoreLoader(List<Path> jars) {
        super(NAME, urls(jars, Upstream498BrokerClasses.dir(jars)), ClassLoader.getPlatformClassLoader());
        this.jars = jars;
        // no slf4j on this classpath: RocketMQ's own inner logger, as in PatchedBrokerLoader, chosen before any logger exists
        PatchedBrokerLoader.selectInnerLogger(load("org.apache.rocketmq.logging.InternalLoggerFactory"),
            "the 4.9.8 store classpath");
    }

    /** A new loader (and so new static state: thread locals, singletons) over the 4.9.8 jars and the probes. */
    static Upstream498StoreLoader create() {
        return new Upstream498StoreLoader(Upstream498StoreClasspath.jars());
    }

    Class<?> load(String name) {
        try {
            return Class.forName(name, true, this);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " is not in the 4.9.8 store classpath " + jars, e);
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        for (String prefix : JDK) {
            if (name.startsWith(prefix)) {
                return super.loadClass(name, resolve);
            }
        }
        if (name.startsWith(SHARED)) {
            return Upstream498StoreLoader.class.getClassLoader().loadClass(name);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = findClass(name); // child only: the parent is the platform loader anyway
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    public URL getResource(String name) {
        URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    private static URL[] urls(List<Path> jars, Path brokerClasses) {
        List<URL> urls = new ArrayList<>();
        try {
            for (Path jar : jars) {
                urls.add(jar.toUri().toURL());
            }
            urls.add(brokerClasses.toUri().toURL());
            // broker-dist's test classes directory, for the probes (compiled against 4.9.0, linked here to 4.9.8)
            urls.add(Upstream498StoreLoader.class.getProtectionDomain().getCodeSource().getLocation());
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
        return urls.toArray(URL[]::new);
    }
}
