package io.hotpath.dist;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

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
        Path root = BuiltDistributions.target().resolve("upstream-498-broker");
        Path sources = root.resolve("src");
        Path out = root.resolve("classes");
        try {
            deleteTree(root);
            List<String> sourcepath = unpack(zip, sources);
            Files.createDirectories(out);
            List<String> files = new ArrayList<>();
            for (String type : ROOTS) {
                files.add(sources.resolve("broker/src/main/java/" + type + ".java").toString());
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            StringWriter diagnostics = new StringWriter();
            try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, null)) {
                boolean ok = javac.getTask(diagnostics, fileManager, null,
                    List.of("-d", out.toString(), "-cp", String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()),
                        "-sourcepath", String.join(java.io.File.pathSeparator, sourcepath), "-source", "1.8", "-target", "1.8",
                        "-proc:none", "-encoding", "UTF-8", "-nowarn", "-Xlint:-options"),
                    null, fileManager.getJavaFileObjectsFromStrings(files)).call();
                if (!ok) {
                    throw new IllegalStateException("rocketmq-broker 4.9.8 does not compile from " + zip + ":\n" + diagnostics);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each module's {@code src/main/java}, as it is in the zip; returns the source roots. */
    private static List<String> unpack(Path zip, Path into) throws IOException {
        List<String> roots = new ArrayList<>();
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            for (String module : MODULES) {
                String prefix = TOP + module + "/src/main/java/";
                roots.add(into.resolve(module + "/src/main/java").toString());
                for (ZipEntry entry : archive.stream().filter(e -> e.getName().startsWith(prefix) && !e.isDirectory()).toList()) {
                    Path file = into.resolve(entry.getName().substring(TOP.length()));
                    Files.createDirectories(file.getParent());
                    try (InputStream in = archive.getInputStream(entry)) {
                        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        return roots;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
