package io.hotpath.sourcecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Upstream code is a dependency, never copied into ours (not even into tests): no Java file under any module's
 * {@code src/} may share {@value #MINIMUM_RUN} or more consecutive normalized lines ({@link CopyFinder#normalize}) with
 * a Java file of upstream's sources (source releases of 4.9.0, 4.9.8 and 5.3.3, main and test; 5.5.1's and client
 * 5.5.0's -sources jars; see pom.xml). Our code necessarily shares single lines with upstream's (calls of its API, the
 * same field names); five in a row occur in legitimate code ({@code PropertiesEncoder} iterates a map as
 * {@code MessageDecoder} does, so that a hostile map throws the same exception), six did not. A copy that is still a
 * debt is listed, with its reason, in {@value KnownCopies#RESOURCE}.
 */
class NoUpstreamCopiesTest {

    static final int MINIMUM_RUN = 6;

    private static final Path ROOT = Path.of(System.getProperty("hotpath.root", ".."));
    private static final Path UPSTREAM = Path.of(System.getProperty("hotpath.upstream.sources", "target/upstream-sources"));
    /** 4.9.0, 4.9.8, 5.3.3 source releases; 5.5.1 common, remoting, store, broker, controller; client 5.5.0. */
    private static final int ARCHIVES = 9;
    private static final String REPLY_PROCESSOR = "rocketmq-all-5.3.3/broker/src/main/java/org/apache/rocketmq/broker/processor/"
        + "ReplyMessageProcessor.java";

    @Test
    void noFileUnderAModulesSrcSharesARunOfUpstreamLines() {
        CopyFinder finder = new CopyFinder(MINIMUM_RUN);
        List<Path> ours = ourJavaFiles();
        for (Path file : ours) {
            finder.addOurs(ROOT.relativize(file).toString(), read(file));
        }
        List<Path> archives = UpstreamSources.archives(UPSTREAM);
        assertThat(archives).as("upstream source archives in %s", UPSTREAM).hasSize(ARCHIVES);
        int scanned = 0;
        for (Path archive : archives) {
            int files = UpstreamSources.forEachJavaFile(archive, finder::scanUpstream);
            assertThat(files).as("Java files in %s", archive).isGreaterThan(20);
            scanned += files;
        }
        assertThat(ours).as("our Java files under %s/*/src", ROOT).hasSizeGreaterThan(200);
        List<CopyFinder.Run> runs = finder.runs();
        System.out.println("hotpath: " + ours.size() + " files of ours against " + scanned + " upstream files, runs of >= "
            + MINIMUM_RUN + " normalized lines: " + runs.size());
        KnownCopies known = KnownCopies.read();
        List<CopyFinder.Run> unlisted = known.unlisted(runs);
        assertThat(unlisted).as(() -> "lines of ours identical to upstream's (" + MINIMUM_RUN + "+ normalized lines in a row): upstream code"
            + " is a dependency, call it instead:\n" + unlisted.stream().map(Object::toString).collect(Collectors.joining("\n"))).isEmpty();
        assertThat(known.unmatched(runs)).as("entries of %s that nothing matches any more: delete them", KnownCopies.RESOURCE).isEmpty();
    }

    @Test
    void aListedCopyIsAcceptedUpToItsLengthAndInItsFileOnly() {
        KnownCopies known = KnownCopies.parse(
            "# comment\n\na/src/X.java | broker/src/main/java/P.java | 7 | restated for a reason\n");
        CopyFinder.Run run = new CopyFinder.Run("a/src/X.java", 10, 20, 7, "r.zip!rocketmq-all-9/broker/src/main/java/P.java:5");
        assertThat(known.unlisted(List.of(run))).isEmpty();
        assertThat(known.unmatched(List.of(run))).isEmpty();
        CopyFinder.Run longer = new CopyFinder.Run("a/src/X.java", 10, 21, 8, run.upstream());
        assertThat(known.unlisted(List.of(longer))).containsExactly(longer);
        CopyFinder.Run elsewhere = new CopyFinder.Run("a/src/Y.java", 10, 20, 7, run.upstream());
        assertThat(known.unlisted(List.of(elsewhere))).containsExactly(elsewhere);
        CopyFinder.Run otherSource = new CopyFinder.Run("a/src/X.java", 10, 20, 7, "r.zip!rocketmq-all-9/broker/src/main/java/Q.java:5");
        assertThat(known.unlisted(List.of(otherSource))).containsExactly(otherSource);
        assertThat(known.unmatched(List.of())).hasSize(1);
    }

    /**
     * The control, with upstream's own text (never stored here): the switch of 5.3.3's
     * {@code ReplyMessageProcessor#parseRequestHeader} pasted into a file is found from {@value #MINIMUM_RUN} normalized
     * lines on, with its line numbers, and not with one line fewer.
     */
    @Test
    void findsUpstreamLinesPastedIntoAFileFromTheThresholdOn() {
        Path archive = UpstreamSources.archives(UPSTREAM).stream()
            .filter(p -> p.getFileName().toString().equals("rocketmq-all-5.3.3-source-release.zip")).findFirst().orElseThrow();
        String[] replyProcessor = new String[1];
        UpstreamSources.forEachJavaFile(archive, (where, text) -> {
            if (where.endsWith("!" + REPLY_PROCESSOR)) {
                replyProcessor[0] = text;
            }
        });
        assertThat(replyProcessor[0]).as(REPLY_PROCESSOR).isNotNull();
        List<CopyFinder.Line> upstreamLines = CopyFinder.normalize(replyProcessor[0]);
        int start = indexOf(upstreamLines, "switch (request.getCode()) {");
        String[] raw = replyProcessor[0].split("\n", -1);

        for (int run : new int[] {MINIMUM_RUN - 1, MINIMUM_RUN, MINIMUM_RUN + 4}) {
            // raw upstream lines from the switch's to the run-th normalized line, comments and layout included
            int firstRaw = upstreamLines.get(start).number();
            int lastRaw = upstreamLines.get(start + run - 1).number();
            StringBuilder pasted = new StringBuilder("class Pasted {\n    Object ours(Object request) {\n        int code = 0;\n");
            for (int n = firstRaw; n <= lastRaw; n++) {
                pasted.append(raw[n - 1]).append('\n');
            }
            pasted.append("        return null;\n    }\n}\n");
            CopyFinder finder = new CopyFinder(MINIMUM_RUN);
            finder.addOurs("Pasted.java", pasted.toString());
            finder.scanUpstream(archive.getFileName() + "!" + REPLY_PROCESSOR, replyProcessor[0]);
            if (run < MINIMUM_RUN) {
                assertThat(finder.runs()).as("%d lines", run).isEmpty();
            } else {
                assertThat(finder.runs()).as("%d lines", run).singleElement().satisfies(found -> {
                    assertThat(found.normalizedLines()).isEqualTo(run);
                    assertThat(found.first()).isEqualTo(4);
                    assertThat(found.upstream()).endsWith(REPLY_PROCESSOR + ":" + firstRaw);
                });
            }
        }
    }

    @Test
    void normalizingDropsLayoutCommentsImportsAnnotationsAndBraces() {
        String text = String.join("\n",
            "package a.b;",
            "import java.util.Map;",
            "/*",
            " * licence",
            " */",
            "",
            "class A {",
            "    // why",
            "    @Override",
            "    public int x() { /* inline */",
            "        return 1;   ",
            "    }",
            "    /** doc */ int y;",
            "    });",
            "}");
        assertThat(CopyFinder.normalize(text)).containsExactly(
            new CopyFinder.Line(7, "class A {"),
            new CopyFinder.Line(10, "public int x() { /* inline */"),
            new CopyFinder.Line(11, "return 1;"),
            new CopyFinder.Line(13, "int y;"));
    }

    private static int indexOf(List<CopyFinder.Line> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).text().equals(text)) {
                return i;
            }
        }
        throw new AssertionError(text + " not in " + REPLY_PROCESSOR);
    }

    /** Every .java file under a {@code src} folder of any module, outside build output and version control. */
    static List<Path> ourJavaFiles() {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).forEach(p -> {
                Path relative = ROOT.relativize(p);
                boolean underSrc = false;
                for (Path part : relative) {
                    String name = part.toString();
                    if (name.equals("target") || name.startsWith(".")) {
                        return;
                    }
                    underSrc |= name.equals("src");
                }
                if (underSrc) {
                    files.add(p);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }
}
