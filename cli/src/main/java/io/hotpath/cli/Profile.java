package io.hotpath.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;

/**
 * {@code bin/hotpath profile}: async-profiler flame graphs of JMH benchmarks, a live JVM, or both masters of a 2m-2s
 * smoke, and the stock-vs-patched summary. {@code io.hotpath.profiling.ProfileCommand} parses the options and does the
 * work in a JVM of its own (module profiling, built with this command line): the agent library's path and a temporary
 * folder under profiling/target/ are set when it starts. A Ctrl-C reaches that JVM too, which stops by PID whatever it
 * started (JMH, the smoke) and any profiler it left running; this one waits for it.
 */
final class Profile {

    private Profile() {
    }

    static int run(Path root, List<String> args) {
        Path module = root.resolve("profiling");
        Path jar = module.resolve("target/hotpath-profiling-0.1.0-SNAPSHOT.jar");
        Path lib = module.resolve("target/async-profiler/linux-x64/libasyncProfiler.so");
        Path classpathFile = module.resolve("target/runtime-classpath.txt");
        for (Path built : List.of(jar, lib, classpathFile)) {
            if (!Files.isRegularFile(built)) {
                throw new CommandFailure(built + " is missing: bin/hotpath builds the profiling module with the command line");
            }
        }
        String classpath;
        try {
            Files.createDirectories(module.resolve("target/tmp"));
            classpath = jar + ":" + Files.readString(classpathFile, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new CommandFailure("cannot prepare the profiling JVM: " + e.getMessage());
        }
        // -XX:-UsePerfData keeps its perf data out of /tmp
        List<String> command = new ArrayList<>(List.of(ChildProcesses.java(), "-Xmx512m", "-XX:-UsePerfData", "-Djava.io.tmpdir=" + module.resolve("target/tmp"), "-Dhotpath.root=" + root,
            "-Dhotpath.profiler.lib=" + lib, "-cp", classpath, "io.hotpath.profiling.ProfileCommand"));
        command.addAll(args);
        AtomicReference<Process> child = new AtomicReference<>();
        // a terminal's Ctrl-C reaches the child itself; a TERM or HUP sent to this JVM alone is passed on
        Signal.handle(new Signal("INT"), s -> { });
        for (String name : List.of("TERM", "HUP")) {
            Signal.handle(new Signal(name), s -> {
                Process p = child.get();
                if (p != null) {
                    p.destroy();
                }
            });
        }
        try {
            Process process = new ProcessBuilder(command).inheritIO().start();
            child.set(process);
            return ChildProcesses.waitFor(process);
        } catch (IOException e) {
            throw new CommandFailure("cannot start the profiling JVM: " + e.getMessage());
        }
    }
}
