package io.hotpath.dist.store.shared;

import java.util.List;

/** Patch 0003's sites in the patched 4.9.0 store: the normal put, the delay branch, the schedule re-put, the batch. */
public interface PatchedStoreSites {

    /**
     * Puts each of {@code clientProperties} (the properties strings a 4.9.0 client sends) as patched 4.9.0's normal send
     * does, with {@code delayLevels} (0 = none), then waits for the schedule service to re-put the delayed ones.
     */
    PutsAndRePuts putAndReadBack(String root, List<String> clientProperties, List<Integer> delayLevels) throws Exception;

    /**
     * Puts one batch as patched 4.9.0's batch send does. {@code innerBlocks}: each message's properties block as its
     * client encoded it (4.9.0 clients end it with a separator, 4.9.1+ clients do not).
     */
    BatchPut putBatchAndReadBack(String root, List<String> innerBlocks, String outerProperties) throws Exception;
}
