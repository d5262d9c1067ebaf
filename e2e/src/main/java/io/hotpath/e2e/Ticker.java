package io.hotpath.e2e;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Prints a progress line every few seconds while a long phase runs, so that a silent terminal
 * always means a hung tool, never a busy one. Close it when the phase ends.
 */
public final class Ticker implements AutoCloseable {

    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(5);

    private final ScheduledExecutorService scheduler;

    private Ticker(Duration period, Supplier<String> status) {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hotpath-progress");
            t.setDaemon(true);
            return t;
        });
        long millis = period.toMillis();
        scheduler.scheduleAtFixedRate(() -> {
            try {
                Console.progress("%s", status.get());
            } catch (RuntimeException e) {
                // a failing status line must not kill the schedule; the phase reports its own errors
                Console.progress("(progress unavailable: %s)", e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    public static Ticker every(Duration period, Supplier<String> status) {
        return new Ticker(period, status);
    }

    public static Ticker start(Supplier<String> status) {
        return every(DEFAULT_PERIOD, status);
    }

    /** "{@code phase}: N s so far" every 10 s, for a phase that reports nothing of its own until it ends. */
    public static Ticker elapsed(String phase) {
        long start = System.nanoTime();
        return every(Duration.ofSeconds(10), () -> String.format(Locale.ROOT, "%s: %.0f s so far", phase, (System.nanoTime() - start) / 1e9));
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
