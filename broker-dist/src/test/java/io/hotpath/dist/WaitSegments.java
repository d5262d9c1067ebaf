package io.hotpath.dist;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The store comparisons' oracle for "upstream's properties block minus its WAIT segments", stated once for every line:
 * split at {@code \2}, drop each segment starting with {@code WAIT\1} together with one separator (the following one,
 * or for a last segment the nearest preceding one not taken already), keep everything else byte for byte. Whether a
 * trailing separator goes too is the line's rule, not this one's.
 */
final class WaitSegments {

    private static final byte SEP = 2;
    private static final byte[] WAIT_PREFIX = "WAIT\1".getBytes(StandardCharsets.US_ASCII);

    private WaitSegments() {
    }

    static byte[] removed(byte[] block) {
        List<int[]> segments = new ArrayList<>(); // [start, end) between separators
        int start = 0;
        for (int i = 0; i <= block.length; i++) {
            if (i == block.length || block[i] == SEP) {
                segments.add(new int[] {start, i});
                start = i + 1;
            }
        }
        boolean[] dropSegment = new boolean[segments.size()];
        boolean[] dropSeparator = new boolean[block.length];
        for (int s = 0; s < segments.size(); s++) {
            int[] seg = segments.get(s);
            if (seg[1] - seg[0] >= WAIT_PREFIX.length
                && Arrays.equals(block, seg[0], seg[0] + WAIT_PREFIX.length, WAIT_PREFIX, 0, WAIT_PREFIX.length)) {
                dropSegment[s] = true;
                if (seg[1] < block.length) {
                    dropSeparator[seg[1]] = true;
                } else {
                    // the last segment: the nearest separator before it that a WAIT segment has not taken already
                    for (int p = seg[0] - 1; p >= 0; p--) {
                        if (block[p] == SEP && !dropSeparator[p]) {
                            dropSeparator[p] = true;
                            break;
                        }
                    }
                }
            }
        }
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        for (int s = 0; s < segments.size(); s++) {
            int[] seg = segments.get(s);
            if (!dropSegment[s]) {
                kept.write(block, seg[0], seg[1] - seg[0]);
            }
            if (seg[1] < block.length && !dropSeparator[seg[1]]) {
                kept.write(SEP);
            }
        }
        return kept.toByteArray();
    }
}
