package io.hotpath.dist.store.shared;

/** Which store and broker a probe drives: selects the release's own site lines where they differ. */
public enum Release {
    /** The patched distribution's lib/, loaded by {@code PatchedBrokerLoader}. */
    PATCHED_490,
    /** rocketmq-store 4.9.8 from Maven Central, loaded by {@code Upstream498StoreLoader}; its broker sites are restated. */
    UPSTREAM_498,
    /** The stock 4.9.0 jars of the test classpath: the control that every path differs without the patch. */
    STOCK_490
}
