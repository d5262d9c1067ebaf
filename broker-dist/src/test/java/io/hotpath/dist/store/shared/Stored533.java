package io.hotpath.dist.store.shared;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One CommitLog record as a 5.3.3 store wrote it, read back in that store's loader.
 *
 * @param bytes the record, TOTALSIZE to its end
 * @param properties the loader's own {@code MessageDecoder.decode} of it, in the decoded map's iteration order
 * @param dispatched what the store's dispatch built from it (ConsumeQueue entry, pull, index), read once the store had
 *     dispatched everything
 * @param foundInLmq for a record with INNER_MULTI_DISPATCH in an LMQ store: per LMQ queue, whether a pull of that
 *     queue at the record's INNER_MULTI_QUEUE_OFFSET returns this record; empty otherwise
 */
public record Stored533(byte[] bytes, LinkedHashMap<String, String> properties, Dispatched dispatched,
    Map<String, Boolean> foundInLmq) {
}
