package io.hotpath.codec.header;

import java.lang.reflect.Method;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * A 4.9.x broker's {@code SendMessageProcessor} and {@code ReplyMessageProcessor} from one class loader, called as the
 * broker calls their protected {@code parseRequestHeader} (declared on {@code AbstractSendMessageProcessor}, overridden by
 * {@code ReplyMessageProcessor}). Loaded by name: where the loader has no broker, the message says which one was expected.
 */
final class SendProcessors {
    private static final String PROCESSORS = "org.apache.rocketmq.broker.processor.";

    private final Object send;
    private final Object reply;
    private final Method parseRequestHeader;

    private SendProcessors(Object send, Object reply, Method parseRequestHeader) {
        this.send = send;
        this.reply = reply;
        this.parseRequestHeader = parseRequestHeader;
    }

    /** The processors {@code loader} holds; {@code missing} says what a loader without them lacks. */
    static SendProcessors from(ClassLoader loader, String missing) {
        try {
            Method parse = Class.forName(PROCESSORS + "AbstractSendMessageProcessor", true, loader)
                .getDeclaredMethod("parseRequestHeader", RemotingCommand.class);
            parse.setAccessible(true);
            return new SendProcessors(ProcessorReflection.allocate(Class.forName(PROCESSORS + "SendMessageProcessor", true, loader)),
                ProcessorReflection.allocate(Class.forName(PROCESSORS + "ReplyMessageProcessor", true, loader)), parse);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e.getMessage() + " is not loadable: " + missing, e);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    SendMessageRequestHeader parseSend(RemotingCommand request) throws RemotingCommandException {
        return ProcessorReflection.parse(parseRequestHeader, send, request);
    }

    SendMessageRequestHeader parseReply(RemotingCommand request) throws RemotingCommandException {
        return ProcessorReflection.parse(parseRequestHeader, reply, request);
    }

    /** The jar or directory the send processor came from, for test names. */
    String source() {
        return send.getClass().getProtectionDomain().getCodeSource().getLocation().getPath().replaceAll(".*/(?=.)", "");
    }
}
