package io.hotpath.dist.store.shared;

/** Which store and broker a probe drives: selects the release's own site lines where they differ. */
public enum Release {
    /** The patched 4.9.0 distribution's lib/, loaded by {@code PatchedBrokerLoader}; its broker sites run for real. */
    PATCHED_490,
    /** The patched 4.9.8 distribution's lib/, loaded by {@code PatchedBrokerLoader}; its broker sites run for real. */
    PATCHED_498,
    /**
     * rocketmq-store 4.9.8 from Maven Central, loaded by {@code Upstream498StoreLoader} with upstream's broker 4.9.8
     * classes compiled from Central's source release; its broker sites run for real.
     */
    UPSTREAM_498,
    /**
     * The stock 4.9.8 distribution's lib/ (upstream's source release, built by upstream's build), loaded by
     * {@code PatchedBrokerLoader}: upstream's own build of the same sources as {@link #UPSTREAM_498}'s.
     */
    STOCK_498,
    /** The stock 4.9.0 jars of the test classpath: the control that every path differs without the patch. */
    STOCK_490;

    /** A release whose sites store the trimmed block (patch 0003 of its line). */
    public boolean patched() {
        return this == PATCHED_490 || this == PATCHED_498;
    }

    /** Stock 4.9.8, whose normal send removes WAIT from the map, serializes, and puts WAIT back. */
    public boolean stock498() {
        return this == UPSTREAM_498 || this == STOCK_498;
    }
}
