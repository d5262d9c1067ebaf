package io.hotpath.e2e.spec;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.UsageException;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
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
    private final ReleaseLine line;
    private final Path home;
    private final List<String> patches;
    /** Laid over every broker's configuration; null for an untuned arm. */
    private final TunedConfig tuning;
    /** The masters run as ASYNC_MASTER: a campaign's floor arm, never a build an operator would run for SYNC_MASTER. */
    private final boolean asyncMasters;

    private Distribution(String flavor, ReleaseLine line, Path home, List<String> patches, TunedConfig tuning,
                         boolean asyncMasters) {
        this.flavor = flavor;
        this.line = line;
        this.home = home;
        this.patches = List.copyOf(patches);
        this.tuning = tuning;
        this.asyncMasters = asyncMasters;
    }

    /** This distribution with {@code tuning} laid over every broker's own settings (a campaign's tuned arm). */
    public Distribution tuned(TunedConfig tuning) {
        return new Distribution(flavor, line, home, patches, tuning, asyncMasters);
    }

    /**
     * This distribution with its masters as ASYNC_MASTER (a send is answered once the master has it; the slave still
     * replicates): the floor of what the replication wait costs a SYNC_MASTER, which no HA lever can go below.
     */
    public Distribution withAsyncMasters() {
        return new Distribution(flavor, line, home, patches, tuning, true);
    }

    /** Whether the masters run as ASYNC_MASTER ({@link #withAsyncMasters}). */
    public boolean asyncMasters() {
        return asyncMasters;
    }

    /** The role the masters run as. */
    public String masterRole() {
        return asyncMasters ? "ASYNC_MASTER" : "SYNC_MASTER";
    }

    /** The overlay of a tuned arm, or null. */
    public TunedConfig tuning() {
        return tuning;
    }

    /**
     * Resolves {@code stock}, {@code patched} (the release line's distribution under
     * {@code <projectRoot>/broker-dist/target/}, see {@link ReleaseLines#distributionHome}) or a directory, which
     * is taken to be of {@code line} too, and checks that it looks like a distribution. The line's stock and patched
     * distributions carry the patches its series lists (none for stock): one whose BUILD-INFO.txt says otherwise is
     * stale and refused. A directory carries what its BUILD-INFO.txt says (the user's own build).
     */
    public static Distribution resolve(String spec, ReleaseLine line, Path projectRoot) {
        if (spec.equals("stock") || spec.equals("patched")) {
            Path home = ReleaseLines.distributionHome(projectRoot, line.release(), spec);
            String stale = staleness(line, spec, home);
            if (stale != null) {
                throw new UsageException("the " + spec + " distribution of " + line.release() + " " + stale
                        + "; build it with bin/hotpath setup (bin/hotpath smoke and run build it themselves)");
            }
            List<String> patches = spec.equals("patched")
                    ? line.patchFiles().stream().map(p -> p.getFileName().toString()).toList() : List.of();
            return checked(spec, line, home, patches);
        }
        Path home = Path.of(spec).toAbsolutePath().normalize();
        if (!Files.isDirectory(home)) {
            throw new UsageException("--dist must be stock, patched, both or a distribution directory; '" + spec
                    + "' is none of these (no such directory)");
        }
        return checked(home.getFileName().toString(), line, home, builtPatches(home));
    }

    /**
     * Why the line's {@code flavor} distribution at {@code home} cannot be run as that line's, or null when it can: it is
     * missing, or its BUILD-INFO.txt names other patches (by file and sha256) than the line's series, in another order
     * (stock: any), e.g. after a patch changed since the distribution was built.
     */
    public static String staleness(ReleaseLine line, String flavor, Path home) {
        if (!Files.isDirectory(home)) {
            return "is not built (" + home + " is missing)";
        }
        Properties info = buildInfo(home);
        if (info == null) {
            return "has no readable BUILD-INFO.txt (" + home + ")";
        }
        if (!line.release().equals(info.getProperty("upstream.version"))) {
            return "was built from upstream " + info.getProperty("upstream.version") + ", not " + line.release();
        }
        List<String> expected = new ArrayList<>();
        if (flavor.equals("patched")) {
            for (Path patch : line.patchFiles()) {
                expected.add(patch.getFileName() + " " + sha256(patch));
            }
        }
        List<String> built = new ArrayList<>();
        for (int i = 1; info.containsKey("patch." + i); i++) {
            built.add(info.getProperty("patch." + i) + " " + info.getProperty("patch." + i + ".sha256"));
        }
        if (!built.equals(expected)) {
            return "is stale: built with patches " + names(built) + ", the line's series has " + names(expected)
                + (names(built).equals(names(expected)) ? " (a patch changed since)" : "");
        }
        return null;
    }

    private static List<String> names(List<String> patches) {
        return patches.stream().map(p -> p.substring(0, p.indexOf(' '))).toList();
    }

    private static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new ClusterException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Properties buildInfo(Path home) {
        Path file = home.resolve("BUILD-INFO.txt");
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Properties info = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            info.load(reader);
        } catch (IOException e) {
            return null;
        }
        return info;
    }

    private static Distribution checked(String flavor, ReleaseLine line, Path home, List<String> patches) {
        for (String required : new String[] {"bin/mqnamesrv", "bin/mqbroker", "lib"}) {
            if (!Files.exists(home.resolve(required))) {
                throw new UsageException(home + " is not a RocketMQ distribution (" + required + " is missing)");
            }
        }
        return new Distribution(flavor, line, home, patches, null, false);
    }

    public String flavor() {
        return flavor;
    }

    /** The release line this distribution was picked for ({@code --line}). */
    public ReleaseLine line() {
        return line;
    }

    /** {@link #line}'s release. */
    public String release() {
        return line.release();
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

    /**
     * The distribution's own settings for a node (empty when it ships none), with a tuned arm's knobs over them;
     * callers override on top (ports, addresses, role, flush and replication: which a tuned configuration cannot set).
     */
    public Properties defaultConfig(String node) {
        Properties own = shippedConfig(node);
        return tuning == null ? own : tuning.over(own);
    }

    private Properties shippedConfig(String node) {
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

    /** The patch files this distribution carries, in the order they were applied (see {@link #resolve}); empty for stock. */
    public List<String> patches() {
        return patches;
    }

    /** The patches BUILD-INFO.txt says were applied ({@code patch.N=<file>}), in order. */
    private static List<String> builtPatches(Path home) {
        Properties info = buildInfo(home);
        List<String> patches = new ArrayList<>();
        for (int i = 1; info != null && info.containsKey("patch." + i); i++) {
            patches.add(info.getProperty("patch." + i));
        }
        return patches;
    }

    @Override
    public String toString() {
        return flavor + (tuning == null ? "" : "+tuned") + " (" + home + ")";
    }
}
