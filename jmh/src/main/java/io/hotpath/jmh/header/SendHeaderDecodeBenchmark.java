package io.hotpath.jmh.header;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.hotpath.codec.header.SendHeaderDecoder498;
import io.hotpath.codec.header.SendHeaderDecoder533;
import io.hotpath.codec.header.SendHeaderDecoder;
import io.hotpath.jmh.AbstractBenchmark;
import org.apache.rocketmq.broker.processor.AbstractSendMessageProcessor;
import org.apache.rocketmq.broker.processor.SendMessageProcessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The broker's send-header decode, {@code parseRequestHeader(RemotingCommand)} to the V1 header
 * the send path uses, for a request as a 4.9.0 producer sends it:
 * <ul>
 *   <li>{@code upstream490}: the real 4.9.0 {@code AbstractSendMessageProcessor#parseRequestHeader}
 *       (reflective {@code decodeCommandCustomHeader}, then V2 to V1 for SEND_MESSAGE_V2);</li>
 *   <li>{@code upstream551}: 5.5.1's {@code SendMessageRequestHeader.parseRequestHeader}
 *       (5.x broker): V2 through {@code FastCodesHeader.decode} after a reflective
 *       {@code getDeclaredConstructor().newInstance()}, V1 still through reflection (walking the
 *       5.x superclasses);</li>
 *   <li>{@code hotpath}: {@link SendHeaderDecoder#parseRequestHeader}.</li>
 *   <li>{@code upstream498}: 4.9.8's {@code parseRequestHeader} switch (restated: Maven Central has no
 *       rocketmq-broker 4.9.8) around 4.9.8's own decoding: V2 through {@code FastCodesHeader.decode} after a
 *       reflective {@code getDeclaredConstructor().newInstance()}, then {@code createSendMessageRequestHeaderV1};
 *       V1 through 4.9.8's reflection;</li>
 *   <li>{@code hotpath498}: {@link SendHeaderDecoder498#parseRequestHeader}, the 4.9.8 line's drop-in.</li>
 *   <li>{@code upstream533}: 5.3.3's {@code SendMessageRequestHeader.parseRequestHeader}, what its
 *       {@code AbstractSendMessageProcessor#parseRequestHeader} calls: V2 through {@code FastCodesHeader.decode} after a
 *       reflective {@code getDeclaredConstructor().newInstance()}, then {@code createSendMessageRequestHeaderV1}; V1
 *       through 5.3.3's reflection (a HashSet of the fields of the class and its RPC superclasses);</li>
 *   <li>{@code hotpath533}: {@link SendHeaderDecoder533#parseRequestHeader}, the 5.3.3 line's drop-in.</li>
 * </ul>
 * The 4.9.8 rows run on 4.9.8's classes relocated under {@code io.hotpath.upstream.v498} (and the drop-in
 * relocated the same way), the 5.3.3 rows likewise under {@code io.hotpath.upstream.v533}, all sharing the 4.9.0
 * requests' extFields maps.
 * {@code header=V2}: SEND_MESSAGE_V2 (310) with one-letter keys, what clients send by default;
 * {@code header=V1}: SEND_MESSAGE (10) with field names, clients with
 * {@code -Dorg.apache.rocketmq.client.sendSmartMsg=false}. 1024 seeded requests are cycled so
 * queue ids, timestamps and properties vary as on a real broker. Each request is built as the
 * 4.9.0 client builds it and goes through the 4.9.0 wire format ({@code encode()}, then
 * {@code RemotingCommand.decode} as the broker's NettyDecoder calls it), so extFields is exactly
 * what the broker holds: fastjson's HashMap with interned keys (fastjson's SymbolTable) and fresh
 * values. The newest release's requests share those extFields maps.
 *
 * <p>Run: {@code mvn -pl jmh verify -Djmh.include=SendHeaderDecodeBenchmark} (every method and parameter; or
 * {@code java -jar jmh/target/benchmarks.jar SendHeaderDecodeBenchmark -prof gc}).
 */
@State(Scope.Thread)
public class SendHeaderDecodeBenchmark extends AbstractBenchmark {

    private static final int CORPUS_SIZE = 1024;
    private static final int MASK = CORPUS_SIZE - 1;

    /** 4.9.0's protected parseRequestHeader; a static final handle inlines like a direct call. */
    private static final MethodHandle PARSE_REQUEST_HEADER_490 = parseRequestHeader490();

    @Param({"V2", "V1"})
    public String header;

    private AbstractSendMessageProcessor processor490;
    private RemotingCommand[] requests490;
    private io.hotpath.upstream.v551.org.apache.rocketmq.remoting.protocol.RemotingCommand[] requests551;
    private io.hotpath.upstream.v498.org.apache.rocketmq.remoting.protocol.RemotingCommand[] requests498;
    private io.hotpath.upstream.v533.org.apache.rocketmq.remoting.protocol.RemotingCommand[] requests533;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws Throwable {
        processor490 = (AbstractSendMessageProcessor) allocateWithoutConstructor(SendMessageProcessor.class);
        int code = "V2".equals(header) ? RequestCode.SEND_MESSAGE_V2 : RequestCode.SEND_MESSAGE;
        requests490 = new RemotingCommand[CORPUS_SIZE];
        requests551 = new io.hotpath.upstream.v551.org.apache.rocketmq.remoting.protocol.RemotingCommand[CORPUS_SIZE];
        requests498 = new io.hotpath.upstream.v498.org.apache.rocketmq.remoting.protocol.RemotingCommand[CORPUS_SIZE];
        requests533 = new io.hotpath.upstream.v533.org.apache.rocketmq.remoting.protocol.RemotingCommand[CORPUS_SIZE];
        Random random = new Random(20_240_611L);
        for (int i = 0; i < CORPUS_SIZE; i++) {
            SendMessageRequestHeader sent = producerHeader(random, i);
            CommandCustomHeader onTheWire = "V2".equals(header) ? SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(sent) : sent;
            requests490[i] = throughTheWire(RemotingCommand.createRequestCommand(code, onTheWire));
            requests551[i] = io.hotpath.upstream.v551.org.apache.rocketmq.remoting.protocol.RemotingCommand
                .createRequestCommand(code, null);
            requests551[i].setExtFields(requests490[i].getExtFields());
            requests498[i] = io.hotpath.upstream.v498.org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(code, null);
            requests498[i].setExtFields(requests490[i].getExtFields());
            requests533[i] = io.hotpath.upstream.v533.org.apache.rocketmq.remoting.protocol.RemotingCommand
                .createRequestCommand(code, null);
            requests533[i].setExtFields(requests490[i].getExtFields());
        }
        verifyAllAgreeOnTheWholeCorpus();
        v2 = "V2".equals(header);
        List<String> floorKeys = Arrays.asList(v2 ? V2_KEYS : V1_KEYS);
        for (RemotingCommand request : requests490) {
            if (!request.getExtFields().keySet().containsAll(floorKeys)) {
                throw new IllegalStateException("floorLookupsOnly: a request lacks one of " + floorKeys);
            }
        }
    }

    @Benchmark
    public SendMessageRequestHeader upstream490() throws Throwable {
        return (SendMessageRequestHeader) PARSE_REQUEST_HEADER_490.invokeExact(processor490, requests490[next++ & MASK]);
    }

    @Benchmark
    public io.hotpath.upstream.v551.org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader upstream551()
        throws Exception {
        return io.hotpath.upstream.v551.org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader
            .parseRequestHeader(requests551[next++ & MASK]);
    }

    @Benchmark
    public SendMessageRequestHeader hotpath() throws Exception {
        return SendHeaderDecoder.parseRequestHeader(requests490[next++ & MASK]);
    }

    @Benchmark
    public io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader upstream498() throws Exception {
        io.hotpath.upstream.v498.org.apache.rocketmq.remoting.protocol.RemotingCommand request = requests498[next++ & MASK];
        // AbstractSendMessageProcessor#parseRequestHeader of 4.9.8, for the two codes this benchmark sends
        if (request.getCode() == RequestCode.SEND_MESSAGE_V2) {
            return io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2
                .createSendMessageRequestHeaderV1((io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2)
                    request.decodeCommandCustomHeader(
                        io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2.class));
        }
        return (io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader) request
            .decodeCommandCustomHeader(io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader.class);
    }

    @Benchmark
    public io.hotpath.upstream.v498.org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader hotpath498() throws Exception {
        return SendHeaderDecoder498.parseRequestHeader(requests498[next++ & MASK]);
    }

    @Benchmark
    public io.hotpath.upstream.v533.org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader upstream533() throws Exception {
        return io.hotpath.upstream.v533.org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader
            .parseRequestHeader(requests533[next++ & MASK]);
    }

    @Benchmark
    public io.hotpath.upstream.v533.org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader hotpath533() throws Exception {
        return SendHeaderDecoder533.parseRequestHeader(requests533[next++ & MASK]);
    }

    /**
     * Not a decoder: only the 13 {@code extFields.get} calls every decoder of this request must make
     * (one per header field, with the keys the request carries), summing the value lengths so they
     * are used. No header object, no number parsing, no checks: a decoder cannot be faster than this;
     * the row shows how far the speed-up targets are from it.
     */
    @Benchmark
    public int floorLookupsOnly() {
        final Map<String, String> f = requests490[next++ & MASK].getExtFields();
        // unrolled, with literal keys, as a decoder makes them (a loop over a key array measured ~20 % slower)
        if (v2) {
            return used(f.get("a")) + used(f.get("b")) + used(f.get("c")) + used(f.get("d")) + used(f.get("e")) + used(f.get("f"))
                + used(f.get("g")) + used(f.get("h")) + used(f.get("i")) + used(f.get("j")) + used(f.get("k")) + used(f.get("l"))
                + used(f.get("m"));
        }
        return used(f.get("producerGroup")) + used(f.get("topic")) + used(f.get("defaultTopic")) + used(f.get("defaultTopicQueueNums"))
            + used(f.get("queueId")) + used(f.get("sysFlag")) + used(f.get("bornTimestamp")) + used(f.get("flag"))
            + used(f.get("properties")) + used(f.get("reconsumeTimes")) + used(f.get("unitMode")) + used(f.get("maxReconsumeTimes"))
            + used(f.get("batch"));
    }

    private static int used(String value) {
        return value == null ? -1 : value.length();
    }

    private static final String[] V2_KEYS = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"};
    private static final String[] V1_KEYS = {"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId", "sysFlag",
        "bornTimestamp", "flag", "properties", "reconsumeTimes", "unitMode", "maxReconsumeTimes", "batch"};
    private boolean v2;

    /** What DefaultMQProducerImpl#sendKernelImpl of 4.9.0 puts in the header (maxReconsumeTimes as for a retry topic). */
    private static SendMessageRequestHeader producerHeader(Random random, int i) {
        Map<String, String> properties = new HashMap<>();
        properties.put("KEYS", "OrderID" + random.nextInt(1_000_000));
        properties.put("UNIQ_KEY", String.format("7F000001%08X%016X", random.nextInt(), random.nextLong()));
        properties.put("WAIT", "true");
        properties.put("TAGS", "Tag" + (char) ('A' + random.nextInt(5)));
        SendMessageRequestHeader h = new SendMessageRequestHeader();
        h.setProducerGroup("please_rename_unique_group_name_" + random.nextInt(4));
        h.setTopic("TopicTest" + random.nextInt(8));
        h.setDefaultTopic("TBW102");
        h.setDefaultTopicQueueNums(4);
        h.setQueueId(random.nextInt(16));
        h.setSysFlag(0);
        h.setBornTimestamp(1_700_000_000_000L + i * 7L + random.nextInt(7));
        h.setFlag(0);
        h.setProperties(MessageDecoder.messageProperties2String(properties));
        h.setReconsumeTimes(0);
        h.setUnitMode(false);
        h.setMaxReconsumeTimes(16);
        h.setBatch(false);
        return h;
    }

    /** The request as the broker sees it: 4.9.0 encode (JSON header), then RemotingCommand.decode of the frame. */
    private static RemotingCommand throughTheWire(RemotingCommand request) {
        request.setBody(new byte[] {1});
        ByteBuffer wire = request.encode();
        wire.position(4); // the frame length, stripped by the broker's LengthFieldBasedFrameDecoder
        return RemotingCommand.decode(wire.slice());
    }

    /** A wrong implementation must not be fast: all seven must produce the same header for every request. */
    private void verifyAllAgreeOnTheWholeCorpus() throws Throwable {
        for (int i = 0; i < CORPUS_SIZE; i++) {
            next = i;
            String expected = describe(upstream490());
            next = i;
            String ours = describe(hotpath());
            next = i;
            String v551 = describe(upstream551());
            next = i;
            String stock498 = describe(upstream498());
            next = i;
            String ours498 = describe(hotpath498());
            next = i;
            String stock533 = describe(upstream533());
            next = i;
            String ours533 = describe(hotpath533());
            if (!expected.equals(ours) || !expected.equals(v551) || !expected.equals(stock498) || !expected.equals(ours498)
                || !expected.equals(stock533) || !expected.equals(ours533)) {
                throw new IllegalStateException("request " + i + " decoded differently:\n 4.9.0  " + expected + "\n hotpath " + ours
                    + "\n 5.5.1  " + v551 + "\n 4.9.8  " + stock498 + "\n hotpath498 " + ours498
                    + "\n 5.3.3  " + stock533 + "\n hotpath533 " + ours533);
            }
        }
        next = 0;
    }

    /** The V1 header's 13 fields through its getters (the newest release's header has more, from its superclasses). */
    private static String describe(Object v1) throws ReflectiveOperationException {
        StringBuilder sb = new StringBuilder();
        for (String getter : new String[] {"getProducerGroup", "getTopic", "getDefaultTopic", "getDefaultTopicQueueNums",
            "getQueueId", "getSysFlag", "getBornTimestamp", "getFlag", "getProperties", "getReconsumeTimes", "isUnitMode",
            "getMaxReconsumeTimes", "isBatch"}) {
            Method m = v1.getClass().getMethod(getter);
            Object value = m.invoke(v1);
            sb.append(getter).append('=').append(value == null ? "null" : value.getClass().getSimpleName() + ":" + value).append(' ');
        }
        return sb.toString();
    }

    private static MethodHandle parseRequestHeader490() {
        try {
            return MethodHandles.privateLookupIn(AbstractSendMessageProcessor.class, MethodHandles.lookup())
                .findVirtual(AbstractSendMessageProcessor.class, "parseRequestHeader",
                    MethodType.methodType(SendMessageRequestHeader.class, RemotingCommand.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The processor's constructor needs a live BrokerController; parseRequestHeader touches none of its state. */
    private static Object allocateWithoutConstructor(Class<?> type) throws ReflectiveOperationException {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        return unsafeClass.getMethod("allocateInstance", Class.class).invoke(theUnsafe.get(null), type);
    }
}
