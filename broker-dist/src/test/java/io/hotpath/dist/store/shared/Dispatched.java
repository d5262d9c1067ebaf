package io.hotpath.dist.store.shared;

import java.util.Map;

/**
 * What a store's dispatch ({@code ReputMessageService}: ConsumeQueue, IndexService, the schedule topic's delivery time)
 * built from one record, read back through the store's public API. Equal records in two stores must give equal views;
 * the store timestamp and offsets differ between stores, so only what the record decides is kept.
 *
 * @param queueEntryIsThisRecord the ConsumeQueue entry at the record's queue offset holds its physical offset and size;
 *     null: no entry there
 * @param tagsCode that entry's tags code; null on the schedule topic, where the entry holds the delivery time
 * @param deliveryTimeMinusStoreTime on the schedule topic, the entry's delivery time minus the record's store time (the
 *     DELAY level's delay); null elsewhere
 * @param pullStatus {@code getMessage}'s status for one message at the record's queue offset; null: no result
 * @param pulledMessages how many messages that pull returned
 * @param pulledThisRecord it returned exactly one message, at the record's physical offset
 * @param foundByIndex {@code queryMessage} by each non-empty KEYS key ({@code "KEYS " + key}) and by UNIQ_KEY
 *     ({@code "UNIQ_KEY " + id}): whether it finds this record
 */
public record Dispatched(Boolean queueEntryIsThisRecord, Long tagsCode, Long deliveryTimeMinusStoreTime, String pullStatus,
    int pulledMessages, boolean pulledThisRecord, Map<String, Boolean> foundByIndex) {
}
