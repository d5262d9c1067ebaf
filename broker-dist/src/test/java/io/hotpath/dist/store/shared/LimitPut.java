package io.hotpath.dist.store.shared;

/**
 * One put at the properties limit.
 *
 * @param status the store's {@code PutMessageStatus} name
 * @param responseCode what the broker answers the send with ({@code SendMessageProcessor#handlePutMessageResult})
 * @param record the stored record; null when the put was refused
 */
public record LimitPut(String status, int responseCode, byte[] record) {
}
