package io.hotpath.e2e.cluster;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A runnable RocketMQ broker distribution as broker-dist assembles it:
 * {@code bin/mqnamesrv}, {@code bin/mqbroker} (bash scripts that {@code exec java}, so the PID we
 * start is the JVM's), {@code lib/} and optionally {@code conf/2m-2s-sync/<node>.properties}, whose
 * settings we start from before overriding ports, addresses, roles and store paths.
 */
public final class Distribution {

    private static final String DEFAULT_CONF_DIR = "conf/2m-2s-sync";

    private final String flavor;
    private final String release;
    private final Path home;

    private Distribution(String flavor, String release, Path home) {
        this.flavor = flavor;
        this.release = release;
        this.home = home;
    }

    /**
     * Resolves {@code stock}, {@code patched} (the release line's distribution under
     * {@code <projectRoot>/broker-dist/target/}, see {@link ReleaseLines#distributionHome}) or a directory, which
     * is taken to be of {@code release} too, and checks that it looks like a distribution.
     */
    public static Distribution resolve(String spec, String release, Path projectRoot) {
        if (spec.equals("stock") || spec.equals("patched")) {
            Path home = ReleaseLines.distributionHome(projectRoot, release, spec);
            if (!Files.isDirectory(home)) {
                throw new UsageException("the " + spec + " distribution of " + release + " is not built (" + home
                        + " is missing); build it with bin/hotpath setup");
            }
            return checked(spec, release, home);
        }
        Path home = Path.of(spec).toAbsolutePath().normalize();
        if (!Files.isDirectory(home)) {
            throw new UsageException("--dist must be stock, patched, both or a distribution directory; '" + spec
                    + "' is none of these (no such directory)");
        }
        return checked(home.getFileName().toString(), release, home);
    }

    private static Distribution checked(String flavor, String release, Path home) {
        for (String required : new String[] {"bin/mqnamesrv", "bin/mqbroker", "lib"}) {
            if (!Files.exists(home.resolve(required))) {
                throw new UsageException(home + " is not a RocketMQ distribution (" + required + " is missing)");
            }
        }
        return new Distribution(flavor, release, home);
    }

    public String flavor() {
        return flavor;
    }

    /** The release line this distribution was picked for ({@code --line}). */
    public String release() {
        return release;
    }

    public Path home() {
        return home;
    }

    public Path namesrvScript() {
        return home.resolve("bin/mqnamesrv");
    }

    public Path brokerScript() {
        return home.resolve("bin/mqbroker");
    }

    /** The distribution's own settings for a node (empty when it ships none); callers override on top. */
    public Properties defaultConfig(String node) {
        Properties properties = new Properties();
        Path file = home.resolve(DEFAULT_CONF_DIR).resolve(node + ".properties");
        if (Files.isRegularFile(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
                properties.load(reader);
            } catch (IOException e) {
                throw new ClusterException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return properties;
    }

    /** The patches BUILD-INFO.txt says were applied ({@code patch.N=<file>}), in order; empty for stock. */
    public List<String> patches() {
        Properties info = new Properties();
        Path file = home.resolve("BUILD-INFO.txt");
        if (Files.isRegularFile(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                info.load(reader);
            } catch (IOException e) {
                return List.of();
            }
        }
        List<String> patches = new ArrayList<>();
        for (int i = 1; info.containsKey("patch." + i); i++) {
            patches.add(info.getProperty("patch." + i));
        }
        return patches;
    }

    @Override
    public String toString() {
        return flavor + " (" + home + ")";
    }
}
