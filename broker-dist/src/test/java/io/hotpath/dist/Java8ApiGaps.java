package io.hotpath.dist;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.codehaus.mojo.animal_sniffer.ClassListBuilder;
import org.codehaus.mojo.animal_sniffer.SignatureChecker;
import org.codehaus.mojo.animal_sniffer.logging.Logger;

/**
 * The references a distribution's jars make to JDK API that Java 8 does not have, found by animal-sniffer's
 * {@link SignatureChecker} with Maven Central's java18 signature ({@code -Dhotpath.java18.signature}, broker-dist/pom.xml).
 * A reference to a class of the distribution's lib/ is not the JDK's and is never reported.
 *
 * <p>Each reference is counted per class, without its line: the patches move upstream's lines, and a class that gains a
 * second call of a method it already called wrongly once has one more, which a set would not show.
 */
final class Java8ApiGaps {

    /** {@code <jar>:<class entry>[:<line> | : Field <name>]: Undefined reference: <member>}, SignatureChecker's error. */
    private static final Pattern UNDEFINED =
        Pattern.compile("^(.+?\\.class)(?::\\d+|: Field \\S+)?: Undefined reference: (.+)$");

    private Java8ApiGaps() {
    }

    /** {@code "<class entry> -> <member>"} -> how often, over {@code jars} (paths relative to {@code dist}). */
    static Map<String, Integer> of(Path dist, Iterable<String> jars) throws IOException {
        Set<String> libClasses = new HashSet<>();
        new ClassListBuilder(libClasses, new Collecting()).process(dist.resolve("lib").toFile());
        Collecting errors = new Collecting();
        SignatureChecker checker;
        try (InputStream signature = Files.newInputStream(java18Signature())) {
            checker = new SignatureChecker(signature, libClasses, errors);
        }
        checker.setSourcePath(Collections.emptyList());
        Map<String, Integer> gaps = new TreeMap<>();
        for (String jar : jars) {
            File file = dist.resolve(jar).toFile();
            if (!file.isFile()) {
                throw new IllegalStateException(file + " does not exist");
            }
            errors.messages.clear();
            checker.process(file);
            String prefix = file.getPath() + ":";
            for (String message : errors.messages) {
                Matcher undefined = UNDEFINED.matcher(message.startsWith(prefix) ? message.substring(prefix.length()) : "");
                if (!undefined.matches()) {
                    throw new IllegalStateException("animal-sniffer: " + message);
                }
                gaps.merge(undefined.group(1) + " -> " + undefined.group(2), 1, Integer::sum);
            }
        }
        return gaps;
    }

    /** What {@code patched} has more of than {@code stock}: {@code "<reference> (stock n, patched m)"}. */
    static List<String> beyond(Map<String, Integer> stock, Map<String, Integer> patched) {
        List<String> more = new ArrayList<>();
        patched.forEach((reference, count) -> {
            int before = stock.getOrDefault(reference, 0);
            if (count > before) {
                more.add(reference + " (stock " + before + ", patched " + count + ")");
            }
        });
        return more;
    }

    private static Path java18Signature() {
        String path = System.getProperty("hotpath.java18.signature");
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("no java18 signature at -Dhotpath.java18.signature=" + path
                + " (broker-dist/pom.xml passes org.codehaus.mojo.signature:java18 from Maven Central)");
        }
        return Path.of(path);
    }

    /** Keeps the errors, drops the rest (ClassListBuilder and SignatureChecker report only errors that matter here). */
    private static final class Collecting implements Logger {
        final List<String> messages = new ArrayList<>();

        @Override
        public void info(String message) {
        }

        @Override
        public void info(String message, Throwable t) {
        }

        @Override
        public void debug(String message) {
        }

        @Override
        public void debug(String message, Throwable t) {
        }

        @Override
        public void warn(String message) {
        }

        @Override
        public void warn(String message, Throwable t) {
        }

        @Override
        public void error(String message) {
            messages.add(message);
        }

        @Override
        public void error(String message, Throwable t) {
            messages.add(message + ": " + t);
        }
    }
}
