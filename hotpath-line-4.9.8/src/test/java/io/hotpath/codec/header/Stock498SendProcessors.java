package io.hotpath.codec.header;

import io.hotpath.testkit.OwnPackagesLoader;
import io.hotpath.testkit.SourceReleaseClasses;
import io.hotpath.testkit.Upstream498StoreClasspath;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream 4.9.8's own {@code SendMessageProcessor} and {@code ReplyMessageProcessor}, whose {@code parseRequestHeader}
 * is the suites' oracle for the entry points. No Maven repository has a rocketmq-broker 4.9.8 jar, so its classes are
 * compiled from Central's rocketmq-all 4.9.8 source release ({@link SourceReleaseClasses}) against rocketmq-store 4.9.8's
 * runtime class path (module upstream/rocketmq-4.9.8-store), both copied to target/ by the build, here and in
 * broker-dist.
 *
 * <p>The loader ({@link OwnPackagesLoader}) takes {@code org.apache.rocketmq.broker.*} and {@code org.apache.rocketmq.filter.*}
 * from those classes only, never from its parent (in broker-dist the parent holds the PATCHED 4.9.8 broker), and everything else from the
 * suites' own loader first, so the headers it returns are the classes the candidates return (0002 changes no header
 * class and no decoding in {@code RemotingCommand}).
 */
final class Stock498SendProcessors {
    static final SendProcessors PROCESSORS = SendProcessors.from(loader(), "not compiled from 4.9.8's source release");

    private Stock498SendProcessors() {
    }

    private static ClassLoader loader() {
        List<Path> classpath = Upstream498StoreClasspath.jars();
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
        return new OwnPackagesLoader(urls, Stock498SendProcessors.class.getClassLoader(),
            List.of("org.apache.rocketmq.broker.", "org.apache.rocketmq.filter."));
    }
}
