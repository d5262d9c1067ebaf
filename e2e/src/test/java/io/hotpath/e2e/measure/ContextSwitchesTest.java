package io.hotpath.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContextSwitchesTest {

    /** The tail of a thread's status file as Linux 5.x/6.x writes it. */
    private static final String STATUS = """
        Name:\tSendMessageThre
        State:\tS (sleeping)
        Tgid:\t4242
        Pid:\t4310
        Cpus_allowed_list:\t0-1
        voluntary_ctxt_switches:\t15321
        nonvoluntary_ctxt_switches:\t87
        """;

    @Test
    void readsBothCountersOfAStatusFile() {
        assertThat(ContextSwitches.parse(STATUS)).isEqualTo(new ContextSwitches(15321, 87));
        assertThat(ContextSwitches.parse(STATUS).total()).isEqualTo(15408);
        assertThat(ContextSwitches.parse("Name:\tx\n")).isEqualTo(ContextSwitches.NONE);
    }

    @Test
    void theWindowIsTheDifferenceAndALowerCounterIsAnotherThread() {
        ContextSwitches start = new ContextSwitches(100, 5);
        ContextSwitches end = new ContextSwitches(160, 9);
        assertThat(end.minus(start)).isEqualTo(new ContextSwitches(60, 4));
        assertThat(end.notBelow(start)).isTrue();
        assertThat(new ContextSwitches(3, 9).notBelow(start)).isFalse();
        assertThat(start.plus(end)).isEqualTo(new ContextSwitches(260, 14));
    }
}
