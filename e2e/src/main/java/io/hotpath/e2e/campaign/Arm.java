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

    /**
     * The arm of {@code kind} (one of {@link CampaignOptions#ARM_KINDS}: a flavor, then "+tuned" and/or "+async") of
     * {@code release}, named {@code label} in the report.
     */
    public static Arm of(String label, String release, String kind) {
        return new Arm(label, release, kind.replace(CampaignOptions.ASYNC_SUFFIX, "").replace(CampaignOptions.TUNED_SUFFIX, ""),
                kind.contains(CampaignOptions.TUNED_SUFFIX), kind.endsWith(CampaignOptions.ASYNC_SUFFIX));
    }

    /** A SYNC_MASTER arm. */
    public Arm(String label, String line, String flavor, boolean tuned) {
        this(label, line, flavor, tuned, false);
    }
}
