package io.hotpath.dist.store.shared;

import java.util.LinkedHashMap;

/**
 * One CommitLog record as a store wrote it, read back in that store's release.
 *
 * @param bytes the record, TOTALSIZE to the end of the properties block
 * @param properties the release's own {@code MessageDecoder.decode} of it, in the decoded map's iteration order (which
 *     is what tells the release's HashMap order apart); null where that decode leaves the map null
 * @param dispatched what the store's dispatch built from it, read once the store had dispatched everything
 */
public record StoredRecord(byte[] bytes, LinkedHashMap<String, String> properties, Dispatched dispatched) {
}
