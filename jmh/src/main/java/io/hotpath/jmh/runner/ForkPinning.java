package io.hotpath.jmh.runner;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * Every benchmark fork on one CPU of its own: a JMH {@code -jvm} that is {@code taskset -c <cpu> java}.
 *
 * <p>Why: on this project's 2-CPU virtual machine an unpinned fork's iterations jump by 20-60 % within the fork
 * (e.g. 270 -> 440 ns/op) as the scheduler moves it; pinned, one fork's iterations stay within ~2 % of each other
 * (2026-11-26, the same benchmark and settings), so what error remains is between forks, which more forks average.
 * The last CPU is the fork's; the runner, Maven and the OS keep the others. The fork's JIT and GC threads share its
 * CPU: they run during warm-up, and a young collection stops the benchmark thread anyway.
 *
 * <p>Not pinned: with one CPU, without {@code taskset} on the PATH, with {@code -Djmh.pin=false}, or when the options
 * after {@code --} give {@code -jvm}.
 */
final class ForkPinning {

    static final String WRAPPER = "pinned-java";

    private final int cpu;
    private final Path wrapper;

    private ForkPinning(int cpu, Path wrapper) {
        this.cpu = cpu;
        this.wrapper = wrapper;
    }

    /**
     * The pinning of this run, its wrapper written into {@code dir}; empty when it does not apply.
     *
     * @param setting {@code -Djmh.pin}: empty or "true" pins, "false" does not
     * @param path the PATH to find {@code taskset} on
     */
    static Optional<ForkPinning> of(Path dir, int cpus, String setting, String path, String javaHome) throws IOException {
        String s = setting == null ? "" : setting.trim();
        if (!s.isEmpty() && !s.equals("true") && !s.equals("false")) {
            throw new IllegalArgumentException("-Djmh.pin must be true or false, got '" + setting + "'");
        }
        Optional<Path> taskset = onPath("taskset", path);
        if (s.equals("false") || cpus < 2 || taskset.isEmpty()) {
            return Optional.empty();
        }
        int cpu = cpus - 1;
        Path java = Paths.get(javaHome, "bin", "java");
        Path wrapper = dir.resolve(WRAPPER);
        Files.createDirectories(dir);
        Files.write(wrapper, ("#!/bin/sh\n"
            + "# written by hotpath-jmh (io.hotpath.jmh.runner.ForkPinning): every benchmark fork on CPU " + cpu + "\n"
            + "exec " + quote(taskset.get().toString()) + " -c " + cpu + " " + quote(java.toString()) + " \"$@\"\n")
            .getBytes(StandardCharsets.UTF_8));
        if (!wrapper.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + wrapper + " executable");
        }
        return Optional.of(new ForkPinning(cpu, wrapper));
    }

    Path wrapper() {
        return wrapper;
    }

    /** For the summary's header. */
    String describe(int cpus) {
        return "every fork pinned to CPU " + cpu + " of " + cpus + " (taskset; -Djmh.pin=false runs them unpinned)";
    }

    static Optional<Path> onPath(String program, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Paths.get(dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
