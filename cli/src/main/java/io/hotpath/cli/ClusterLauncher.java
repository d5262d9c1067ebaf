package io.hotpath.cli;

import io.hotpath.e2e.spec.ChildJvms;
import io.hotpath.e2e.spec.NetMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import sun.misc.Signal;

/**
 * Runs a cluster controller ({@code io.hotpath.e2e.cli.ClusterSmoke} for smoke and run, {@code CampaignCommand} for
 * the campaign, {@code IdleCommand} for idle) in a private network and PID namespace ({@link PrivateNetwork}), and makes sure nothing of the run is
 * left: a Ctrl-C (or SIGTERM, SIGHUP) to this JVM asks the controller to stop (SIGTERM runs its shutdown hook, which
 * stops the cluster by PID) and waits for it; afterwards any process whose command line names this run's directories is
 * killed and the run fails. The controller runs in a session of its own ({@code setsid}), so that a terminal's Ctrl-C
 * reaches this JVM alone and the cluster is stopped in order, by the controller. That session also keeps a SIGKILL of this
 * JVM (or a CI timeout's) from reaching the controller, so the controller's stdin is a pipe whose only write end this JVM
 * holds: when this JVM ends, however it ends, the controller reads end of file and exits, its shutdown hooks stopping the
 * cluster by PID (e2e's {@code LauncherWatchdog}).
 *
 * <p>Exit codes: the controller's; 130 when interrupted; 1 when the controller ended without finishing (it writes its
 * exit code to a file when it finishes) or something of the run was still running.
 */
final class ClusterLauncher {

    static final String SMOKE = "io.hotpath.e2e.cli.ClusterSmoke";
    static final String CAMPAIGN = "io.hotpath.e2e.cli.CampaignCommand";
    static final String IDLE = "io.hotpath.e2e.cli.IdleCommand";
    /** Tells the controller that its stdin is this JVM's pipe, to watch for its end (e2e's LauncherWatchdog.PROPERTY). */
    static final String LAUNCHER_PIPE = "hotpath.e2e.launcherPipe";

    private final Path root;
    private final Path runRoot;

    ClusterLauncher(Path root) {
        this.root = root;
        this.runRoot = root.resolve("e2e/target/e2e");
    }

    /** The controller {@code main} with {@code args}: help without a namespace; else prepared, launched, swept. */
    int run(String main, List<String> args, MavenRun maven) {
        // outside the namespace (Maven needs the network): options checked, lines resolved, distributions built
        String kind = main.equals(CAMPAIGN) ? "campaign" : main.equals(IDLE) ? "idle" : "smoke";
        ClusterPreparation.Launch launch = ClusterPreparation.prepare(root, kind, args, maven);
        if (launch.help()) {
            return exec(javaCommand(main, args, List.of(), controllerClasspath(null)));
        }
        List<String> namespace = launch.privateNetwork() ? PrivateNetwork.unshare(launch.net() == NetMode.REALISTIC) : List.of();
        Path clientHome = claimRunDirectory();
        String stamp = clientHome.getFileName().toString().replaceFirst("-client$", "");
        try {
            List<String> systemProperties = List.of("-XX:+PerfDisableSharedMem", "-Djava.io.tmpdir=" + clientHome.resolve("tmp"),
                "-Duser.home=" + clientHome, "-Dhotpath.e2e.runRoot=" + runRoot, "-Dhotpath.e2e.stamp=" + stamp,
                "-Dhotpath.e2e.exitFile=" + clientHome.resolve("exit-code"), "-D" + LAUNCHER_PIPE + "=stdin");
            List<String> java = javaCommand(main, args, systemProperties, controllerClasspath(clientHome));
            List<String> command = new ArrayList<>();
            if (hasSetsid()) {
                command.add("setsid");
            }
            if (!namespace.isEmpty()) {
                // bash brings up lo, then execs the JVM, which becomes PID 1 of the new PID namespace
                command.addAll(namespace);
                command.addAll(List.of("bash", "-c", "ip link set lo up && exec \"$@\"", "hotpath-smoke"));
            }
            command.addAll(java);
            return launch(command, !namespace.isEmpty(), clientHome, stamp);
        } finally {
            cleanUp(clientHome);
        }
    }

