package io.hotpath.e2e;

import java.io.PrintStream;
import java.util.Locale;

/**
 * What an operator sees while a run goes on: progress lines with the seconds since the tool started,
 * and warnings and errors in the {@code hotpath: ...} form every bin/hotpath command uses.
 */
public final class Console {

    private static final long START_NANOS = System.nanoTime();

    private Console() {
    }

    public static void progress(String format, Object... args) {
        line(System.out, String.format(Locale.ROOT, "[%6.1fs] ", elapsedSeconds()) + String.format(Locale.ROOT, format, args));
    }

    public static void warn(String message) {
        line(System.err, "hotpath: warning: " + message);
    }

    public static void error(String message) {
        line(System.err, "hotpath: error: " + message);
    }

    public static double elapsedSeconds() {
        return (System.nanoTime() - START_NANOS) / 1e9;
    }

    // Progress comes from several threads (ticker, shutdown hook, main); whole lines only.
    private static synchronized void line(PrintStream out, String text) {
        out.println(text);
        out.flush();
    }
}
