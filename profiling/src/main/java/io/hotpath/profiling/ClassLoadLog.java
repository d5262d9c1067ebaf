package io.hotpath.profiling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM's {@code -Xlog:class+load=info} file: one line per class the JVM loaded, with where its bytes came
 * from, e.g. {@code [1.234s][info][class,load] io.hotpath.codec.header.SendHeaderDecoder533 source:
 * file:/.../lib/rocketmq-broker-5.3.3.jar}. Only the class name and the source are read; the decorations in
 * front may be any (they end with the {@code [class,load]} tag set).
 */
public final class ClassLoadLog {

    /** One loaded class: its binary name and the log's {@code source:} (a URL, or e.g. "shared objects file"). */
    public record Loaded(String className, String source) {

        /** The local file the class came from, when its source is a {@code file:} URL; else null. */
        public Path sourceFile() {
            if (!source.startsWith("file:")) {
                return null;
            }
            try {
                return Path.of(java.net.URI.create(source)).toAbsolutePath().normalize();
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    private static final Pattern LINE = Pattern.compile("\\[class,load\\s*\\] (\\S+) source: (.+)$");

    private ClassLoadLog() {
    }

    /** The loads of {@code className} in the log at {@code file}, in log order. */
    public static List<Loaded> loadsOf(Path file, String className) {
        try {
            return loadsOf(Files.readAllLines(file, StandardCharsets.UTF_8), className);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class-load log " + file + ": " + e.getMessage(), e);
        }
    }

    static List<Loaded> loadsOf(List<String> lines, String className) {
        List<Loaded> loads = new ArrayList<>();
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            if (m.find() && m.group(1).equals(className)) {
                loads.add(new Loaded(m.group(1), m.group(2).strip()));
            }
        }
        return loads;
    }
}
