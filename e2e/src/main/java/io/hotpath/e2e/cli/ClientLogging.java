package io.hotpath.e2e.cli;

import java.nio.file.Path;
import org.apache.rocketmq.logging.inner.SysLogger;

/**
 * Where the rocketmq-client 4.9.0 inside this JVM logs. Call before the first client is created:
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
        SysLogger.setQuietMode(true);
    }
}
