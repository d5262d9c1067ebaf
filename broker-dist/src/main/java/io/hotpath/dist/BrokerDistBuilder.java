package io.hotpath.dist;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the stock and the patched Apache RocketMQ broker distribution from Maven Central
 * artifacts only (run by Maven in broker-dist's process-classes phase; see broker-dist/pom.xml).
 *
 * <p>Patched: lay out the upstream tree of the modules the patches touch from their -sources jars,
 * {@code git apply} every patch in name order, compile each touched module whole with
 * {@code javac --release 8} against its own upstream classpath, jar it, and assemble a copy of the
 * stock distribution with the rebuilt jars in place of the stock ones.
 *
 * <p>Every failure ends in one {@code hotpath: error: ...} line on stderr and exit code 2.
 */
public final class BrokerDistBuilder {

    private static final String USAGE = "usage: BrokerDistBuilder --flavor stock|patched|both --upstream-version V"
        + " --patches DIR --upstream-lib DIR --upstream-sources DIR --dist-template DIR --target DIR [--store-home DIR]";

    private final Map<String, String> options;

    private BrokerDistBuilder(Map<String, String> options) {
        this.options = options;
    }

    public static void main(String[] args) {
        try {
            new BrokerDistBuilder(parse(args)).build();
        } catch (DistBuildException e) {
            System.err.println("hotpath: error: " + e.getMessage());
            System.exit(2);
        } catch (RuntimeException e) {
            System.err.println("hotpath: error: broker-dist builder failed unexpectedly: " + e);
            e.printStackTrace();
            System.exit(2);
        }
    }

    static Map<String, String> parse(String[] args) {
        List<String> known = List.of("--flavor", "--upstream-version", "--patches", "--upstream-lib",
            "--upstream-sources", "--dist-template", "--target", "--store-home");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("--store-home", System.getProperty("user.home"));
        for (int i = 0; i < args.length; i += 2) {
            if (!known.contains(args[i])) {
                throw new DistBuildException("unknown option '" + args[i] + "'; " + USAGE);
            }
            if (i + 1 >= args.length) {
                throw new DistBuildException("option " + args[i] + " needs a value; " + USAGE);
            }
            options.put(args[i], args[i + 1]);
        }
        for (String option : known) {
            if (!options.containsKey(option)) {
                throw new DistBuildException("missing option " + option + "; " + USAGE);
            }
        }
        String flavor = options.get("--flavor");
        if (!List.of("stock", "patched", "both").contains(flavor)) {
            throw new DistBuildException("unknown flavor '" + flavor + "' (expected stock, patched or both)");
        }
        return options;
    }

    private Path path(String option) {
        return Path.of(options.get(option)).toAbsolutePath().normalize();
    }

    private void build() {
        String version = options.get("--upstream-version");
        String flavor = options.get("--flavor");
        Path target = path("--target");
        UpstreamLib lib = UpstreamLib.at(path("--upstream-lib"), version);
        lib.verifyIsRecordedServerClasspath();
        DistAssembler assembler = new DistAssembler(path("--dist-template"), target, version,
            options.get("--store-home"), lib);

        if (!flavor.equals("patched")) {
            Path dist = assembler.assemble("stock", Map.of(), List.of());
            System.out.println("hotpath: stock distribution:   " + dist);
        }
        if (!flavor.equals("stock")) {
            Path dist = buildPatched(version, target, lib, assembler);
            System.out.println("hotpath: patched distribution: " + dist);
        }
    }

    /**
     * The touched modules, each after the touched modules it depends on (its recorded 4.9.0
     * classpath), so that each compiles against the patched jars of those: broker after store and
     * common. Otherwise in patch order.
     */
    static List<String> buildOrder(java.util.Collection<String> modules, UpstreamLib lib) {
        List<String> order = new ArrayList<>();
        java.util.Set<String> visiting = new java.util.HashSet<>();
        for (String module : modules) {
            visit(module, modules, lib, order, visiting);
        }
        return order;
    }

    private static void visit(String module, java.util.Collection<String> modules, UpstreamLib lib, List<String> order,
                              java.util.Set<String> visiting) {
        if (order.contains(module)) {
            return;
        }
        if (!visiting.add(module)) {
            throw new DistBuildException("patched modules depend on each other in a cycle through " + module);
        }
        java.util.Set<String> deps = new java.util.HashSet<>();
        for (Path jar : lib.moduleClasspath(module)) {
            deps.add(jar.getFileName().toString());
        }
        for (String other : modules) {
            if (!other.equals(module) && deps.contains(lib.moduleJar(other).getFileName().toString())) {
                visit(other, modules, lib, order, visiting);
            }
        }
        order.add(module);
    }

    private Path buildPatched(String version, Path target, UpstreamLib lib, DistAssembler assembler) {
        Path patchesDir = path("--patches");
        PatchSeries series = PatchSeries.read(patchesDir);
        if (series.patches().isEmpty()) {
            throw new DistBuildException("no *.patch files in " + patchesDir + ": a patched distribution would equal stock");
        }
        for (String module : series.modules()) {
            lib.moduleJar(module); // fails early, naming the module, if it is not on the broker classpath
        }

        UpstreamSourceTree tree = UpstreamSourceTree.create(target.resolve("upstream-src").resolve("rocketmq-all-" + version));
        for (String module : series.modules()) {
            tree.addModule(module, path("--upstream-sources").resolve("rocketmq-" + module + "-" + version + "-sources.jar"));
        }
        List<String> buildInfo = new ArrayList<>();
        int n = 0;
        for (PatchSeries.Patch patch : series.patches()) {
            tree.apply(patch);
            n++;
            buildInfo.add("patch." + n + "=" + patch.name());
            buildInfo.add("patch." + n + ".sha256=" + patch.sha256());
            System.out.println("hotpath: applied " + patch.name() + " (" + patch.paths().size() + " files, modules "
                + patch.modules() + ")");
        }

        ModuleJarBuilder jars = new ModuleJarBuilder(lib, target.resolve("upstream-build"));
        Map<String, Path> replacements = new HashMap<>();
        n = 0;
        for (String module : buildOrder(series.modules(), lib)) {
            long start = System.nanoTime();
            List<PatchSeries.Patch> touching = series.patches().stream().filter(p -> p.modules().contains(module)).toList();
            Path jar = jars.build(tree, module, touching, replacements);
            replacements.put(jar.getFileName().toString(), jar);
            n++;
            buildInfo.add("rebuilt." + n + "=lib/" + jar.getFileName());
            buildInfo.add("rebuilt." + n + ".sha256=" + Digests.sha256(jar));
            buildInfo.add("rebuilt." + n + ".patches=" + String.join(" ", touching.stream().map(PatchSeries.Patch::name).toList()));
            System.out.printf("hotpath: rebuilt lib/%s with javac --release 8 in %.1f s%n", jar.getFileName(),
                (System.nanoTime() - start) / 1e9);
        }
        return assembler.assemble("patched", replacements, buildInfo);
    }
}
