package io.hotpath.e2e.campaign;

/**
 * One distribution a campaign compares: {@code label} names it in the report ("patched", "4.9.8 stock",
 * "patched+tuned"); {@code tuned}: the line's tuned configuration (or the campaign's {@code --tuned} file) is laid
 * over every broker's settings; {@code asyncMasters}: the masters run as ASYNC_MASTER, a floor arm ("patched+tuned+async"):
 * what a master costs when it waits for no slave, which no HA lever of a SYNC_MASTER can go below.
 */
public record Arm(String label, String line, String flavor, boolean tuned, boolean asyncMasters) {

    /** An untuned arm. */
    public Arm(String label, String line, String flavor) {
        this(label, line, flavor, false, false);
    }

    /** A SYNC_MASTER arm. */
    public Arm(String label, String line, String flavor, boolean tuned) {
        this(label, line, flavor, tuned, false);
    }
}
