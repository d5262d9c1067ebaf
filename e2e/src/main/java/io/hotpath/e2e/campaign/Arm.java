package io.hotpath.e2e.campaign;

/**
 * One distribution a campaign compares: {@code label} names it in the report ("patched", "4.9.8 stock",
 * "patched+tuned"); {@code tuned}: the line's tuned configuration (or the campaign's {@code --tuned} file) is laid
 * over every broker's settings.
 */
public record Arm(String label, String line, String flavor, boolean tuned) {

    /** An untuned arm. */
    public Arm(String label, String line, String flavor) {
        this(label, line, flavor, false);
    }
}
