package io.hotpath.codec.header;

import io.hotpath.testkit.OwnPackagesLoader;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Stock rocketmq-broker 4.9.0's send processors from Maven Central's jar, whichever broker the test class path holds (in
 * broker-dist it is the PATCHED one): {@code org.apache.rocketmq.broker.*} from that jar only, everything else from the
 * suites' own loader, so the headers it returns are the same classes the candidates return. Sharing common and remoting
 * is sound because no 4.9.0 patch touches the header classes or the decoding in {@code RemotingCommand}.
 */
final class StockBroker490 {
    /** Where the module's build put Central's rocketmq-broker 4.9.0 jar (generate-test-resources). */
    static final String JAR_PROPERTY = "hotpath.stockBroker490";
    static final SendProcessors PROCESSORS = SendProcessors.from(loader(), "not in " + jar());

    private StockBroker490() {
    }

    private static Path jar() {
        return Paths.get(System.getProperty(JAR_PROPERTY, "target/stock-rocketmq-broker-4.9.0.jar"));
    }

    private static ClassLoader loader() {
        Path jar = jar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the module's build copies rocketmq-broker 4.9.0 from Maven Central"
                + " (generate-test-resources)");
        }
        try {
            return new OwnPackagesLoader(List.of(jar.toUri().toURL()), StockBroker490.class.getClassLoader(),
                List.of("org.apache.rocketmq.broker."));
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
