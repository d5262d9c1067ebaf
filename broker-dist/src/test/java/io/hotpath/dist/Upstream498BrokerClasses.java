package io.hotpath.dist;

import io.hotpath.testkit.SourceReleaseClasses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Upstream's own rocketmq-broker 4.9.8 classes for {@link Upstream498StoreLoader}, compiled once per test JVM from
 * Central's {@code rocketmq-all-4.9.8-source-release.zip} into {@code target/upstream-498-broker/classes}.
 *
 * <p>Why compiled here: rocketmq-broker and rocketmq-filter 4.9.8 are on no Maven repository (Central has 4.9.8's
 * store, common, remoting, client, srvutil, acl and the source release), and the 4.9.0 line's build builds no 4.9.8
 * tree. So the broker's and filter's {@code src/main/java} are unpacked verbatim and javac compiles, through
 * {@code -sourcepath}, only {@link #ROOTS} (the sites {@code LoadedBrokerSites} calls) and what they reference, against
 * rocketmq-store 4.9.8's classpath plus the broker's other Central dependencies ({@code upstream/rocketmq-4.9.8-store}),
 * with {@code -source/-target 1.8} on this JDK as upstream's build does. Nothing of ours is in these classes.
 */
final class Upstream498BrokerClasses {

    /** The classes the probes call (each file's top-level class); javac follows their references. */
    static final List<String> ROOTS = List.of(
        "org/apache/rocketmq/broker/BrokerController",
        "org/apache/rocketmq/broker/processor/SendMessageProcessor",
        "org/apache/rocketmq/broker/processor/EndTransactionProcessor",
        "org/apache/rocketmq/broker/processor/AdminBrokerProcessor",
        "org/apache/rocketmq/broker/processor/PullMessageProcessor",
        "org/apache/rocketmq/broker/subscription/SubscriptionGroupManager",
        "org/apache/rocketmq/broker/topic/TopicConfigManager",
        "org/apache/rocketmq/broker/transaction/queue/TransactionalMessageBridge",
        "org/apache/rocketmq/broker/transaction/queue/DefaultTransactionalMessageCheckListener");
    /** The source release's modules unpacked for {@code -sourcepath}. */
    private static final List<String> MODULES = List.of("broker", "filter");
    private static final String TOP = "rocketmq-all-4.9.8/";

    private static Path compiled;

    private Upstream498BrokerClasses() {
    }

    /** The classes directory, compiled on first use against {@code classpath} (Central's 4.9.8 jars). */
    static synchronized Path dir(List<Path> classpath) {
        if (compiled == null) {
            compiled = compile(sourceRelease(), classpath);
        }
        return compiled;
    }

    static Path sourceRelease() {
        Path zip = Path.of(System.getProperty("hotpath.upstream498.sourceRelease", "target/rocketmq-all-498-source-release.zip"));
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException(zip + " is missing: broker-dist's build copies rocketmq-all 4.9.8's source release"
                + " from Maven Central (generate-test-resources)");
        }
        return zip;
    }

    private static Path compile(Path zip, List<Path> classpath) {
        return SourceReleaseClasses.compile(zip, TOP, MODULES, ROOTS, classpath, BuiltDistributions.target().resolve("upstream-498-broker"));
    }
}
