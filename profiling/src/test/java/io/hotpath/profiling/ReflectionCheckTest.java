package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;

import io.hotpath.profiling.ReflectionCheck.Expectation;
import org.junit.jupiter.api.Test;

class ReflectionCheckTest {

    static FamilyShares canned(String name) {
        try {
            return FamilyShares.of(CollapsedStacks.read(Path.of(ReflectionCheckTest.class.getResource(name).toURI())));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void countsSendPathSamplesAndTheirHeaderDecodeReflection() {
        FamilyShares stock = canned("stock-broker-cpu.collapsed");

        assertThat(stock.total()).isEqualTo(50);
        assertThat(stock.sendPath()).isEqualTo(15);
        assertThat(stock.sendPathHeaderDecodeReflection()).isEqualTo(3);
    }

    @Test
    void passesStockWhenReflectionIsExpectedPresent() {
        assertThat(ReflectionCheck.verify("stock", canned("stock-broker-cpu.collapsed"), Expectation.PRESENT)).isEmpty();
    }

    @Test
    void passesPatchedWhenReflectionIsExpectedAbsentEvenIfHeartbeatsStillUseIt() {
        FamilyShares patched = canned("patched-broker-cpu.collapsed");

        assertThat(patched.sendPathHeaderDecodeReflection()).isZero();
        assertThat(ReflectionCheck.verify("patched", patched, Expectation.ABSENT)).isEmpty();
    }

    @Test
    void failsWithWhatItFoundWhenTheExpectationIsWrong() {
        assertThat(ReflectionCheck.verify("stock", canned("stock-broker-cpu.collapsed"), Expectation.ABSENT))
            .hasValueSatisfying(m -> assertThat(m).contains("found 3 of 15 send-path samples"));
        assertThat(ReflectionCheck.verify("patched", canned("patched-broker-cpu.collapsed"), Expectation.PRESENT))
            .hasValueSatisfying(m -> assertThat(m).contains("found none in 9 send-path samples"));
    }

    @Test
    void refusesToCallAProfileWithoutSendLoadPresentOrAbsentProof() {
        FamilyShares idle = FamilyShares.of(CollapsedStacks.parse("java/lang/Thread.run_[0];java/lang/Thread.sleep_[j] 10\n"));

        assertThat(ReflectionCheck.verify("idle", idle, Expectation.PRESENT))
            .hasValueSatisfying(m -> assertThat(m).contains("no send-path samples"));
        assertThat(ReflectionCheck.verify("idle", idle, Expectation.ABSENT))
            .hasValueSatisfying(m -> assertThat(m).contains("no send-path samples"));
        assertThat(ReflectionCheck.verify("idle", idle, Expectation.IGNORE)).isEmpty();
    }

    @Test
    void parsesExpectationsCaseInsensitivelyAndRejectsOthers() {
        assertThat(Expectation.parse("--expect", "Absent")).isEqualTo(Expectation.ABSENT);
        assertThatThrownBy(() -> Expectation.parse("--expect", "maybe"))
            .isInstanceOf(UsageException.class)
            .hasMessage("--expect must be present, absent or ignore, got 'maybe'");
    }
}
