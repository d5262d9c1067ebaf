package io.hotpath.dist;

import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import io.hotpath.lines.ReleaseLineException;
import io.hotpath.lines.TreeSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A line's upstream source tree as one source-release-shaped archive ({@code rocketmq-all-<release>/...}), whatever
 * it is made of: upstream's own source release, copied as Maven Central has it; or, for a release Central has no such
 * archive of ({@link TreeSource#assembled()}), a tree laid out from Central's pieces. Everything downstream
 * ({@link UpstreamTree}, the patch generator, the builds) then reads one kind of input.
 *
 * <p>An assembled tree, from the line's {@link TreeSource}:
 * <ul>
 *   <li>from the skeleton release's archive: the root pom (its version, its {@code <modules>} cut to the listed ones,
 *       its {@code <dependencyManagement>} versions set to those the listed modules' Central poms declare, so that
 *       upstream's enforcer sees the release's own dependency versions), {@code style/}, and each listed module's pom,
 *       of which only the build is kept;</li>
 *   <li>from each module's Central pom (Central's are flattened: no parent, no build): its dependency list, the
 *       tree's own modules at {@code ${project.version}};</li>
 *   <li>from each module's {@code -sources} jar: {@code src/main/java} and {@code src/main/resources} (the jar has no
 *       tests, and Central publishes no test sources of these releases);</li>
 *   <li>from the skeleton, the test classes the line lists for a module ({@code tree.tests.<dir>}) and that module's
 *       {@code src/test/resources};</li>
 *   <li>then the line's {@code tree.edits} diff, if any.</li>
 * </ul>
 * The pom edits are textual (upstream's poms are regular: one project, elements on their own lines); what cannot be
 * found is an error, never skipped.
 */
public final class SourceReleaseAssembly {

    private static final String FETCH_POM = "pom.xml";
    private static final String FETCHED = "central";

    private SourceReleaseAssembly() {
    }

    /**
     * {@code zip}, made for {@code line}: fetched with {@code maven} into {@code work} (Maven's copy skips what is there),
     * and assembled when the line's tree is assembled (every time: seconds, and the descriptor may have changed).
     */
    public static Path obtain(ReleaseLine line, UpstreamMavenBuild maven, Path work, Path zip) {
        Path pom = writeFetchPom(line.tree(), work);
        int files = line.tree().artifacts().size();
        maven.fetch(pom, "the " + line.release() + " line's upstream source from Maven Central (" + files
            + (files == 1 ? " file)" : " files)"));
        return make(line, pom.resolveSibling(FETCHED), work, zip);
    }

    /** From fetched files to the archive: a copy of upstream's source release, or the assembled tree. */
    static Path make(ReleaseLine line, Path fetched, Path work, Path zip) {
        TreeSource tree = line.tree();
        try {
            Files.createDirectories(zip.toAbsolutePath().getParent());
            if (!tree.assembled()) {
                Files.copy(fetched.resolve(fileName(tree.archive())), zip, StandardCopyOption.REPLACE_EXISTING);
                return zip;
            }
            Path root = assemble(line, fetched, work.resolve("assembled"));
            writeZip(root, "rocketmq-all-" + line.release() + "/", zip);
            System.out.println("hotpath: assembled the " + line.release() + " tree from Maven Central (" + tree.modules().size()
                + " modules; deviations: " + String.join(", ", tree.deviations().keySet()) + "): " + zip);
            return zip;
        } catch (IOException e) {
            throw new DistBuildException("cannot make " + zip + ": " + e.getMessage());
        }
    }

    /** A pom whose {@code dependency:copy} fetches the tree's files into {@code work/central}. */
    static Path writeFetchPom(TreeSource tree, Path work) {
        StringBuilder items = new StringBuilder();
        for (String coordinates : tree.artifacts()) {
            String[] c = coordinates.split(":");
            items.append("          <artifactItem><groupId>").append(c[0]).append("</groupId><artifactId>").append(c[1])
                .append("</artifactId><version>").append(c[2]).append("</version><type>").append(c.length > 3 ? c[3] : "jar")
                .append("</type>").append(c.length > 4 ? "<classifier>" + c[4] + "</classifier>" : "").append("</artifactItem>\n");
        }
        String version = UpstreamMavenBuild.DEPENDENCY_PLUGIN.substring(UpstreamMavenBuild.DEPENDENCY_PLUGIN.lastIndexOf(':') + 1);
        String xml = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
            + "  <!-- written by io.hotpath.dist.SourceReleaseAssembly: what a line's upstream tree is made of -->\n"
            + "  <modelVersion>4.0.0</modelVersion>\n"
            + "  <groupId>io.hotpath.fetch</groupId><artifactId>upstream-tree</artifactId><version>0</version>"
            + "<packaging>pom</packaging>\n"
            + "  <build><plugins><plugin>\n"
            + "    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId>"
            + "<version>" + version + "</version>\n"
            + "    <configuration><outputDirectory>${project.basedir}/" + FETCHED + "</outputDirectory><artifactItems>\n"
            + items
            + "    </artifactItems></configuration>\n"
            + "  </plugin></plugins></build>\n"
            + "</project>\n";
        Path pom = work.resolve("fetch").resolve(FETCH_POM);
        try {
            Files.createDirectories(pom.getParent());
            Files.writeString(pom, xml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot write " + pom + ": " + e.getMessage());
        }
        return pom;
    }

    /** The file name {@code dependency:copy} gives an artifact: artifactId-version[-classifier].type */
    static String fileName(String coordinates) {
        String[] c = coordinates.split(":");
        String type = c.length > 3 ? c[3] : "jar";
        return c[1] + "-" + c[2] + (c.length > 4 ? "-" + c[4] : "") + "." + type;
    }

    /** Lays out the assembled tree in {@code dir} (emptied first) and returns its root. */
    static Path assemble(ReleaseLine line, Path fetched, Path dir) throws IOException {
        TreeSource tree = line.tree();
        FileTrees.deleteRecursively(dir);
        Path root = dir.resolve("rocketmq-all-" + line.release());
        Files.createDirectories(root);
        String skeletonVersion = tree.archiveVersion();
        String top = "rocketmq-all-" + skeletonVersion + "/";
        Map<String, String> centralPoms = new LinkedHashMap<>();
        for (TreeSource.CentralModule m : tree.modules()) {
            centralPoms.put(m.dir(), Files.readString(fetched.resolve(fileName(m.pom())), StandardCharsets.UTF_8));
        }
        try (ZipFile skeleton = new ZipFile(fetched.resolve(fileName(tree.archive())).toFile())) {
            String rootPom = text(skeleton, top + "pom.xml");
            rootPom = projectVersion(rootPom, skeletonVersion, line.release(), "the skeleton's root pom");
            rootPom = modules(rootPom, tree.modules().stream().map(TreeSource.CentralModule::dir).toList());
            rootPom = managedVersions(rootPom, declaredVersions(line.release(), tree, centralPoms));
            write(root.resolve("pom.xml"), rootPom);
            Enumeration<? extends ZipEntry> entries = skeleton.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.getName().startsWith(top + "style/") && !e.isDirectory()) {
                    copy(skeleton, e, root.resolve(e.getName().substring(top.length())));
                }
            }
            List<String> ours = tree.modules().stream().map(TreeSource.CentralModule::artifactId).toList();
            for (TreeSource.CentralModule m : tree.modules()) {
                String pom = text(skeleton, top + m.dir() + "/pom.xml");
                pom = projectVersion(pom, skeletonVersion, line.release(), m.dir() + "/pom.xml of the skeleton");
                pom = dependencies(pom, centralPoms.get(m.dir()), ours, m);
                write(root.resolve(m.dir()).resolve("pom.xml"), pom);
                unpackSources(fetched.resolve(fileName(m.sources())), root.resolve(m.dir()).resolve("src/main"));
                copySkeletonTests(skeleton, top, m.dir(), tree.tests().getOrDefault(m.dir(), List.of()), root.resolve(m.dir()));
            }
        }
        if (tree.edits() != null) {
            Path edits = line.dir().resolve(tree.edits());
            if (!Files.isRegularFile(edits)) {
                throw new DistBuildException(line.dir().resolve(ReleaseLine.DESCRIPTOR) + " names tree.edits=" + tree.edits()
                    + ", which is not in " + line.dir());
            }
            // its own repository: git apply inside ours would take paths relative to our root (see UpstreamTree)
            Git git = new Git(root);
            git.init();
            Git.Result result = git.run("apply", "--whitespace=nowarn", edits.toAbsolutePath().toString());
            if (result.exitCode() != 0) {
                throw new DistBuildException(tree.edits() + " does not apply to the assembled " + line.release() + " tree: "
                    + result.applyErrorLine());
            }
            FileTrees.deleteRecursively(root.resolve(".git"));
        }
        return root;
    }

    /**
     * The skeleton's listed test classes of one module, and its test resources (the tests' log and config files): the
     * tests Central does not publish for the release, from the release whose tests we have.
     */
    static void copySkeletonTests(ZipFile skeleton, String top, String dir, List<String> classes, Path module) throws IOException {
        if (classes.isEmpty()) {
            return;
        }
        for (String c : classes) {
            String name = top + dir + "/src/test/java/" + c.replace('.', '/') + ".java";
            ZipEntry e = skeleton.getEntry(name);
            if (e == null) {
                throw new DistBuildException("tree.tests." + dir + " lists " + c + ", which the skeleton does not have (" + name + ")");
            }
            copy(skeleton, e, module.resolve(name.substring((top + dir + "/").length())));
        }
        String resources = top + dir + "/src/test/resources/";
        Enumeration<? extends ZipEntry> entries = skeleton.entries();
        while (entries.hasMoreElements()) {
            ZipEntry e = entries.nextElement();
            if (e.getName().startsWith(resources) && !e.isDirectory()) {
                copy(skeleton, e, module.resolve(e.getName().substring((top + dir + "/").length())));
            }
        }
    }

    /** Every non-RocketMQ dependency version the modules' Central poms declare; a module of the release wins. */
    static Map<String, String> declaredVersions(String release, TreeSource tree, Map<String, String> centralPoms) {
        Map<String, String> versions = new LinkedHashMap<>();
        // the release's own modules last, so that their versions overwrite an older module's
        for (boolean ofRelease : List.of(false, true)) {
            for (TreeSource.CentralModule m : tree.modules()) {
                if (m.version().equals(release) != ofRelease) {
                    continue;
                }
                for (String dependency : blocks(centralPoms.get(m.dir()), "dependency")) {
                    String group = element(dependency, "groupId");
                    String version = element(dependency, "version");
                    if (version != null && !group.equals("org.apache.rocketmq")) {
                        versions.put(group + ":" + element(dependency, "artifactId"), version);
                    }
                }
            }
        }
        return versions;
    }

    /**
     * The project's own version: the one next to {@code <artifactId>rocketmq-all</artifactId>} (the root's, or a module's
     * parent), a {@code <groupId>} between them or not.
     */
    static String projectVersion(String pom, String from, String to, String what) {
        Matcher m = Pattern.compile("<artifactId>rocketmq-all</artifactId>\\s*(<groupId>[^<]*</groupId>\\s*)?<version>"
            + Pattern.quote(from) + "</version>").matcher(pom);
        if (!m.find()) {
            throw new DistBuildException(what + " has no <artifactId>rocketmq-all</artifactId> with <version>" + from + "</version>");
        }
        String found = m.group();
        return pom.substring(0, m.start()) + found.replace("<version>" + from + "</version>", "<version>" + to + "</version>")
            + pom.substring(m.end());
    }

    static String modules(String rootPom, List<String> dirs) {
        Matcher m = Pattern.compile("(?s)(\\n[ \\t]*)<modules>.*?</modules>").matcher(rootPom);
        if (!m.find()) {
            throw new DistBuildException("the skeleton's root pom has no <modules>");
        }
        String indent = m.group(1);
        StringBuilder list = new StringBuilder(indent + "<modules>");
        for (String dir : dirs) {
            list.append(indent).append("    <module>").append(dir).append("</module>");
        }
        list.append(indent).append("</modules>");
        return rootPom.substring(0, m.start()) + list + rootPom.substring(m.end());
    }

    static String managedVersions(String rootPom, Map<String, String> versions) {
        Matcher section = Pattern.compile("(?s)<dependencyManagement>.*?</dependencyManagement>").matcher(rootPom);
        if (!section.find()) {
            throw new DistBuildException("the skeleton's root pom has no <dependencyManagement>");
        }
        Matcher dependency = Pattern.compile("(?s)<dependency>.*?</dependency>").matcher(section.group());
        StringBuilder managed = new StringBuilder();
        while (dependency.find()) {
            String d = dependency.group();
            String version = versions.get(element(d, "groupId") + ":" + element(d, "artifactId"));
            if (version != null) {
                d = d.replaceFirst("<version>[^<]*</version>", Matcher.quoteReplacement("<version>" + version + "</version>"));
            }
            dependency.appendReplacement(managed, Matcher.quoteReplacement(d));
        }
        dependency.appendTail(managed);
        return rootPom.substring(0, section.start()) + managed + rootPom.substring(section.end());
    }

    /** The skeleton module pom's own {@code <dependencies>} replaced by the Central pom's. */
    static String dependencies(String pom, String centralPom, List<String> treeArtifacts, TreeSource.CentralModule m) {
        if (centralPom.contains("<dependencyManagement>") || centralPom.contains("<parent>")) {
            throw new DistBuildException(fileName(m.pom()) + " is not a flattened pom (it has a parent or a dependencyManagement):"
                + " its dependency list is not all it depends on");
        }
        int[] central = projectDependencies(centralPom, fileName(m.pom()));
        String list = centralPom.substring(central[0], central[1]);
        Matcher dependency = Pattern.compile("(?s)<dependency>.*?</dependency>").matcher(list);
        StringBuilder own = new StringBuilder();
        while (dependency.find()) {
            String d = dependency.group();
            if ("org.apache.rocketmq".equals(element(d, "groupId")) && treeArtifacts.contains(element(d, "artifactId"))) {
                d = d.replaceFirst("<version>[^<]*</version>", Matcher.quoteReplacement("<version>${project.version}</version>"));
            }
            dependency.appendReplacement(own, Matcher.quoteReplacement(d));
        }
        dependency.appendTail(own);
        int[] skeleton = projectDependencies(pom, m.dir() + "/pom.xml of the skeleton");
        return pom.substring(0, skeleton[0]) + own + pom.substring(skeleton[1]);
    }

    /** Start and end of the project's {@code <dependencies>} element: the first outside build, profiles and management. */
    static int[] projectDependencies(String pom, String what) {
        List<int[]> nested = new ArrayList<>();
        for (String element : List.of("build", "profiles", "dependencyManagement", "reporting")) {
            Matcher m = Pattern.compile("(?s)<" + element + ">.*?</" + element + ">").matcher(pom);
            while (m.find()) {
                nested.add(new int[] {m.start(), m.end()});
            }
        }
        Matcher m = Pattern.compile("(?s)<dependencies>.*?</dependencies>").matcher(pom);
        while (m.find()) {
            int start = m.start();
            if (nested.stream().noneMatch(r -> r[0] <= start && start < r[1])) {
                return new int[] {m.start(), m.end()};
            }
        }
        throw new DistBuildException(what + " has no <dependencies> of its own");
    }

    static List<String> blocks(String xml, String element) {
        List<String> all = new ArrayList<>();
        Matcher m = Pattern.compile("(?s)<" + element + ">.*?</" + element + ">").matcher(xml);
        while (m.find()) {
            all.add(m.group());
        }
        return all;
    }

    /** The first {@code <name>} directly in {@code block} (before any nested exclusions), or null. */
    static String element(String block, String name) {
        int exclusions = block.indexOf("<exclusions>");
        String head = exclusions < 0 ? block : block.substring(0, exclusions);
        Matcher m = Pattern.compile("<" + name + ">\\s*([^<\\s]+)\\s*</" + name + ">").matcher(head);
        return m.find() ? m.group(1) : null;
    }

    /**
     * What the build that made a {@code -sources} jar added to it, not sources: the manifest, the pom, and the Apache
     * resource bundle's files (the tree's build makes its own; a 5.5.0 module's DEPENDENCIES would name 5.5.0's jars).
     */
    private static final List<String> GENERATED = List.of("META-INF/MANIFEST.MF", "META-INF/DEPENDENCIES", "META-INF/LICENSE",
        "META-INF/NOTICE");

    /** A {@code -sources} jar's files under {@code main}: java/ for .java, resources/ for the rest, no build output. */
    static void unpackSources(Path jar, Path main) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                String name = e.getName();
                if (e.isDirectory() || GENERATED.contains(name) || name.startsWith("META-INF/maven/")) {
                    continue;
                }
                Path target = main.resolve(name.endsWith(".java") ? "java" : "resources").resolve(name).normalize();
                if (!target.startsWith(main)) {
                    throw new DistBuildException(jar.getFileName() + " has an entry outside its tree: " + name);
                }
                copy(zip, e, target);
            }
        }
    }

    /** The tree as a zip under {@code top}, entries sorted and undated: the same tree makes the same bytes. */
    static void writeZip(Path root, String top, Path zip) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        Path partial = zip.resolveSibling(zip.getFileName() + ".partial");
        try (OutputStream out = Files.newOutputStream(partial); ZipOutputStream z = new ZipOutputStream(out)) {
            for (Path file : files) {
                ZipEntry entry = new ZipEntry(top + root.relativize(file).toString().replace('\\', '/'));
                entry.setTime(0);
                z.putNextEntry(entry);
                Files.copy(file, z);
                z.closeEntry();
            }
        }
        Files.move(partial, zip, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String text(ZipFile zip, String name) throws IOException {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null) {
            throw new DistBuildException("the skeleton archive has no " + name);
        }
        try (InputStream in = zip.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void copy(ZipFile zip, ZipEntry entry, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /**
     * {@code fetch-pom --line DIR --work DIR} writes the fetch pom (for a caller with its own Maven: bin/hotpath patches)
     * and prints its path; {@code make --line DIR --work DIR --out ZIP} makes the archive from what that fetched.
     */
    public static void main(String[] args) {
        try {
            if (args.length == 0 || !List.of("fetch-pom", "make").contains(args[0])) {
                throw new DistBuildException("usage: SourceReleaseAssembly fetch-pom|make " + LineOption.LINE + " DIR --work DIR [--out ZIP]");
            }
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            Map<String, String> options = Options.parse(rest, args[0].equals("make") ? List.of(LineOption.LINE, "--work", "--out")
                : List.of(LineOption.LINE, "--work"), "usage: SourceReleaseAssembly " + args[0] + " " + LineOption.LINE + " DIR --work DIR"
                + (args[0].equals("make") ? " --out ZIP" : ""));
            ReleaseLine line = LineOption.folder(options.get(LineOption.LINE));
            Path work = Path.of(options.get("--work")).toAbsolutePath().normalize();
            if (args[0].equals("fetch-pom")) {
                System.out.println(writeFetchPom(line.tree(), work));
            } else {
                make(line, work.resolve("fetch").resolve(FETCHED), work, Path.of(options.get("--out")).toAbsolutePath().normalize());
            }
        } catch (DistBuildException | ReleaseLineException e) {
            System.err.println("hotpath: error: " + e.getMessage());
            System.exit(2);
        }
    }
}
