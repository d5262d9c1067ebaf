package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Compile-time class files for the JDK-internal types an upstream module imports.
 *
 * <p>Why: upstream 4.9.0 was compiled by a JDK 8 javac against rt.jar, where internal types such as
 * {@code sun.nio.ch.DirectBuffer} (rocketmq-store: MappedFile and TransientStorePool call its
 * {@code address()}) are visible. {@code javac --release 8} compiles against the Java SE 8 API data
 * (ct.sym), which has no internal packages, so those files do not compile, and --add-exports is not
 * allowed with release 8. The honest fix is not a hand-written stub and not dropping --release
 * (that would stop javac from checking every other file against the Java 8 API): it puts the JDK's
 * own class files of exactly the imported internal types on the compile classpath. javac then emits
 * the same symbolic reference a JDK 8 javac did (invokeinterface sun/nio/ch/DirectBuffer.address()J),
 * resolved at run time against the running JDK's class: on Java 8 as before, on 17 through the
 * launchers' --add-opens java.base/sun.nio.ch. These class files never reach a jar.
 *
 * <p>Limit: members are those of the building JDK's version of the type. The 4.9.0 sources use
 * only members that Java 8 has too; a patch that calls a newer member would compile and fail on 8.
 */
final class JdkInternals {

    private static final Pattern INTERNAL_IMPORT = Pattern.compile("^import\\s+((?:sun|jdk\\.internal)\\.[\\w.]+\\.[A-Z]\\w*)\\s*;",
        Pattern.MULTILINE);

    private JdkInternals() {
    }

    /** Extracts the imported internal types into {@code dir}; false if the sources import none. */
    static boolean extractImportedBy(Path sources, Path dir) {
        Set<String> types = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(sources)) {
            for (Path file : walk.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = INTERNAL_IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    types.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (types.isEmpty()) {
            return false;
        }
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<String> missing = new ArrayList<>();
        try {
            for (String type : types) {
                String classFile = type.replace('.', '/') + ".class";
                Path found = null;
                try (Stream<Path> modules = Files.list(jrt.getPath("/modules"))) {
                    for (Path module : modules.toList()) {
                        if (Files.exists(module.resolve(classFile))) {
                            found = module.resolve(classFile);
                            break;
                        }
                    }
                }
                if (found == null) {
                    missing.add(type);
                    continue;
                }
                Path target = dir.resolve(classFile);
                Files.createDirectories(target.getParent());
                Files.copy(found, target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!missing.isEmpty()) {
            throw new DistBuildException("upstream sources import JDK internals this JDK does not have: " + missing);
        }
        return true;
    }
}
