package io.hotpath.dist.store.shared;

import java.util.List;

/** The 32767-byte properties limit on one release's normal send and store put. */
public interface StoreLimit {

    /** Each of {@code clientProperties} through the release's normal send and the store's own {@code asyncPutMessage}. */
    List<LimitPut> putAtLimit(Release release, String root, List<String> clientProperties) throws Exception;
}
