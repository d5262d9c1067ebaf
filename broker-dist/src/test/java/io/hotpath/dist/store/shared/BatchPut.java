package io.hotpath.dist.store.shared;

import java.util.LinkedHashMap;
import java.util.List;

/**
 * @param status the store's {@code PutMessageStatus} name
 * @param outerProperties the batch's own properties (the request's, plus CLUSTER), in the map's iteration order
 * @param records one stored record per message of the batch; empty when the put was refused
 */
public record BatchPut(String status, LinkedHashMap<String, String> outerProperties, List<byte[]> records) {
}
