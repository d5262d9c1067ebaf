package io.hotpath.dist.store.shared;

import java.util.LinkedHashMap;
import java.util.List;

/**
 * @param puts one per message, in order
 * @param rePuts the records the schedule service re-put to the topic when the delayed messages came due, in queue order
 */
public record PutsAndRePuts(List<Put> puts, List<byte[]> rePuts) {

    /**
     * @param status the store's {@code PutMessageStatus} name
     * @param record the stored record; null when the put was refused
     * @param mapAfterPut the message's in-memory properties after the put, in the map's own iteration order (a HashMap
     *     copy could have another capacity, so another order)
     */
    public record Put(String status, byte[] record, LinkedHashMap<String, String> mapAfterPut) {
    }
}
