package io.hotpath.e2e.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.e2e.measure.ClusterCpuSnapshot;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The control of the idle measurement, on the real /proc of this test JVM: a thread that spins is what the window finds
 * as the largest thread group, under its name without the counter; without it the same check fails. A window that
 * could not find the one busy thread could not find a busy poller in a broker either.
 */
class BusyThreadControlTest {

    private static final String BURNER = "hotpath-burner-7";
    private static final String BURNER_GROUP = "hotpath-burner";

    /** The largest thread group of this JVM over a window of {@code millis}, with a spinning thread or without. */
    private static String largestGroup(boolean burn, long millis) throws InterruptedException {
        long pid = ProcessHandle.current().pid();
        Map<String, Long> pids = Map.of("controller", pid);
        Map<String, String> roles = Map.of("controller", IdleFigures.CONTROLLER);
        AtomicBoolean stop = new AtomicBoolean();
        Thread burner = new Thread(() -> {
            long x = 0;
            while (!stop.get()) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.print("");
            }
        }, BURNER);
        if (burn) {
            burner.start();
        }
        try {
            ClusterCpuSnapshot first = ClusterCpuSnapshot.take(pids);
            Thread.sleep(millis);
            IdleFigures figures = IdleFigures.between(first, ClusterCpuSnapshot.take(pids), roles);
            return figures.roles().get(IdleFigures.CONTROLLER).groups().keySet().iterator().next();
        } finally {
            stop.set(true);
            if (burn) {
                burner.join();
            }
        }
    }

    private static void assertTheBurnerIsFoundFirst(boolean burn) throws InterruptedException {
        assertThat(largestGroup(burn, 1_500)).as("this JVM's largest thread group").isEqualTo(BURNER_GROUP);
    }

    @Test
    void aSpinningThreadIsTheLargestGroupAndWithoutItTheCheckFails() throws InterruptedException {
        assertTheBurnerIsFoundFirst(true);
        // the control: the same assertion, the burner removed
        assertThatThrownBy(() -> assertTheBurnerIsFoundFirst(false)).isInstanceOf(AssertionError.class);
    }
}