    /**
     * Runs the controller {@code command} (in the namespace when {@code namespaced}) to its end, stops it on a signal to
     * this JVM, sweeps what it left, and maps the outcome to the exit code.
     */
    int launch(List<String> command, boolean namespaced, Path clientHome, String stamp) {
        Process process;
        AtomicReference<String> interrupted = new AtomicReference<>();
        List<Signal> signals = List.of(new Signal("INT"), new Signal("TERM"), new Signal("HUP"));
        // the handlers replace the JVM's (which would exit at once): this JVM stays until the controller has stopped
        AtomicReference<Process> launched = new AtomicReference<>();
        signals.forEach(signal -> Signal.handle(signal, s -> {
            interrupted.compareAndSet(null, "SIG" + s.getName());
            System.err.println("hotpath: SIG" + s.getName() + " received: stopping the cluster");
            Process p = launched.get();
            if (p != null) {
                controller(p, namespaced).ifPresent(ProcessHandle::destroy);
            }
        }));
        try {
            // stdin stays a pipe from this JVM (never written, never closed here): its end tells the controller we are gone
            process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new CommandFailure("cannot start the controller: " + e.getMessage());
        }
        launched.set(process);
        if (interrupted.get() != null) {
            controller(process, namespaced).ifPresent(ProcessHandle::destroy);
        }
        int exit = ChildProcesses.waitFor(process);
        List<Long> leftovers = leftovers(stamp);
        if (!leftovers.isEmpty()) {
            leftovers.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            throw new CommandFailure("processes of this run were still running after the controller exited and were killed: "
                + leftovers);
        }
        boolean finished = Files.exists(clientHome.resolve("exit-code"));
        if (interrupted.get() != null) {
            System.err.println("hotpath: error: interrupted by " + interrupted.get() + "; the cluster was stopped (runs under "
                + runRoot + "/" + stamp + "-*)");
            return 130;
        }
        if (!finished) {
            throw new CommandFailure("the controller JVM ended without finishing (exit " + exit + "; killed?); none of its"
                + " processes is left (runs under " + runRoot + "/" + stamp + "-*)");
        }
        return exit;
    }

    /** The controller JVM: in namespace mode the child of unshare (PID 1 inside), else the process itself. */
    private static Optional<ProcessHandle> controller(Process process, boolean namespaced) {
        if (!namespaced) {
            return Optional.of(process.toHandle());
        }
        Optional<ProcessHandle> child = process.toHandle().children().findFirst();
        return child.isPresent() ? child : Optional.of(process.toHandle());
    }

