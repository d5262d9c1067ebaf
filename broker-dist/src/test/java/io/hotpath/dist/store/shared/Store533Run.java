package io.hotpath.dist.store.shared;

/**
 * How one 5.3.3 store is configured and what the clock-dependent inputs are, the same for every store compared.
 *
 * @param appendPropCrc {@code MessageStoreConfig#enabledAppendPropCRC}
 * @param lmq {@code enableLmq} and {@code enableMultiDispatch}: the LMQ messages take CommitLog's LMQ append branch
 * @param bornTimestamp the born timestamp of every message a client sent
 * @param timerDeliverMs TIMER_DELIVER_MS of the timer message and the pop check point's revive time (in the future)
 */
public record Store533Run(boolean appendPropCrc, boolean lmq, long bornTimestamp, long timerDeliverMs) {
}
