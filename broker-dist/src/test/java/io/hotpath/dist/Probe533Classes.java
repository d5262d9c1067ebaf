package io.hotpath.dist;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The 5.3.3 store probes, {@code broker-dist/src/test/probe-5.3.3}, compiled once per test JVM against the STOCK 5.3.3
 * distribution's lib/ into {@code target/probe-5.3.3-classes}.
 *
 * <p>Why not with the other tests: broker-dist's test classpath holds 4.9.0's rocketmq-broker and rocketmq-store (the
 * 4.9.x probes compile against them), and 5.3.3 moved or changed the classes the probes name
 * ({@code MessageExtBrokerInner} is in rocketmq-common, the store's constructor, config and queue API, the put hooks,
 * the broker sites); Central's Maven repository is not where the distribution's jars come from either (they are
 * upstream's build of the source release). So the probes are compiled against exactly the classes they will run with:
 * the stock lib/ (the patched lib/ has the same API: patch 0003 keeps every signature), plus the test classes for the
 * shared result types of {@code io.hotpath.dist.store.shared}. {@code rmq.logback-test.xml} goes along: 5.3.3's
 * logging finds it first on the probe loader, so nothing is logged to files under {@code ~/logs}.
 */
final class Probe533Classes {

    /** The probes' package: {@code PatchedBrokerLoader} loads it child-first from {@link #dir()}. */
    static final String PACKAGE = "io.hotpath.dist.store.probe533.";
    static final String LOGBACK = "rmq.logback-test.xml";

    private static URL compiled;

    private Probe533Classes() {
    }

    static synchronized URL dir() {
        if (compiled == null) {
            try {
                compiled = compile(BuiltDistributions.stock().resolve("lib")).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        return compiled;
    }

    private static Path compile(Path lib) {
        Path sources = BuiltDistributions.projectRoot().resolve("broker-dist/src/test/probe-5.3.3");
        Path out = BuiltDistributions.target().resolve("probe-5.3.3-classes");
        try {
            deleteTree(out);
            Files.createDirectories(out);
            List<String> files;
            List<String> classpath = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(sources); Stream<Path> jars = Files.list(lib)) {
                files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted().toList();
                jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> classpath.add(p.toString()));
            }
            classpath.add(Path.of(PatchedBrokerLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            StringWriter diagnostics = new StringWriter();
            try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, null)) {
                boolean ok = javac.getTask(diagnostics, fileManager, null,
                    List.of("-d", out.toString(), "-cp", String.join(java.io.File.pathSeparator, classpath), "--release", "17",
                        "-proc:none", "-encoding", "UTF-8", "-nowarn"),
                    null, fileManager.getJavaFileObjectsFromStrings(files)).call();
                if (!ok) {
                    throw new IllegalStateException("the 5.3.3 store probes do not compile against " + lib + ":\n" + diagnostics);
                }
            }
            Files.copy(sources.resolve(LOGBACK), out.resolve(LOGBACK), StandardCopyOption.REPLACE_EXISTING);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
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
