package io.hotpath.store;

/** Proves the contract: upstream 4.9.8's single-message path passes it. */
class Upstream498PersistedPropertiesContractTest extends PersistedPropertiesContract {
    @Override
    protected PersistedPropertiesImpl impl() {
        return PersistedPropertiesImpl.upstream498();
    }
}
