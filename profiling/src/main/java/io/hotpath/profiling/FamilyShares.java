package io.hotpath.profiling;

import java.util.EnumMap;
import java.util.Map;

/**
 * Samples of one profile (one build, one event, all its brokers merged) counted by
 * {@link FrameFamily}, plus the two counts the reflection check needs.
 */
public final class FamilyShares {

    private final long total;
    private final Map<FrameFamily, Long> byFamily;
    private final long sendPath;
    private final long sendPathHeaderDecodeReflection;

    private FamilyShares(long total, Map<FrameFamily, Long> byFamily, long sendPath, long sendPathHeaderDecodeReflection) {
        this.total = total;
        this.byFamily = byFamily;
        this.sendPath = sendPath;
        this.sendPathHeaderDecodeReflection = sendPathHeaderDecodeReflection;
    }

    public static FamilyShares of(CollapsedStacks profile) {
        long total = 0;
        long sendPath = 0;
        long reflection = 0;
        Map<FrameFamily, Long> byFamily = new EnumMap<>(FrameFamily.class);
        for (FrameFamily family : FrameFamily.values()) {
            byFamily.put(family, 0L);
        }
        for (CollapsedStacks.Stack stack : profile.stacks()) {
            total += stack.count();
            FrameFamily family = FrameFamily.classify(stack.frames());
            if (family != null) {
                byFamily.merge(family, stack.count(), Long::sum);
            }
            if (FrameFamily.isSendPath(stack.frames())) {
                sendPath += stack.count();
                if (FrameFamily.isHeaderDecodeReflection(stack.frames())) {
                    reflection += stack.count();
                }
            }
        }
        return new FamilyShares(total, byFamily, sendPath, reflection);
    }

    public long total() {
        return total;
    }

    public long samples(FrameFamily family) {
        return byFamily.get(family);
    }

    /** Samples in no family. */
    public long other() {
        long classified = 0;
        for (long count : byFamily.values()) {
            classified += count;
        }
        return total - classified;
    }

    /** Samples with a {@code *SendMessageProcessor} frame, whatever family their leaf is in. */
    public long sendPath() {
        return sendPath;
    }

    /** Send-path samples in reflection under {@code decodeCommandCustomHeader} ({@link FrameFamily#isHeaderDecodeReflection}). */
    public long sendPathHeaderDecodeReflection() {
        return sendPathHeaderDecodeReflection;
    }

    /** {@code samples} as a percentage of all samples; 0 for an empty profile. */
    public double percent(long samples) {
        return total == 0 ? 0 : 100.0 * samples / total;
    }
}
