/**
 * Store probes: code that drives one release's real {@code DefaultMessageStore} from INSIDE that release's class
 * loader. Compiled against the stock 4.9.0 API on the test classpath, this package is loaded child-first by
 * {@code PatchedBrokerLoader#withProbe()} (linking it to the PATCHED 4.9.0 store and broker) and by
 * {@code Upstream498StoreLoader} (linking it to upstream 4.9.8's store), and used as is for stock 4.9.0. It references
 * no test class outside this package but the shared interfaces, results and helpers of {@code io.hotpath.dist.store.shared}.
 *
 * <p>{@link io.hotpath.dist.store.probe.StoreSiteProbe} runs every persisting path (and says what runs for real and
 * what is restated), {@link io.hotpath.dist.store.probe.PropertiesLimitProbe} the 32767-byte cases,
 * {@link io.hotpath.dist.store.probe.PatchedStoreProbe} patch 0003's own sites.
 */
package io.hotpath.dist.store.probe;
