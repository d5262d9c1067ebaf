package io.hotpath.dist.store.shared;

import java.util.List;
import java.util.Map;

/** Every persisting path of one release's store, on a fresh store under {@code root} (issue #4 item 3(b)). */
public interface StorePaths {

    /**
     * Returns the stored record of each path, by label, in the order stored: {@code send/i} (one per {@code sends}; a
     * DELAY entry sends it through the CommitLog delay branch, so its record is on the schedule topic),
     * {@code batch/i}, {@code sendback-retry} and {@code sendback-dlq} (from the stored {@code send/0}), {@code half},
     * {@code commit}, {@code check-renew}, {@code check-immunity}, {@code check-discard} (the transaction check
     * service's re-puts of the half and its move to TRANS_CHECK_MAX_TIME_TOPIC), {@code resume} (the admin command's
     * re-put of that to the half topic), {@code op} (the commit's op record), {@code offset-moved}, and
     * {@code reput/<topic>/<UNIQ_KEY>} for each schedule re-put (the delayed sends and the retry).
     */
    Map<String, StoredRecord> runAllPaths(Release release, String root, List<String> sends, List<String> batchInner,
        String batchOuter, String halfProperties) throws Exception;
}
