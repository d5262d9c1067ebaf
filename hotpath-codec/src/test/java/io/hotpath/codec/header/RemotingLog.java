package io.hotpath.codec.header;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.logging.inner.Appender;
import org.apache.rocketmq.logging.inner.Logger;
import org.apache.rocketmq.logging.inner.LoggingEvent;
import org.apache.rocketmq.remoting.common.RemotingHelper;

/**
 * Records what is logged on RocketMQ's {@code RocketmqRemoting} logger, where 4.9.0 reflection
 * logs a field it cannot decode. The test classpath has no slf4j, so RocketMQ logs through its
 * inner logger (which writes {@code error(format, arg, throwable)} as WARN; slf4j would keep
 * ERROR: both sides call the same InternalLogger method, so they match under either).
 */
final class RemotingLog {

    private static final List<String> EVENTS = new ArrayList<>();
    private static final Field THROWABLE;

    static {
        InternalLoggerFactory.setCurrentLoggerType(InternalLoggerFactory.LOGGER_INNER);
        try {
            THROWABLE = LoggingEvent.class.getDeclaredField("throwable");
            THROWABLE.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
        Logger.getLogger(RemotingHelper.ROCKETMQ_REMOTING).addAppender(new Appender() {
            @Override
            protected void append(LoggingEvent event) {
                synchronized (EVENTS) {
                    EVENTS.add(describe(event));
                }
            }

            @Override
            public void close() {
            }
        });
    }

    private RemotingLog() {
    }

    /** The events logged while {@code call} ran, each as "logger LEVEL message | cause", unescaped. */
    static List<String> during(Runnable call) {
        synchronized (EVENTS) {
            EVENTS.clear();
        }
        call.run();
        synchronized (EVENTS) {
            List<String> logged = new ArrayList<>(EVENTS);
            EVENTS.clear();
            return logged;
        }
    }

    private static String describe(LoggingEvent event) {
        Throwable cause;
        try {
            cause = (Throwable) THROWABLE.get(event);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        return event.getLoggerName() + " " + event.getLevel() + " " + event.getRenderedMessage()
            + (cause == null ? "" : " | " + cause.getClass().getName() + ": " + cause.getMessage());
    }

    /** The line reflection logs for a field it could not decode, as {@link #during} reports it. */
    static String fieldFailure(String field, Class<? extends Throwable> cause, String message) {
        return RemotingHelper.ROCKETMQ_REMOTING + " WARN Failed field [" + field + "] decoding | " + cause.getName() + ": " + message;
    }
}
