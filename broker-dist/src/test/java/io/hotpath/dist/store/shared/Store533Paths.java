package io.hotpath.dist.store.shared;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every persisting path of one 5.3.3 store (stock or patched distribution), on a fresh store under {@code root}: what
 * {@code io.hotpath.dist.store.probe533.Store533Probe} implements inside that distribution's class loader.
 */
public interface Store533Paths {

    /** Returns the stored record of each path, by label, in the order stored (labels: the probe's class comment). */
    Map<String, Stored533> runAllPaths(String root, Store533Run run) throws Exception;

    /** This loader's {@code MessageDecoder.decode} of a record's properties, in its map's iteration order. */
    LinkedHashMap<String, String> decodeProperties(byte[] record);

    /** Where this loader's {@code MessageExtEncoder} comes from (a jar of the distribution's lib/). */
    String encoderLocation();
}
