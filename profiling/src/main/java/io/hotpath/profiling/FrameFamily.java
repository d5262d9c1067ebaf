package io.hotpath.profiling;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The broker send-path frame families the stock-vs-patched summary reports. A Java thread's sample
 * belongs to the family of its innermost (leaf-most) frame that matches any family: a sample in
 * {@code HashMap.put} called from {@code string2messageProperties} is properties parsing, one in
 * {@code Field.set} under {@code decodeCommandCustomHeader} is header decoding, and one in netty
 * writing the response of {@code SendMessageProcessor} is network. A sample without any Java frame
 * that runs GC code (GC worker, concurrent GC and VM threads) is {@link #GC}, one in the JIT
 * compiler {@link #JIT_COMPILER}; an allocation slow path that enters the GC from a Java thread
 * stays with its Java caller.
 *
 * <p>Frame names are the JVM's internal ones as async-profiler writes them
 * ({@code org/apache/rocketmq/common/message/MessageDecoder.string2messageProperties}). Matching is
 * by method name where upstream and hotpath keep the same signature (the drop-in entry points keep
 * upstream's names, so that each patch is a body swap), so the patched build's frames land in the same family.
 */
public enum FrameFamily {

    PROPERTIES_ENCODE("properties encode (`messageProperties2String`)",
        "\\.messageProperties2String$"),
    PROPERTIES_PARSE("properties parse (`string2messageProperties`)",
        "\\.string2messageProperties$"),
    HEADER_DECODE("header decode (`decodeCommandCustomHeader`, incl. `java/lang/reflect`)",
        "\\.decodeCommandCustomHeader$|/SendHeaderDecoder\\.|/SendMessageRequestHeaderDecoder\\."),
    COMMITLOG_ENCODE("CommitLog encode (`DefaultAppendMessageCallback.doAppend` and friends)",
        "CommitLog\\$DefaultAppendMessageCallback\\.doAppend$|CommitLog\\$MessageExt(Batch)?Encoder\\."
            + "|/CommitLog\\.calMsgLength$|^io/hotpath/store/"),
    NETWORK("network (netty, `sun/nio/ch`, epoll, kernel send/recv)",
        // read/write syscalls are left out: logging and file I/O use them too; a socket write
        // under them still matches through tcp_*/sock_* (perf events) or sun/nio/ch (itimer)
        "^io/netty/|^sun/nio/ch/|epoll|^ep_poll"
            + "|^(__x64_|__ia32_)?(__)?sys_(sendto|sendmsg|recvfrom|recvmsg)$"
            + "|^(tcp|udp|inet|sock|skb|__skb|ip|ipv6|__ip|__tcp|__inet|__sock|__dev|dev|__netif|netif|net|__napi|napi"
            + "|loopback)_"),
    GC("GC threads", ""),
    /** Not a send-path family: named because a freshly booted broker spends much of its CPU here. */
    JIT_COMPILER("JIT compiler threads", "");

    /** Native frames that only GC and GC-related VM operations run (HotSpot, JDK 17). */
    private static final Pattern GC_FRAME = Pattern.compile(
        "^(G1\\w*|GangWorker|WorkGang|WorkerThread|ConcurrentGCThread|GCTaskThread|ConcurrentMarkThread"
            + "|VM_G1\\w*|VM_GC\\w*|VM_CollectFor\\w*|PSScavenge|PSParallelCompact|ParallelScavengeHeap"
            + "|SerialHeap|GenCollectedHeap|ShenandoahHeap|ZDriver|ZWorkers?|CollectedHeap)::"
            + "|^\\[(GC Thread|G1 |GC |VM Periodic)");

    private static final Pattern JIT_FRAME = Pattern.compile("^(CompileBroker|C2Compiler|Compiler|Compilation|Compile)::");

    private static final Pattern SEND_PATH = Pattern.compile("SendMessageProcessor\\.");
    private static final Pattern REFLECTION = Pattern.compile("^(java/lang/reflect|jdk/internal/reflect)/");
    private static final List<FrameFamily> JAVA_FAMILIES =
        List.of(PROPERTIES_ENCODE, PROPERTIES_PARSE, HEADER_DECODE, COMMITLOG_ENCODE, NETWORK);

    private final String label;
    private final Pattern frame;

    FrameFamily(String label, String frameRegex) {
        this.label = label;
        this.frame = Pattern.compile(frameRegex);
    }

    public String label() {
        return label;
    }

    /** The family of one sample (frames root first), or null for everything else. */
    public static FrameFamily classify(List<String> frames) {
        boolean javaThread = false;
        for (String frame : frames) {
            if (CollapsedStacks.isJavaFrame(frame)) {
                javaThread = true;
                break;
            }
        }
        if (!javaThread) {
            for (String frame : frames) {
                String name = CollapsedStacks.frameName(frame);
                if (GC_FRAME.matcher(name).find()) {
                    return GC;
                }
                if (JIT_FRAME.matcher(name).find()) {
                    return JIT_COMPILER;
                }
            }
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            String name = CollapsedStacks.frameName(frames.get(i));
            for (FrameFamily family : JAVA_FAMILIES) {
                if (family.frame.matcher(name).find()) {
                    return family;
                }
            }
        }
        return null;
    }

    /** True when the sample runs on the broker's send path (any {@code *SendMessageProcessor} method). */
    public static boolean isSendPath(List<String> frames) {
        for (String frame : frames) {
            if (SEND_PATH.matcher(frame).find()) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the sample is in reflection called by upstream's header decoding: a
     * {@code java/lang/reflect} or {@code jdk/internal/reflect} frame leafward of
     * {@code decodeCommandCustomHeader} (e.g. {@code Field.set}, {@code Field.setAccessible}).
     */
    public static boolean isHeaderDecodeReflection(List<String> frames) {
        boolean inDecode = false;
        for (String frame : frames) {
            String name = CollapsedStacks.frameName(frame);
            if (!inDecode) {
                inDecode = name.endsWith(".decodeCommandCustomHeader");
            } else if (REFLECTION.matcher(name).find()) {
                return true;
            }
        }
        return false;
    }
}
