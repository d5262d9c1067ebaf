package io.hotpath.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs git in a directory that is its own repository, with the user's and the system's git
 * configuration switched off: patches must apply, and regenerate, the same on every machine
 * (no autocrlf, no diff prefixes, no signing, no format-patch signature from someone's ~/.gitconfig).
 */
final class Git {

    record Result(int exitCode, String stdout, String stderr) {

        /** For git apply: "patch failed: <file>:<line>" names the hunk; else its last error line. */
        String applyErrorLine() {
            String last = null;
            for (String line : stderr.split("\n")) {
                if (line.startsWith("error: patch failed: ")) {
                    return line.substring("error: ".length()).strip();
                }
                if (line.startsWith("error: ") || line.startsWith("fatal: ")) {
                    last = line.strip();
                }
            }
            return last != null ? last : firstErrorLine();
        }

        String firstErrorLine() {
            for (String line : (stderr + "\n" + stdout).split("\n")) {
                if (line.startsWith("error:") || line.startsWith("fatal:")) {
                    return line.strip();
                }
            }
            String all = (stderr + stdout).strip();
            return all.isEmpty() ? "git exited with " + exitCode : all.lines().findFirst().orElse("");
        }
    }

    private final Path workTree;
    private final Map<String, String> environment;

    Git(Path workTree, Map<String, String> environment) {
        this.workTree = workTree;
        this.environment = environment;
    }

    Git(Path workTree) {
        this(workTree, Map.of());
    }

    /** {@code git init} here, so that git never walks up into an enclosing repository (ours). */
    void init() {
        check(run("-c", "init.defaultBranch=upstream", "init", "-q"), "git init");
    }

    Result run(String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.add("-c");
        command.add("core.autocrlf=false");
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workTree.toFile());
        Map<String, String> env = builder.environment();
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        // a repository of our own: stop discovery at its parent, whatever the caller's cwd
        env.put("GIT_CEILING_DIRECTORIES", workTree.toAbsolutePath().getParent().toString());
        env.remove("GIT_DIR");
        env.remove("GIT_WORK_TREE");
        env.remove("GIT_INDEX_FILE");
        env.putAll(environment);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            // both streams are small (patch output at most a few hundred KB): read stderr on a thread
            var stderr = new java.util.concurrent.CompletableFuture<String>();
            Thread reader = new Thread(() -> {
                try {
                    stderr.complete(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    stderr.completeExceptionally(e);
                }
            }, "git-stderr");
            reader.start();
            String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            return new Result(exit, stdout, stderr.join());
        } catch (IOException e) {
            throw new DistBuildException("cannot run git (" + e.getMessage() + "): git is needed to apply patches");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistBuildException("interrupted while running git " + String.join(" ", args));
        }
    }

    static Result check(Result result, String what) {
        if (result.exitCode() != 0) {
            throw new DistBuildException(what + " failed: " + result.firstErrorLine());
        }
        return result;
    }
}
