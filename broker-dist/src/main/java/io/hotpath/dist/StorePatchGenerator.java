package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates {@code patches/4.9.0/0003-store-trim-persisted-properties.patch} from hotpath-store's
 * sources and the rocketmq-store and rocketmq-broker 4.9.0 {@code -sources} jars, the way
 * {@link CodecPatchGenerator} generates 0001; broker-dist's {@code CodecPatchFreshnessTest}
 * regenerates it and compares.
 *
 * <p>The patch (git format-patch, against the rocketmq-all-4.9.0 tree):
 * <ul>
 *   <li>adds {@code store/src/main/java/io/hotpath/store/{PersistedProperties,EncodeScratch}.java},
 *       byte-identical to hotpath-store's files ({@link #STORE_FILES});</li>
 *   <li>gives {@code MessageExtBrokerInner} a {@code propertiesBytes} alternative to
 *       {@code propertiesString} (whichever was set last wins, so an unpatched site stays as in 4.9.0),
 *       which {@code DefaultMessageStore#checkMessage} limits and {@code CommitLog}'s append callback
 *       stores;</li>
 *   <li>makes the trimmed block ({@code PersistedProperties.messageProperties2Bytes}, same map, same
 *       place) at every site listed in {@link #SITES} (each site that makes 4.9.0's persisted String),
 *       and in the batch encoder stores each message's client block without WAIT segments, then the
 *       batch's trimmed block ({@code PersistedProperties.putBatchMessage}). Left as in 4.9.0:
 *       ReplyMessageProcessor, the DLedger batch encoder, the unused SendMessageProcessor#sendMessage.</li>
 * </ul>
 *
 * <p>Run: {@code patches/regenerate.sh}.
 */
public final class StorePatchGenerator {

    public static final String PATCH_NAME = "0003-store-trim-persisted-properties.patch";
    public static final String STORE_JAVA = "store/src/main/java/";
    public static final String BROKER_JAVA = "broker/src/main/java/";
    public static final String STORE_DIR = STORE_JAVA + "io/hotpath/store/";
    public static final List<String> STORE_FILES = List.of("PersistedProperties.java", "EncodeScratch.java");

    static final String INNER = STORE_JAVA + "org/apache/rocketmq/store/MessageExtBrokerInner.java";
    static final String STORE = STORE_JAVA + "org/apache/rocketmq/store/DefaultMessageStore.java";
    static final String COMMIT_LOG = STORE_JAVA + "org/apache/rocketmq/store/CommitLog.java";
    static final String DLEDGER = STORE_JAVA + "org/apache/rocketmq/store/dledger/DLedgerCommitLog.java";
    static final String SCHEDULE = STORE_JAVA + "org/apache/rocketmq/store/schedule/ScheduleMessageService.java";
    static final String SEND = BROKER_JAVA + "org/apache/rocketmq/broker/processor/SendMessageProcessor.java";
    static final String END_TRANSACTION = BROKER_JAVA + "org/apache/rocketmq/broker/processor/EndTransactionProcessor.java";
    static final String PULL = BROKER_JAVA + "org/apache/rocketmq/broker/processor/PullMessageProcessor.java";
    static final String ADMIN = BROKER_JAVA + "org/apache/rocketmq/broker/processor/AdminBrokerProcessor.java";
    static final String TRANSACTION_BRIDGE = BROKER_JAVA + "org/apache/rocketmq/broker/transaction/queue/TransactionalMessageBridge.java";
    static final String CHECK_LISTENER = BROKER_JAVA
        + "org/apache/rocketmq/broker/transaction/queue/DefaultTransactionalMessageCheckListener.java";

    /** The sites that make the persisted block, as documented in hotpath-store/README.md. */
    public static final List<String> SITES = List.of(
        "SendMessageProcessor#asyncSendMessage (normal single-message send)",
        "CommitLog#putMessage and #asyncPutMessage (delay branch), DLedgerCommitLog#putMessage (delay branch)",
        "ScheduleMessageService.DeliverDelayedMessageTimerTask#messageTimeup (delay re-put)",
        "CommitLog.MessageExtBatchEncoder#encode (each message of a batch)",
        "TransactionalMessageBridge#parseHalfMessageInner, #renewHalfMessageInner, #renewImmunityHalfMessageInner,"
            + " #makeOpMessageInner (transaction half, check re-put, op records)",
        "EndTransactionProcessor#endMessageTransaction (transaction commit)",
        "DefaultTransactionalMessageCheckListener#toMessageExtBrokerInner (half message past its check limit)",
        "AdminBrokerProcessor#toMessageExtBrokerInner (resume a checked-out half message)",
        "SendMessageProcessor#asyncConsumerSendMsgBack (consumer send-back to retry / DLQ)",
        "PullMessageProcessor#generateOffsetMovedEvent (offset-moved event)");

    private static final String STOCK_PROPERTIES_DATA = "            final byte[] propertiesData =\n"
        + "                msgInner.getPropertiesString() == null ? null : msgInner.getPropertiesString().getBytes(MessageDecoder.CHARSET_UTF8);\n";
    private static final String PATCHED_PROPERTIES_DATA =
        "            // rocketmq-hotpath: a trimmed block made at the call site is stored as it is (no encoding inside the lock)\n"
            + "            final byte[] propertiesData = msgInner.getPropertiesBytes() != null ? msgInner.getPropertiesBytes()\n"
            + "                : msgInner.getPropertiesString() == null ? null : msgInner.getPropertiesString().getBytes(MessageDecoder.CHARSET_UTF8);\n";
    private static final String IMPORT = "import io.hotpath.store.PersistedProperties;\n";

    private static final String DEFAULT_MESSAGE = """
        Store: trimmed persisted properties (no WAIT, no trailing separator)

        Motivation:

        A 4.9.0 broker stores WAIT\\1true\\2 and a trailing \\2 in every CommitLog
        record: 11 of the 101 properties bytes of a plain message. WAIT is read
        only from the in-memory map while the message is put (flush / slave
        wait); nobody reads it back from a normal or delayed record. 4.9.8
        drops it on the single-message path only and encodes the String to
        UTF-8 inside the put lock.

        Modification:

        - Add io.hotpath.store.PersistedProperties (with EncodeScratch) to the
          store module: byte-identical to the rocketmq-hotpath hotpath-store
          module, from which this patch is generated. It writes the properties
          block straight from the map as UTF-8 bytes, without WAIT and without
          the trailing separator: the bytes 4.9.8 stores on its single-message
          path. The map is not modified (the broker still reads WAIT).
        - MessageExtBrokerInner gets propertiesBytes next to propertiesString;
          whichever was set last wins, so a site this patch does not change
          stores what 4.9.0 stores. CommitLog's append callback stores the
          bytes as they are (UTF-8 encoding leaves the put lock), and so does
          DLedgerCommitLog's encoder;
          DefaultMessageStore#checkMessage rejects a block over 32767 bytes
          with MESSAGE_ILLEGAL, the status 4.9.0 returns for an oversized
          block (the limit now applies to the trimmed bytes, as in 4.9.8).
        - The block is made at the same site, from the same map, at the same
          moment as 4.9.0's String (snapshot semantics kept) on every path that
          persists a message: SendMessageProcessor#asyncSendMessage (normal
          send), the delay branch of CommitLog#putMessage / #asyncPutMessage and
          of DLedgerCommitLog, ScheduleMessageService's re-put of a due message,
          consumer send-back (asyncConsumerSendMsgBack; its first, overwritten
          String is no longer made), the transaction half, check re-put, op,
          check-limit and resume records (TransactionalMessageBridge,
          DefaultTransactionalMessageCheckListener, AdminBrokerProcessor), the
          commit re-put (EndTransactionProcessor) and offset-moved events.
        - Batch (CommitLog.MessageExtBatchEncoder): each message's block is its
          client-encoded properties without WAIT segments, then the batch's
          own trimmed block, joined by one separator (the 4.9.3 fix) and
          without a trailing one; a batch block over 32767 bytes fails the
          batch as in 4.9.8, and so does a message block over 32767 bytes
          (4.9.0 overflowed the short length field).
        - WAIT on the transaction path: EndTransactionProcessor reads WAIT back
          from the half record (absent reads as true). Half records made from a
          WAIT=false message (or re-put by renewImmunityHalfMessageInner) now
          lose that false, so their commit put waits for flush / slave like a
          default message: more durable, never less; only the EndTransaction
          thread's latency changes, and only on SYNC_FLUSH / SYNC_MASTER.
        - Not changed: ReplyMessageProcessor (stores the request's properties
          String verbatim), the DLedger batch encoder (stores only the client's
          bytes) and the unused SendMessageProcessor#sendMessage.
        - Proven against the patched 4.9.0 DefaultMessageStore of the built
          broker: every stored record's properties block equals
          PersistedProperties of the message map (normal, delayed, re-put),
          a batch's records equal 4.9.8's batch records without WAIT, and stock
          4.9.0 MessageDecoder reads them back.

        Result: see jmh summary (filled in by the lead)
        """;

    private StorePatchGenerator() {
    }

    public static String generate(Path storeSourcesJar, Path brokerSourcesJar, Path storeSources, String existingPatch, Path workDir) {
        Map<String, String> stock = new LinkedHashMap<>();
        for (String path : List.of(INNER, STORE, COMMIT_LOG, DLEDGER, SCHEDULE)) {
            stock.put(path, CodecPatchGenerator.readEntry(storeSourcesJar, path.substring(STORE_JAVA.length())));
        }
        for (String path : List.of(SEND, END_TRANSACTION, PULL, ADMIN, TRANSACTION_BRIDGE, CHECK_LISTENER)) {
            stock.put(path, CodecPatchGenerator.readEntry(brokerSourcesJar, path.substring(BROKER_JAVA.length())));
        }

        Map<String, String> patched = new LinkedHashMap<>();
        patched.put(INNER, patchInner(stock.get(INNER)));
        patched.put(STORE, replaceOnce(STORE, stock.get(STORE),
            "            log.warn(\"putMessage message properties length too long \" + msg.getPropertiesString().length());\n"
                + "            return PutMessageStatus.MESSAGE_ILLEGAL;\n"
                + "        }\n",
            "            log.warn(\"putMessage message properties length too long \" + msg.getPropertiesString().length());\n"
                + "            return PutMessageStatus.MESSAGE_ILLEGAL;\n"
                + "        }\n"
                + "        // rocketmq-hotpath: the same early reject for a trimmed block (UTF-8 bytes, never fewer than its chars)\n"
                + "        if (msg.getPropertiesBytes() != null && msg.getPropertiesBytes().length > Short.MAX_VALUE) {\n"
                + "            log.warn(\"putMessage message properties length too long \" + msg.getPropertiesBytes().length);\n"
                + "            return PutMessageStatus.MESSAGE_ILLEGAL;\n"
                + "        }\n"));
        patched.put(COMMIT_LOG, patchCommitLog(stock.get(COMMIT_LOG)));
        // DLedger mode encodes the record itself: it must store the bytes too; its delay branch is a site
        patched.put(DLEDGER, patchSite(DLEDGER, replaceOnce(DLEDGER, stock.get(DLEDGER), STOCK_PROPERTIES_DATA, PATCHED_PROPERTIES_DATA),
            "msg.setPropertiesString(MessageDecoder.messageProperties2String(msg.getProperties()));", 1));
        patched.put(SCHEDULE, patchSite(SCHEDULE, stock.get(SCHEDULE),
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));", 1));
        patched.put(SEND, patchSendBack(patchSite(SEND, stock.get(SEND),
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));\n\n"
                + "        CompletableFuture<PutMessageResult> putMessageResult = null;", 1)));
        patched.put(END_TRANSACTION, patchSite(END_TRANSACTION, stock.get(END_TRANSACTION),
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));", 1));
        patched.put(PULL, patchSite(PULL, stock.get(PULL),
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));", 1));
        patched.put(ADMIN, patchSite(ADMIN, stock.get(ADMIN),
            "inner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));", 1));
        patched.put(CHECK_LISTENER, patchSite(CHECK_LISTENER, stock.get(CHECK_LISTENER),
            "inner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));", 1));
        String bridge = patchSite(TRANSACTION_BRIDGE, stock.get(TRANSACTION_BRIDGE),
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgInner.getProperties()));", 2);
        bridge = patchSite(TRANSACTION_BRIDGE, bridge,
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));", 1);
        patched.put(TRANSACTION_BRIDGE, patchSite(TRANSACTION_BRIDGE, bridge,
            "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(message.getProperties()));", 1));
        for (String file : STORE_FILES) {
            patched.put(STORE_DIR + file, CodecPatchGenerator.readSource(storeSources.resolve("io/hotpath/store").resolve(file)));
        }
        return CodecPatchGenerator.formatPatch(stock, patched, DEFAULT_MESSAGE, existingPatch, workDir);
    }

    private static String patchInner(String source) {
        String patched = replaceOnce(INNER, source, "    private String propertiesString;\n",
            "    private String propertiesString;\n"
                + "    // rocketmq-hotpath: the trimmed block (io.hotpath.store.PersistedProperties), made at the call site\n"
                + "    private byte[] propertiesBytes;\n");
        return replaceOnce(INNER, patched,
            "    public void setPropertiesString(String propertiesString) {\n"
                + "        this.propertiesString = propertiesString;\n"
                + "    }\n",
            "    public void setPropertiesString(String propertiesString) {\n"
                + "        this.propertiesString = propertiesString;\n"
                + "        this.propertiesBytes = null;\n"
                + "    }\n"
                + "\n"
                + "    public byte[] getPropertiesBytes() {\n"
                + "        return propertiesBytes;\n"
                + "    }\n"
                + "\n"
                + "    /** Stored instead of the String; whichever was set last wins, so an unpatched site stores 4.9.0's String. */\n"
                + "    public void setPropertiesBytes(byte[] propertiesBytes) {\n"
                + "        this.propertiesBytes = propertiesBytes;\n"
                + "        this.propertiesString = null;\n"
                + "    }\n");
    }

    private static String patchCommitLog(String source) {
        String patched = replaceOnce(COMMIT_LOG, source, STOCK_PROPERTIES_DATA, PATCHED_PROPERTIES_DATA);
        patched = patchBatchEncoder(patched);
        // the delay branch of putMessage and asyncPutMessage
        return patchSite(COMMIT_LOG, patched, "msg.setPropertiesString(MessageDecoder.messageProperties2String(msg.getProperties()));", 2);
    }

    /**
     * {@code MessageExtBatchEncoder#encode}: the batch's own block is made once, trimmed, and rejected
     * over 32767 bytes as 4.9.8 rejects it (4.9.0 casts it to short); each message's block is its
     * client-encoded properties without WAIT segments, then the batch's block
     * ({@code PersistedProperties#putBatchMessage}), and a block over 32767 bytes fails the batch
     * instead of overflowing the length field.
     */
    private static String patchBatchEncoder(String source) {
        String patched = replaceOnce(COMMIT_LOG, source,
            "            String batchPropStr = MessageDecoder.messageProperties2String(messageExtBatch.getProperties());\n"
                + "            final byte[] batchPropData = batchPropStr.getBytes(MessageDecoder.CHARSET_UTF8);\n"
                + "            final short batchPropLen = (short) batchPropData.length;\n",
            "            // rocketmq-hotpath: trimmed (no WAIT, no trailing separator), once per batch; over 32767 bytes fails as in 4.9.8\n"
                + "            final byte[] batchPropData = PersistedProperties.messageProperties2Bytes(messageExtBatch.getProperties());\n"
                + "            if (batchPropData.length > Short.MAX_VALUE) {\n"
                + "                CommitLog.log.warn(\"Properties size of messageExtBatch exceeded, properties size: \" + batchPropData.length);\n"
                + "                throw new RuntimeException(\"Properties size of messageExtBatch exceeded!\");\n"
                + "            }\n");
        patched = replaceOnce(COMMIT_LOG, patched,
            "                messagesByteBuff.position(propertiesPos + propertiesLen);\n\n"
                + "                final byte[] topicData = messageExtBatch.getTopic().getBytes(MessageDecoder.CHARSET_UTF8);\n",
            "                messagesByteBuff.position(propertiesPos + propertiesLen);\n"
                + "                // rocketmq-hotpath: the message's block as stored: its own properties without WAIT, then the batch's\n"
                + "                final int storedPropLen = PersistedProperties.batchMessageLength(messagesByteBuff.array(), propertiesPos,\n"
                + "                    propertiesLen, batchPropData);\n"
                + "                if (storedPropLen > Short.MAX_VALUE) {\n"
                + "                    CommitLog.log.warn(\"message properties size exceeded, properties size: \" + storedPropLen);\n"
                + "                    throw new RuntimeException(\"message properties size exceeded\");\n"
                + "                }\n\n"
                + "                final byte[] topicData = messageExtBatch.getTopic().getBytes(MessageDecoder.CHARSET_UTF8);\n");
        patched = replaceOnce(COMMIT_LOG, patched,
            "                        propertiesLen + batchPropLen);\n",
            "                        storedPropLen);\n");
        return replaceOnce(COMMIT_LOG, patched,
            "                this.msgBatchMemory.putShort((short) (propertiesLen + batchPropLen));\n"
                + "                if (propertiesLen > 0) {\n"
                + "                    this.msgBatchMemory.put(messagesByteBuff.array(), propertiesPos, propertiesLen);\n"
                + "                }\n"
                + "                if (batchPropLen > 0) {\n"
                + "                    this.msgBatchMemory.put(batchPropData, 0, batchPropLen);\n"
                + "                }\n",
            "                this.msgBatchMemory.putShort((short) storedPropLen);\n"
                + "                PersistedProperties.putBatchMessage(messagesByteBuff.array(), propertiesPos, propertiesLen, batchPropData,\n"
                + "                    this.msgBatchMemory);\n");
    }

    /**
     * {@code asyncConsumerSendMsgBack} makes the String twice; the first is overwritten before the put
     * (ORIGIN_MESSAGE_ID is added in between), so only the second becomes the trimmed block.
     */
    private static String patchSendBack(String source) {
        String dead = "        MessageAccessor.setProperties(msgInner, msgExt.getProperties());\n"
            + "        msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));\n"
            + "        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(null, msgExt.getTags()));\n";
        String patched = replaceOnce(SEND, source, dead,
            "        MessageAccessor.setProperties(msgInner, msgExt.getProperties());\n"
                + "        // rocketmq-hotpath: the block is made once, below, after ORIGIN_MESSAGE_ID (4.9.0 also made an unused one here)\n"
                + "        msgInner.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(null, msgExt.getTags()));\n");
        return patchSite(SEND, patched, "msgInner.setPropertiesString(MessageDecoder.messageProperties2String(msgExt.getProperties()));", 1);
    }

    /** Replaces {@code count} occurrences of a site's {@code setPropertiesString(messageProperties2String(X))}, adds the import. */
    private static String patchSite(String file, String source, String site, int count) {
        int found = 0;
        for (int at = source.indexOf(site); at >= 0; at = source.indexOf(site, at + 1)) {
            found++;
        }
        if (found != count) {
            throw new DistBuildException(file + ": expected " + count + " x '" + site + "', found " + found);
        }
        String replacement = site.replace("setPropertiesString(MessageDecoder.messageProperties2String(", "setPropertiesBytes(PersistedProperties.messageProperties2Bytes(");
        String replaced = source.replace(site, replacement);
        String patched = replaced.contains(IMPORT) ? replaced : addImport(file, replaced);
        String decoderImport = "import org.apache.rocketmq.common.message.MessageDecoder;\n";
        return CodecPatchGenerator.usedOutsideImportsAndComments(patched, "MessageDecoder") ? patched : patched.replace(decoderImport, "");
    }

    /** Inserts the import in sorted position (upstream's imports are sorted, io.* before java.*). */
    private static String addImport(String file, String source) {
        int at = source.indexOf("\nimport ") + 1;
        if (at == 0) {
            throw new DistBuildException(file + ": no imports");
        }
        while (source.startsWith("import ", at) && source.substring(at, source.indexOf('\n', at) + 1).compareTo(IMPORT) < 0) {
            at = source.indexOf('\n', at) + 1;
        }
        return source.substring(0, at) + IMPORT + source.substring(at);
    }

    private static String replaceOnce(String file, String source, String old, String replacement) {
        int at = source.indexOf(old);
        if (at < 0 || source.indexOf(old, at + 1) >= 0) {
            throw new DistBuildException(file + ": expected exactly one '" + old.strip() + "'; update StorePatchGenerator");
        }
        return source.substring(0, at) + replacement + source.substring(at + old.length());
    }

    /**
     * {@code --store-sources-jar JAR --broker-sources-jar JAR --store-sources DIR --patch FILE --work DIR}:
     * (re)writes FILE, keeping its message if it exists.
     */
    public static void main(String[] args) {
        PatchCommand.run(() -> {
            if (args.length != 10 || !args[0].equals("--store-sources-jar") || !args[2].equals("--broker-sources-jar")
                || !args[4].equals("--store-sources") || !args[6].equals("--patch") || !args[8].equals("--work")) {
                throw new DistBuildException("usage: StorePatchGenerator --store-sources-jar JAR --broker-sources-jar JAR"
                    + " --store-sources DIR --patch FILE --work DIR");
            }
            PatchCommand.regenerate(Path.of(args[7]),
                existing -> generate(Path.of(args[1]), Path.of(args[3]), Path.of(args[5]), existing, Path.of(args[9])));
        });
    }
}
