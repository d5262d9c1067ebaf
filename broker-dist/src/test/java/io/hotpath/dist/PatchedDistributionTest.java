package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The patched distribution is the stock one with exactly the jars of the modules the patches touch
 * built from the patched tree instead of the stock one: same files, same launchers and configs, same
 * third-party jars, and upstream jars of untouched modules with the same contents.
 */
class PatchedDistributionTest {

    private static Set<String> rebuiltJarNames() {
        Set<String> names = new TreeSet<>();
        for (String module : PatchSeries.read(BuiltDistributions.patchesDir()).modules()) {
            names.add("lib/" + UpstreamLib.moduleJarName(module, BuiltDistributions.upstreamVersion()));
        }
        return names;
    }

    @Test
    void patchedDiffersFromStockExactlyInTheRebuiltJarsAndBuildInfo() throws IOException {
        Path stock = BuiltDistributions.stock();
        Path patched = BuiltDistributions.patched();
        List<String> files = FileTrees.relativeFiles(stock);
        assertThat(FileTrees.relativeFiles(patched)).isEqualTo(files);

        Set<String> expectedDifferent = new TreeSet<>(rebuiltJarNames());
        expectedDifferent.add("BUILD-INFO.txt");
        Set<String> different = new TreeSet<>();
        for (String file : files) {
            boolean same = isUpstreamModuleJar(file)
                // each tree's build stamps its jars with its own time: compare what they hold
                ? contents(stock.resolve(file)).equals(contents(patched.resolve(file)))
                : Files.mismatch(stock.resolve(file), patched.resolve(file)) == -1;
            if (!same) {
                different.add(file);
            }
        }
        assertThat(rebuiltJarNames()).as("modules touched by patches/").contains("lib/" + UpstreamLib.moduleJarName("common", BuiltDistributions.upstreamVersion()));
        assertThat(different).isEqualTo(expectedDifferent);
    }

    private static boolean isUpstreamModuleJar(String file) {
        return file.startsWith("lib/rocketmq-") && file.endsWith("-" + BuiltDistributions.upstreamVersion() + ".jar");
    }

    /** Entry name -> SHA-256 of its bytes, without pom.properties (Maven writes the build's date into it). */
    private static Map<String, String> contents(Path jar) throws IOException {
        Map<String, String> contents = new TreeMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                if (!entry.getName().endsWith("/pom.properties")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        contents.put(entry.getName(), Digests.sha256(in.readAllBytes()));
                    }
                }
            }
        }
        return contents;
    }

    @Test
    void buildInfoRecordsFlavorVersionAndEveryPatchWithItsSha256() throws IOException {
        Properties stock = buildInfo(BuiltDistributions.stock());
        assertThat(stock.getProperty("flavor")).isEqualTo("stock");
        assertThat(stock.getProperty("upstream.version")).isEqualTo(BuiltDistributions.upstreamVersion());
        assertThat(stock.stringPropertyNames()).noneMatch(k -> k.startsWith("patch."));

        Properties patched = buildInfo(BuiltDistributions.patched());
        assertThat(patched.getProperty("flavor")).isEqualTo("patched");
        assertThat(patched.getProperty("upstream.version")).isEqualTo(BuiltDistributions.upstreamVersion());
        List<PatchSeries.Patch> patches = PatchSeries.read(BuiltDistributions.patchesDir()).patches();
        assertThat(patches).isNotEmpty();
        for (int i = 0; i < patches.size(); i++) {
            assertThat(patched.getProperty("patch." + (i + 1))).isEqualTo(patches.get(i).name());
            assertThat(patched.getProperty("patch." + (i + 1) + ".sha256")).isEqualTo(Digests.sha256(patches.get(i).file()));
        }
        assertThat(patched.getProperty("patch." + (patches.size() + 1))).isNull();
        List<String> rebuilt = new ArrayList<>();
        for (int i = 1; patched.getProperty("rebuilt." + i) != null; i++) {
            String jar = patched.getProperty("rebuilt." + i);
            rebuilt.add(jar);
            assertThat(patched.getProperty("rebuilt." + i + ".sha256"))
                .isEqualTo(Digests.sha256(BuiltDistributions.patched().resolve(jar)));
        }
        assertThat(rebuilt).containsExactlyInAnyOrderElementsOf(rebuiltJarNames());
    }

    @Test
    void rebuiltJarsAreJava8ClassFilesAndKeepEveryStockEntry() throws IOException {
        for (String jar : rebuiltJarNames()) {
            Set<String> stockEntries = entries(BuiltDistributions.stock().resolve(jar));
            Set<String> patchedEntries = entries(BuiltDistributions.patched().resolve(jar));
            assertThat(patchedEntries).as(jar).containsAll(stockEntries);
            try (ZipFile zip = new ZipFile(BuiltDistributions.patched().resolve(jar).toFile())) {
                for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                    ZipEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class")) {
                        assertThat(classFileMajorVersion(zip, entry)).as(entry.getName()).isEqualTo(52);
                    }
                }
            }
        }
    }

    @Test
    void stockJarsBuiltFromTheSourceReleaseHoldEveryEntryOfCentralsJars() throws IOException {
        // the distributions are upstream's build of the source release, not Central's jars: that build must make
        // what Maven Central ships, entry for entry, for every module of which the local repository holds Central's
        // jar (the line's rocketmq-common at least: it is the test classpath's oracle)
        Path repository = Path.of(System.getProperty("hotpath.maven.repo"));
        List<String> compared = new ArrayList<>();
        for (String file : FileTrees.relativeFiles(BuiltDistributions.stock())) {
            if (!isUpstreamModuleJar(file)) {
                continue;
            }
            String jar = file.substring("lib/".length());
            String artifact = jar.substring(0, jar.length() - ("-" + BuiltDistributions.upstreamVersion() + ".jar").length());
            Path central = repository.resolve("org/apache/rocketmq").resolve(artifact)
                .resolve(BuiltDistributions.upstreamVersion()).resolve(jar);
            if (Files.isRegularFile(central)) {
                assertThat(entries(BuiltDistributions.stock().resolve(file))).as(file).containsAll(entries(central));
                compared.add(artifact);
            }
        }
        assertThat(compared).contains("rocketmq-common");
    }

    private static Properties buildInfo(Path dist) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(dist.resolve("BUILD-INFO.txt"))) {
            p.load(in);
        }
        return p;
    }

    private static Set<String> entries(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Set<String> names = new TreeSet<>();
            zip.stream().forEach(e -> names.add(e.getName()));
            return names;
        }
    }

    private static int classFileMajorVersion(ZipFile zip, ZipEntry entry) throws IOException {
        try (InputStream in = zip.getInputStream(entry); DataInputStream data = new DataInputStream(in)) {
            assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }
}
