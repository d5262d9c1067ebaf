package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code target/rocketmq-<version>-<flavor>/}: bin/ (launchers generated from
 * src/main/dist/launcher.sh), conf/ (src/main/dist/conf), lib/ (the upstream classpath, with rebuilt
 * jars in place of stock ones), BUILD-INFO.txt. The layout is a contract the e2e runner codes against.
 *
 * <p>The new tree is built next to the old one and swapped in by renames: a broker that is still
 * running from the old tree keeps its open jars, and nobody sees a half-written distribution.
 * An existing tree with the same files, bytes and modes is left as it is.
 */
public final class DistAssembler {

    /** A generated launcher: file name, what it starts, main class, default heap. */
    record Launcher(String name, String role, String mainClass, String defaultHeap) {
    }

    static final List<Launcher> LAUNCHERS = List.of(
        new Launcher("mqnamesrv", "name server", "org.apache.rocketmq.namesrv.NamesrvStartup", "-Xms1g -Xmx1g"),
        new Launcher("mqbroker", "broker", "org.apache.rocketmq.broker.BrokerStartup", "-Xms1g -Xmx1g"),
        new Launcher("mqadmin", "admin command line (mqadmin)", "org.apache.rocketmq.tools.command.MQAdminStartup",
            "-Xms256m -Xmx256m"));

    /**
     * The JDK this builder and upstream's build of each tree run on (UpstreamMavenBuild passes it on as JAVA_HOME). The
     * tree is compiled with -source/-target 1.8 on it, which links its methods: the oldest Java the distribution runs on.
     */
    static final int BUILD_JAVA = Runtime.version().feature();

    private final Path template;
    private final Path target;
    private final String version;
    private final String storeHome;

    public DistAssembler(Path template, Path target, String version, String storeHome) {
        this.template = template;
        this.target = target;
        this.version = version;
        this.storeHome = storeHome;
    }

    public static String distName(String version, String flavor) {
        return "rocketmq-" + version + "-" + flavor;
    }

    /**
     * Assembles one flavor with {@code lib} (its tree's build) as lib/; {@code buildInfo} lines are appended to
     * BUILD-INFO.txt after flavor and version.
     */
    public Path assemble(String flavor, UpstreamLib lib, List<String> buildInfo) {
        Path dist = target.resolve(distName(version, flavor));
        Path staging = target.resolve("." + dist.getFileName() + ".staging");
        Path previous = target.resolve("." + dist.getFileName() + ".previous");
        FileTrees.deleteRecursively(staging);
        FileTrees.deleteRecursively(previous);
        try {
            writeLaunchers(staging.resolve("bin"));
            copyConf(template.resolve("conf"), staging.resolve("conf"));
            Path libDir = Files.createDirectories(staging.resolve("lib"));
            for (String jar : lib.jarNames()) {
                Files.copy(lib.dir().resolve(jar), libDir.resolve(jar), StandardCopyOption.COPY_ATTRIBUTES);
            }
            StringBuilder info = new StringBuilder()
                .append("# rocketmq-hotpath broker distribution, written by io.hotpath.dist.BrokerDistBuilder\n")
                .append("flavor=").append(flavor).append('\n')
                .append("upstream.version=").append(version).append('\n')
                .append("build.java=").append(BUILD_JAVA).append('\n');
            buildInfo.forEach(line -> info.append(line).append('\n'));
            Files.writeString(staging.resolve("BUILD-INFO.txt"), info, StandardCharsets.UTF_8);

            if (Files.exists(dist)) {
                if (FileTrees.sameFiles(staging, dist)) {
                    // leave a tree that may be in use (an e2e run) alone when nothing changed
                    FileTrees.deleteRecursively(staging);
                    return dist;
                }
                Files.move(dist, previous, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(staging, dist, StandardCopyOption.ATOMIC_MOVE);
            FileTrees.deleteRecursively(previous);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dist;
    }

    private void writeLaunchers(Path bin) throws IOException {
        Files.createDirectories(bin);
        String script = Files.readString(template.resolve("launcher.sh"), StandardCharsets.UTF_8);
        for (Launcher launcher : LAUNCHERS) {
            String text = script
                .replace("@UPSTREAM_VERSION@", version)
                .replace("@ROLE@", launcher.role())
                .replace("@NAME@", launcher.name())
                .replace("@MAIN_CLASS@", launcher.mainClass())
                .replace("@DEFAULT_HEAP@", launcher.defaultHeap())
                .replace("@BUILD_JAVA@", String.valueOf(BUILD_JAVA));
            Path file = bin.resolve(launcher.name());
            Files.writeString(file, text, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private void copyConf(Path from, Path to) throws IOException {
        for (String name : FileTrees.relativeFiles(from)) {
            Path dest = to.resolve(name);
            Files.createDirectories(dest.getParent());
            if (name.endsWith(".properties")) {
                // RocketMQ does not expand ${user.home} in broker properties: write the path at build time
                String text = Files.readString(from.resolve(name), StandardCharsets.UTF_8);
                Files.writeString(dest, text.replace("@USER_HOME@", storeHome), StandardCharsets.UTF_8);
            } else {
                Files.copy(from.resolve(name), dest);
            }
        }
    }
}
