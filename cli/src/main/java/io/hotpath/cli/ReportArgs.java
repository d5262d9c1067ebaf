package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of a command that reads result files and writes a report from them, {@code [--out DIR] FILE ...}
 * ({@code verdicts}, {@code lateness}): files relative to the repository, each one that exists.
 *
 * @param help whether -h/--help was given: {@link #parse} printed the usage, the command does nothing else
 */
record ReportArgs(boolean help, Path out, List<Path> files) {

    static ReportArgs parse(Path root, List<String> args, String command, String usage, Path defaultOut) {
        Path out = defaultOut;
        List<Path> files = new ArrayList<>();
        String seeHelp = " (see bin/hotpath " + command + " --help)";
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "-h", "--help" -> {
                    System.out.print(usage);
                    return new ReportArgs(true, out, files);
                }
                case "--out" -> {
                    if (i + 1 == args.size() || args.get(i + 1).startsWith("-")) {
                        throw new UsageException("option --out needs a folder" + seeHelp);
                    }
                    out = root.resolve(args.get(++i));
                }
                default -> {
                    if (arg.startsWith("-")) {
                        throw new UsageException("unknown option '" + arg + "' for " + command + seeHelp);
                    }
                    Path file = root.resolve(arg);
                    if (!Files.isRegularFile(file)) {
                        throw new UsageException("no such file: " + arg);
                    }
                    files.add(file);
                }
            }
        }
        return new ReportArgs(false, out, List.copyOf(files));
    }
}
