package io.hotpath.profiling;

import java.util.Locale;
import java.util.Optional;

/**
 * Asserts what a cpu profile says about upstream's reflective header decoding on the send path:
 * {@code decodeCommandCustomHeader} calling into {@code java/lang/reflect} ({@code Field.set} and
 * friends, see {@link FrameFamily#isHeaderDecodeReflection}). Stock 4.9.0 must show it; a build
 * with the send-header patch must not. Only the send path counts: the patch replaces the decoding
 * of send headers, while other requests (heartbeats, pulls) still decode by reflection.
 *
 * <p>The expectation per build is configurable ({@code present}, {@code absent}, {@code ignore})
 * so that the patched side can be switched on when the header patch lands.
 */
public final class ReflectionCheck {

    public enum Expectation {
        PRESENT, ABSENT, IGNORE;

        public static Expectation parse(String option, String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UsageException(option + " must be present, absent or ignore, got '" + text + "'");
            }
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private ReflectionCheck() {
    }

    /**
     * Empty when {@code cpu} (a cpu profile of one build) meets {@code expected}; otherwise one
     * sentence saying what was found instead.
     */
    public static Optional<String> verify(String build, FamilyShares cpu, Expectation expected) {
        long reflection = cpu.sendPathHeaderDecodeReflection();
        // neither presence nor absence is shown by a profile that caught no send at all
        if (expected != Expectation.IGNORE && cpu.sendPath() == 0) {
            return Optional.of(build + ": no send-path samples at all (" + cpu.total()
                + " samples): was the broker under send load while it was profiled?");
        }
        switch (expected) {
            case PRESENT:
                if (reflection == 0) {
                    return Optional.of(build + ": expected reflection under decodeCommandCustomHeader on the send path, found none in "
                        + cpu.sendPath() + " send-path samples (profile longer, or is the header patch in this build?)");
                }
                return Optional.empty();
            case ABSENT:
                if (reflection > 0) {
                    return Optional.of(build + ": expected no reflection under decodeCommandCustomHeader on the send path, found "
                        + reflection + " of " + cpu.sendPath() + " send-path samples");
                }
                return Optional.empty();
            default:
                return Optional.empty();
        }
    }

    /** What was found and what was expected, for the report. */
    public static String describe(FamilyShares cpu, Expectation expected) {
        return String.format(Locale.ROOT, "%d of %d send-path cpu samples in reflection under decodeCommandCustomHeader"
                + " (expected: %s)", cpu.sendPathHeaderDecodeReflection(), cpu.sendPath(), expected);
    }
}
