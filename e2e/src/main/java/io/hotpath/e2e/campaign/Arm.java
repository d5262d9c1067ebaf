package io.hotpath.e2e.campaign;

/** One distribution a campaign compares: {@code label} names it in the report ("patched", "4.9.8 stock"). */
public record Arm(String label, String line, String flavor) {
}
