package io.hotpath.codec.header;

import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.ch.qos.logback.classic.Level;
import org.apache.rocketmq.logging.ch.qos.logback.classic.Logger;
import org.apache.rocketmq.logging.ch.qos.logback.classic.spi.ILoggingEvent;
import org.apache.rocketmq.logging.ch.qos.logback.classic.spi.IThrowableProxy;
import org.apache.rocketmq.logging.ch.qos.logback.core.AppenderBase;
import org.apache.rocketmq.logging.org.slf4j.LoggerFactory;

/**
 * Records what is logged on RocketMQ 5.3.3's {@code RocketmqRemoting} logger (RocketMQ's shaded slf4j + logback), where
 * 5.3.3's {@code FastCodesHeader} logs a missing required key and its reflection a field it cannot decode. The
 * logger is detached from the console (not additive): the suites provoke thousands of expected errors.
 */
final class RemotingLog533 {

    private static final List<String> EVENTS = new ArrayList<>();

    static {
        Logger remoting = (Logger) LoggerFactory.getLogger(LoggerName.ROCKETMQ_REMOTING_NAME);
        AppenderBase<ILoggingEvent> recorder = new AppenderBase<ILoggingEvent>() {
            @Override
            protected void append(ILoggingEvent event) {
                synchronized (EVENTS) {
                    EVENTS.add(describe(event));
                }
            }
        };
        recorder.setContext(remoting.getLoggerContext());
        recorder.start();
        remoting.addAppender(recorder);
        remoting.setAdditive(false);
        remoting.setLevel(Level.ALL);
    }

    private RemotingLog533() {
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

    private static String describe(ILoggingEvent event) {
        IThrowableProxy cause = event.getThrowableProxy();
        return event.getLoggerName() + " " + event.getLevel() + " " + event.getFormattedMessage()
            + (cause == null ? "" : " | " + cause.getClassName() + ": " + cause.getMessage());
    }

    /** The line 5.3.3 reflection logs for a field it could not decode, as {@link #during} reports it. */
    static String fieldFailure(String field, Class<? extends Throwable> cause, String message) {
        return LoggerName.ROCKETMQ_REMOTING_NAME + " ERROR Failed field [" + field + "] decoding | " + cause.getName() + ": " + message;
    }

    /** The line 5.3.3's FastCodesHeader logs for a missing required V2 key. */
    static String missingV2Key(String key) {
        return LoggerName.ROCKETMQ_REMOTING_NAME + " ERROR the custom field SendMessageRequestHeaderV2." + key + " is null";
    }
}
