package io.hotpath.cli;

import io.hotpath.e2e.UsageException;
import io.hotpath.e2e.campaign.Arm;
import io.hotpath.e2e.campaign.CampaignOptions;
import io.hotpath.e2e.idle.IdleOptions;
import io.hotpath.e2e.spec.Distribution;
import io.hotpath.e2e.spec.NetMode;
import io.hotpath.e2e.spec.ReleaseLines;
import io.hotpath.e2e.spec.SmokeOptions;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.TunedConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code bin/hotpath smoke}, {@code run}, {@code campaign} and {@code idle} do before their controller enters its network
 * namespace, where Maven has no network ({@link ClusterLauncher}; alone: {@code bin/hotpath prepare smoke|campaign <options>}):
 * check the options (bad input fails here, before anything is built), resolve the release lines once, and build the
 * distributions the run needs when they are missing or stale ({@link Distribution#staleness}) with broker-dist
 * (upstream's build of the source release, the line's patches on the patched tree, no tests). Only what the run uses
 * is built: the smoke's one line and the flavors it names; the campaign's stock and patched of each of its lines
 * (a partial line only when named).
 */
final class ClusterPreparation {

    private ClusterPreparation() {
    }

    /** What the launcher takes from a run's parsed options: help only, and which network the run gets. */
    record Launch(boolean help, boolean privateNetwork, NetMode net) {
    }

    /** {@code bin/hotpath prepare smoke|campaign <options>}: {@link #prepare} alone, nothing run. */
    static int run(Path root, List<String> args, MavenRun maven) {
        if (args.isEmpty()) {
            throw new UsageException("prepare needs 'smoke', 'campaign' or 'idle', then that command's options");
        }
        prepare(root, args.get(0), args.subList(1, args.size()), maven);
        return 0;
    }

    /** Parses the {@code kind} ("smoke", "campaign" or "idle") run's options once, builds what it needs, and tells the launcher. */
    static Launch prepare(Path root, String kind, List<String> args, MavenRun maven) {
        String[] options = args.toArray(String[]::new);
        Launch launch;
        Map<ReleaseLine, List<String>> needed;
        switch (kind) {
            case "smoke" -> {
                SmokeOptions smoke = SmokeOptions.parse(options);
                launch = new Launch(smoke.help(), smoke.privateNetwork(), smoke.net());
                needed = smoke(root, smoke);
            }
            case "campaign" -> {
                CampaignOptions campaign = CampaignOptions.parse(options);
                launch = new Launch(campaign.help(), campaign.privateNetwork(), campaign.net());
                needed = campaign(root, campaign);
            }
            case "idle" -> {
                IdleOptions idle = IdleOptions.parse(options);
                launch = new Launch(idle.help(), idle.privateNetwork(), NetMode.LOOPBACK);
                needed = idle(root, idle);
            }
            default -> throw new UsageException("prepare takes 'smoke', 'campaign' or 'idle', not '" + kind + "'");
        }
        needed.forEach((line, specs) -> {
            List<String> flavors = stale(line, specs, root);
            if (!flavors.isEmpty()) {
                build(root, line.release(), flavors.size() == 2 ? "both" : flavors.get(0), maven);
            }
        });
        return launch;
    }

    private static Map<ReleaseLine, List<String>> smoke(Path root, SmokeOptions options) {
        if (options.help()) {
            return Map.of();
        }
        return Map.of(options.releaseLine(root), options.distributions());
    }

    private static Map<ReleaseLine, List<String>> campaign(Path root, CampaignOptions options) {
        Map<ReleaseLine, List<String>> needed = new LinkedHashMap<>();
        if (!options.help()) {
            // every line resolved, every tuned arm's configuration read, before the first
            // build: a build takes minutes
            Map<String, ReleaseLine> lines = options.resolvedLines(root);
            options.tunings(lines);
            for (Arm arm : options.arms(lines)) {
                List<String> flavors = needed.computeIfAbsent(lines.get(arm.line()), k -> new ArrayList<>());
                if (!flavors.contains(arm.flavor())) {
                    flavors.add(arm.flavor());
                }
            }
        }
        return needed;
    }

    private static Map<ReleaseLine, List<String>> idle(Path root, IdleOptions options) {
        Map<ReleaseLine, List<String>> needed = new LinkedHashMap<>();
        if (!options.help()) {
            ReleaseLine line = options.releaseLine(root);
            List<String> flavors = new ArrayList<>();
            for (Arm arm : options.arms(line)) {
                if (arm.tuned()) {
                    // a tuned arm of a line without tuned.properties fails here, before a build
                    ReleaseLines.usage(() -> TunedConfig.of(line));
                }
                if (!flavors.contains(arm.flavor())) {
                    flavors.add(arm.flavor());
                }
            }
            needed.put(line, flavors);
        }
        return needed;
    }

    /** The flavors among {@code specs} whose distribution must be built first (a directory is the user's own). */
    static List<String> stale(ReleaseLine line, List<String> specs, Path root) {
        List<String> flavors = new ArrayList<>();
        for (String spec : specs) {
            if (spec.equals("stock") || spec.equals("patched")) {
                String why = Distribution.staleness(line, spec, ReleaseLines.distributionHome(root, line.release(), spec));
                if (why != null) {
                    System.err.println("hotpath: the " + spec + " distribution of " + line.release() + " " + why + ": building it");
                    flavors.add(spec);
                }
            }
        }
        return flavors;
    }

    /**
     * broker-dist's build of the line, Maven's output on the console as it goes (the two trees' builds say every 30 s
     * that they still run). Tests are neither compiled nor run: the distributions are what the run needs, and the
     * upstream trees' test sources cost minutes per tree here (CI and build-broker compile and run them).
     */
    private static void build(Path root, String release, String flavor, MavenRun maven) {
        List<String> arguments = List.of("-pl", "broker-dist", "verify", "-DskipTests", "-Dhotpath.line=" + release,
            "-Dhotpath.flavor=" + flavor, "-Dhotpath.upstream.tests=false", "-Dhotpath.upstream.compileTests=false");
        System.err.println("hotpath: building " + release + " " + flavor + " (mvn " + String.join(" ", arguments)
            + "; a few minutes, ~10 on a fresh clone)");
        long start = System.nanoTime();
        int exit = maven.run(arguments, null, "building the " + release + " distributions");
        if (exit != 0) {
            throw new CommandFailure("building the " + release + " " + flavor + " distributions failed (Maven exit " + exit
                + "; its output is above)");
        }
        System.err.printf("hotpath: built the %s %s distributions in %d s%n", release, flavor, (System.nanoTime() - start) / 1_000_000_000L);
    }
}
