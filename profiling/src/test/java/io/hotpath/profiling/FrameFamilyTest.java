package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class FrameFamilyTest {

    private static final String SEND = "java/lang/Thread.run_[0];org/apache/rocketmq/remoting/netty/RequestTask.run_[1];"
        + "org/apache/rocketmq/broker/processor/SendMessageProcessor.asyncProcessRequest_[1]";
    private static final String DECODE = SEND + ";org/apache/rocketmq/broker/processor/AbstractSendMessageProcessor.parseRequestHeader_[1]"
        + ";org/apache/rocketmq/remoting/protocol/RemotingCommand.decodeCommandCustomHeader_[1]";

    private static FrameFamily classify(String stack) {
        return FrameFamily.classify(List.of(stack.split(";")));
    }

    @Test
    void classifiesBySendPathMethodNames() {
        assertThat(classify(SEND + ";org/apache/rocketmq/common/message/MessageDecoder.messageProperties2String_[1]"
            + ";java/lang/StringBuilder.append_[i]")).isEqualTo(FrameFamily.PROPERTIES_ENCODE);
        assertThat(classify(SEND + ";org/apache/rocketmq/common/message/MessageDecoder.string2messageProperties_[j]"
            + ";java/lang/String.split_[i]")).isEqualTo(FrameFamily.PROPERTIES_PARSE);
        assertThat(classify(SEND + ";org/apache/rocketmq/store/CommitLog.asyncPutMessage_[1]"
            + ";org/apache/rocketmq/store/CommitLog$DefaultAppendMessageCallback.doAppend_[1];java/nio/DirectByteBuffer.put_[j]"))
            .isEqualTo(FrameFamily.COMMITLOG_ENCODE);
    }

    @Test
    void putsReflectionUnderDecodeCommandCustomHeaderIntoHeaderDecode() {
        assertThat(classify(DECODE + ";java/lang/reflect/Field.set_[1]")).isEqualTo(FrameFamily.HEADER_DECODE);
        assertThat(classify(DECODE + ";java/lang/Class.newInstance_[1];jdk/internal/reflect/Reflection.getCallerClass_[j]"
            + ";JVM_GetCallerClass")).isEqualTo(FrameFamily.HEADER_DECODE);
    }

    @Test
    void countsTheHotpathDecoderAsHeaderDecodeToo() {
        assertThat(classify(SEND + ";io/hotpath/codec/SendHeaderDecoder.decode_[j]")).isEqualTo(FrameFamily.HEADER_DECODE);
    }

    @Test
    void takesTheInnermostMatchingFrame() {
        // the response write of a send is network time, although it runs under SendMessageProcessor
        assertThat(classify(SEND + ";io/netty/channel/AbstractChannel.writeAndFlush_[i]")).isEqualTo(FrameFamily.NETWORK);
        // properties parsing called while the CommitLog is read back stays parsing
        assertThat(classify("java/lang/Thread.run_[0];org/apache/rocketmq/store/CommitLog.checkMessageAndReturnSize_[1]"
            + ";org/apache/rocketmq/common/message/MessageDecoder.string2messageProperties_[j]"))
            .isEqualTo(FrameFamily.PROPERTIES_PARSE);
    }

    @Test
    void recognisesNetworkByNettyNioAndKernelSocketFrames() {
        assertThat(classify("java/lang/Thread.run_[0];io/netty/channel/nio/NioEventLoop.run_[0]")).isEqualTo(FrameFamily.NETWORK);
        assertThat(classify("java/lang/Thread.run_[0];org/apache/rocketmq/store/ha/HAConnection$ReadSocketService.run_[0]"
            + ";sun/nio/ch/EPoll.wait_[j];epoll_wait;do_epoll_wait_[k]")).isEqualTo(FrameFamily.NETWORK);
        assertThat(classify("java/lang/Thread.run_[0];a/B.c_[j];__GI_write;tcp_sendmsg_[k]")).isEqualTo(FrameFamily.NETWORK);
    }

    @Test
    void leavesPageFaultsAndFileWritesWhereTheyHappen() {
        assertThat(classify(SEND + ";org/apache/rocketmq/store/CommitLog$DefaultAppendMessageCallback.doAppend_[1]"
            + ";asm_exc_page_fault_[k];handle_mm_fault_[k]")).isEqualTo(FrameFamily.COMMITLOG_ENCODE);
        assertThat(classify("java/lang/Thread.run_[0];ch/qos/logback/core/OutputStreamAppender.append_[j]"
            + ";__GI_write;ksys_write_[k];vfs_write_[k]")).isNull();
    }

    @Test
    void classifiesGcAndJitByThreadsWithoutJavaFrames() {
        assertThat(classify("clone3;start_thread;thread_native_entry;Thread::call_run;GangWorker::loop"
            + ";G1EvacuateRegionsTask::work")).isEqualTo(FrameFamily.GC);
        assertThat(classify("[GC Thread#1 tid=23];clone3;start_thread")).isEqualTo(FrameFamily.GC);
        assertThat(classify("clone3;start_thread;VMThread::run;VM_G1CollectForAllocation::doit")).isEqualTo(FrameFamily.GC);
        assertThat(classify("clone3;start_thread;thread_native_entry;JavaThread::thread_main_inner"
            + ";CompileBroker::compiler_thread_loop;C2Compiler::compile_method")).isEqualTo(FrameFamily.JIT_COMPILER);
    }

    @Test
    void keepsAnAllocationSlowPathWithItsJavaCaller() {
        assertThat(classify(SEND + ";org/apache/rocketmq/common/message/MessageDecoder.messageProperties2String_[1]"
            + ";OptoRuntime::new_array_C;MemAllocator::allocate;G1CollectedHeap::allocate_new_tlab"))
            .isEqualTo(FrameFamily.PROPERTIES_ENCODE);
        assertThat(classify("java/lang/Thread.run_[0];a/B.c_[1];G1CollectedHeap::allocate_new_tlab")).isNull();
    }

    @Test
    void detectsReflectionOnlyBelowDecodeCommandCustomHeader() {
        assertThat(FrameFamily.isHeaderDecodeReflection(List.of((DECODE + ";java/lang/reflect/Field.set_[1]").split(";"))))
            .isTrue();
        assertThat(FrameFamily.isHeaderDecodeReflection(List.of((DECODE + ";java/util/HashMap.get_[j]").split(";"))))
            .isFalse();
        // reflection elsewhere (JMH invoking a benchmark, fastjson) is not header decoding
        assertThat(FrameFamily.isHeaderDecodeReflection(List.of(
            "java/lang/reflect/Method.invoke_[0]", "a/Bench.decode_[j]"))).isFalse();
    }

    @Test
    void knowsTheSendPathByItsProcessor() {
        assertThat(FrameFamily.isSendPath(List.of(DECODE.split(";")))).isTrue();
        assertThat(FrameFamily.isSendPath(List.of("java/lang/Thread.run_[0]",
            "org/apache/rocketmq/broker/processor/PullMessageProcessor.processRequest_[1]"))).isFalse();
    }
}
