/**
 * What crosses the class-loader boundary between a test and a store probe: the interfaces a probe implements and the
 * records it returns, made of JDK types only. Loaded once, by the test class loader; {@code PatchedBrokerLoader} and
 * {@code Upstream498StoreLoader} both delegate this package to it, so that a probe linked to the patched 4.9.0 or the
 * 4.9.8 store returns objects of the very classes the test casts to (no {@code Object[]} protocol to unpack).
 * {@link io.hotpath.dist.store.shared.LoopbackStores} is here for the same delegation: it reaches the test kit from any
 * loader. Nothing here may reference a RocketMQ class: each loader has its own copy of those.
 */
package io.hotpath.dist.store.shared;
