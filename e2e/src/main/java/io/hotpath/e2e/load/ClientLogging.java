package io.hotpath.e2e.load;

import java.nio.file.Path;
import org.apache.rocketmq.logging.inner.SysLogger;

/**
 * Where the rocketmq-client inside this JVM (4.9.0; a newer one in a NewerClientCheck child) logs. Call before the first client is created:
 * the client reads {@code rocketmq.client.logRoot} once, when its logger class loads (default
 * {@code ~/logs/rocketmqlogs}, outside the project).
 */
public final class ClientLogging {

    private ClientLogging() {
    }

    public static void logTo(Path directory) {
        System.setProperty("rocketmq.client.logRoot", directory.toAbsolutePath().toString());
        // RocketMQ routes Netty's logging into its own logger, which has no appender for io.netty.*:
        // without this, every run prints "RocketMQLog:WARN No appenders could be found ..." to the terminal.
        try {
            SysLogger.setQuietMode(true);
        } catch (NoClassDefFoundError e) {
            // a 5.x client child JVM (NewerClientCheck): 5.x logs through its own shaded logback and has no inner logger
        }
    }
}