    /**
     * Processes whose command line names this run's directories ({@code <stamp>-*}, {@code campaign-<stamp>/},
     * {@code idle-<stamp>/}): what the
     * controller could not stop (e.g. it was SIGKILLed with --no-netns). Read from /proc, as pgrep -f does.
     */
    List<Long> leftovers(String stamp) {
        List<String> marks = List.of(runRoot + "/" + stamp + "-", runRoot + "/campaign-" + stamp + "/", runRoot + "/idle-" + stamp + "/");
        long self = ProcessHandle.current().pid();
        List<Long> found = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                long pid = Long.parseLong(proc.getFileName().toString());
                if (pid == self) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    if (marks.stream().anyMatch(cmdline::contains)) {
                        found.add(pid);
                    }
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new CommandFailure("cannot list /proc for processes left by the run: " + e.getMessage());
        }
        return found;
    }

    /** {@code <run root>/<stamp>-client}: a directory of this run alone (mkdir fails if a run started in the same second). */
    private Path claimRunDirectory() {
        try {
            Files.createDirectories(runRoot);
            while (true) {
                String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
                Path home = runRoot.resolve(stamp + "-client");
                try {
                    Files.createDirectory(home);
                    Files.createDirectories(home.resolve("tmp"));
                    return home;
                } catch (java.nio.file.FileAlreadyExistsException taken) {
                    Thread.sleep(1000);
                }
            }
        } catch (IOException e) {
            throw new CommandFailure("cannot create a run directory under " + runRoot + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailure("interrupted");
        }
    }

    /**
     * The controller's class path and each client child JVM's (its jar, the e2e classes it reuses, its rocketmq-client),
     * from copies under {@code clientHome} (a rebuild of a module during the run must not pull classes from under it);
     * with {@code clientHome} null (help) the module jars themselves.
     */
    private Classpaths controllerClasspath(Path clientHome) {
        Path e2eJar = copy(root.resolve("e2e/target/hotpath-e2e.jar"), clientHome);
        String controller = e2eJar + ":" + runtimeClasspath(root.resolve("e2e"));
        List<String> clients = new ArrayList<>();
        for (String name : ChildJvms.CLIENT_MODULES) {
            Path module = root.resolve(name);
            Path jar = copy(module.resolve("target/hotpath-" + name + ".jar"), clientHome);
            clients.add("-D" + ChildJvms.classpathProperty(name) + "=" + jar + ":" + e2eJar + ":" + runtimeClasspath(module));
        }
        return new Classpaths(controller, clients);
    }

    private record Classpaths(String controller, List<String> clientProperties) {
    }

    private static String runtimeClasspath(Path module) {
        Path file = module.resolve("target/runtime-classpath.txt");
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new CommandFailure("module " + module.getFileName() + " is not built (" + file + " missing): bin/hotpath builds it");
        }
    }

    private static Path copy(Path jar, Path clientHome) {
        if (!Files.isRegularFile(jar)) {
            throw new CommandFailure(jar + " is missing: bin/hotpath builds it");
        }
        if (clientHome == null) {
            return jar;
        }
        try {
            return Files.copy(jar, clientHome.resolve(jar.getFileName()));
        } catch (IOException e) {
            throw new CommandFailure("cannot copy " + jar + " into " + clientHome + ": " + e.getMessage());
        }
    }

    private List<String> javaCommand(String main, List<String> args, List<String> runProperties, Classpaths classpaths) {
        List<String> command = new ArrayList<>(List.of(ChildProcesses.java(), "-Xms256m", "-Xmx1g", "-XX:+UseG1GC"));
        command.addAll(ChildJvms.JDK17_FLAGS);
        command.addAll(runProperties);
        command.add("-Dhotpath.root=" + root);
        command.addAll(classpaths.clientProperties());
        command.addAll(List.of("-cp", classpaths.controller(), main));
        command.addAll(args);
        return command;
    }

    private static int exec(List<String> command) {
        try {
            return ChildProcesses.waitFor(new ProcessBuilder(command).inheritIO().start());
        } catch (IOException e) {
            throw new CommandFailure("cannot start " + command.get(0) + ": " + e.getMessage());
        }
    }

    private static boolean hasSetsid() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, "setsid")));
    }

    /** The copies and the run directory's empty leftovers go; logs and results stay. */
    private static void cleanUp(Path clientHome) {
        try (Stream<Path> files = Files.list(clientHome)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jar") || f.getFileName().toString().equals("exit-code")).toList()) {
                Files.deleteIfExists(file);
            }
            for (String dir : List.of("tmp", "logs", "")) {
                Path path = dir.isEmpty() ? clientHome : clientHome.resolve(dir);
                try (Stream<Path> left = Files.isDirectory(path) ? Files.list(path) : Stream.empty()) {
                    if (Files.isDirectory(path) && left.findAny().isEmpty()) {
                        Files.delete(path);
                    }
                }
            }
        } catch (IOException e) {
            System.err.println("hotpath: warning: cannot tidy " + clientHome + ": " + e.getMessage());
        }
    }
}
