/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.lines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hotpath.lines.LineOption.Partial;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --line} and {@code --lines} option: the values it takes, its default, its partial-line rule, its errors. */
class LineOptionTest {

    /** The one main source that may spell the option. */
    private static final Path OWNER = Path.of("release-lines/src/main/java/io/hotpath/lines/LineOption.java");

    @TempDir
    Path patches;

    /** 4.9.0 and 4.9.8 complete, 5.3.3 partial: the newest line is not the default. */
    @BeforeEach
    void lines() throws IOException {
        line("4.9.0", "");
        line("4.9.8", "");
        line("5.3.3", "complete=false\n");
    }

    @Test
    void takesAReleaseBeforeTheCheckoutIsKnownAndRefusesAnythingElseInOneLine() {
        assertThat(LineOption.release("4.9.10")).isEqualTo("4.9.10");
        assertThat(LineOption.release("5")).isEqualTo("5");
        assertThatThrownBy(() -> LineOption.release("latest")).isInstanceOf(ReleaseLineException.class)
            .hasMessage("--line must be a release such as 4.9.0, got 'latest'");
        for (String bad : new String[] {"", "4.9.", "4..9", "v4.9.0", "4.9.0,4.9.8", "../4.9.0", " 4.9.0"}) {
            assertThatThrownBy(() -> LineOption.release(bad)).as("'%s'", bad).isInstanceOf(ReleaseLineException.class)
                .hasMessageStartingWith("--line must be a release such as 4.9.0").hasMessageNotContaining("\n");
        }
    }

    @Test
    void resolvesANamedLineToItsRecordAndNoneToTheNewestCompleteLine() {
        ReleaseLine named = LineOption.resolve("4.9.0", patches, Partial.REFUSED);
        assertThat(named.release()).isEqualTo("4.9.0");
        assertThat(named.dir()).isEqualTo(patches.resolve("4.9.0"));
        // 5.3.3 is newer but partial: whatever the command, the default is complete
        assertThat(LineOption.resolve(null, patches, Partial.REFUSED).release()).isEqualTo("4.9.8");
        assertThat(LineOption.resolve(null, patches, Partial.ACCEPTED).release()).isEqualTo("4.9.8");
    }

    @Test
    void anUnknownReleaseIsOneLineNamingTheKnownLines() {
        for (Partial partial : Partial.values()) {
            assertThatThrownBy(() -> LineOption.resolve("9.9.9", patches, partial)).isInstanceOf(ReleaseLineException.class)
                .hasMessage("unknown release line '9.9.9'; known lines: 4.9.0, 4.9.8, 5.3.3 (patches/<release>/line.properties)");
        }
        assertThatThrownBy(() -> LineOption.resolveOrAll("latest", patches)).isInstanceOf(ReleaseLineException.class)
            .hasMessageStartingWith("unknown release line 'latest'; known lines: 4.9.0, 4.9.8, 5.3.3");
        assertThat(LineOption.known(patches)).containsExactly("4.9.0", "4.9.8", "5.3.3");
        assertThat(LineOption.expected(patches, false)).isEqualTo("a release line (known lines: 4.9.0, 4.9.8, 5.3.3)");
        assertThat(LineOption.expected(patches, true)).isEqualTo("a release line or 'all' (known lines: 4.9.0, 4.9.8, 5.3.3)");
    }

    @Test
    void aPartialLineRunsOnlyWhereTheCommandAcceptsItAndTheRefusalSaysHowToBuildIt() {
        ReleaseLine partial = LineOption.resolve("5.3.3", patches, Partial.ACCEPTED);
        assertThat(partial.release()).isEqualTo("5.3.3");
        assertThat(partial.complete()).isFalse();
        assertThatThrownBy(() -> LineOption.resolve("5.3.3", patches, Partial.REFUSED)).isInstanceOf(ReleaseLineException.class)
            .hasMessage("release line '5.3.3' is partial (complete=false in its line.properties): the end-to-end checks need"
                + " every patch of a line; build and test it with bin/hotpath build-broker --line 5.3.3");
    }

    @Test
    void allIsEveryLinePartialOnesTooWhereACommandAllowsIt() {
        assertThat(LineOption.resolveOrAll(LineOption.ALL, patches)).extracting(ReleaseLine::release)
            .containsExactly("4.9.0", "4.9.8", "5.3.3");
        assertThat(LineOption.resolveOrAll("5.3.3", patches)).extracting(ReleaseLine::release).containsExactly("5.3.3");
        // where all is not allowed it is no release
        assertThatThrownBy(() -> LineOption.resolve(LineOption.ALL, patches, Partial.ACCEPTED))
            .isInstanceOf(ReleaseLineException.class).hasMessageStartingWith("unknown release line 'all'");
        assertThatThrownBy(() -> LineOption.release(LineOption.ALL)).isInstanceOf(ReleaseLineException.class);
    }

    @Test
    void linesNameEachReleaseOnceSeparatedByCommas() {
        assertThat(LineOption.releases("4.9.8, 4.9.0")).containsExactly("4.9.8", "4.9.0");
        assertThat(LineOption.releases("4.9.0")).containsExactly("4.9.0");
        assertThatThrownBy(() -> LineOption.releases("4.9.0,4.9.8,4.9.0")).isInstanceOf(ReleaseLineException.class)
            .hasMessage("--lines names 4.9.0 twice, got '4.9.0,4.9.8,4.9.0'");
        assertThatThrownBy(() -> LineOption.releases("4.9.0, 4.9.0")).isInstanceOf(ReleaseLineException.class)
            .hasMessage("--lines names 4.9.0 twice, got '4.9.0, 4.9.0'");
        for (String bad : new String[] {"", "4.9.0,,4.9.8", "4.9.0;4.9.8", "4.9.0 4.9.8", "4.9.0,", ",4.9.0", "4.9.0,all"}) {
            assertThatThrownBy(() -> LineOption.releases(bad)).as("'%s'", bad).isInstanceOf(ReleaseLineException.class)
                .hasMessage("--lines must be comma-separated releases such as 4.9.0,4.9.8, got '" + bad + "'");
        }
    }

    @Test
    void lineAndLinesAreOneOrTheOtherAndLinesResolveInTheOrderGiven() {
        LineOption.oneOf("4.9.0", List.of());
        LineOption.oneOf(null, List.of("4.9.0"));
        assertThatThrownBy(() -> LineOption.oneOf("4.9.0", List.of("4.9.8"))).isInstanceOf(ReleaseLineException.class)
            .hasMessage("--line and --lines cannot be combined (--lines 4.9.8 already runs stock and patched of each line)");

        assertThat(LineOption.resolve(null, List.of("4.9.8", "4.9.0"), patches, Partial.REFUSED)).extracting(ReleaseLine::release)
            .containsExactly("4.9.8", "4.9.0");
        assertThat(LineOption.resolve("4.9.0", List.of(), patches, Partial.REFUSED)).extracting(ReleaseLine::release)
            .containsExactly("4.9.0");
        assertThat(LineOption.resolve(null, List.of(), patches, Partial.REFUSED)).extracting(ReleaseLine::release)
            .containsExactly("4.9.8");
        assertThatThrownBy(() -> LineOption.resolve(null, List.of("4.9.0", "5.3.3"), patches, Partial.REFUSED))
            .isInstanceOf(ReleaseLineException.class).hasMessageStartingWith("release line '5.3.3' is partial");
    }

    @Test
    void theBuildToolsNameTheDescriptorFolder() {
        assertThat(LineOption.folder(patches.resolve("4.9.8").toString()).release()).isEqualTo("4.9.8");
        assertThat(LineOption.folder(patches.resolve("x/../5.3.3").toString()).dir()).isEqualTo(patches.resolve("5.3.3"));
        assertThatThrownBy(() -> LineOption.folder(patches.resolve("9.9.9").toString())).isInstanceOf(ReleaseLineException.class)
            .hasMessageStartingWith("no release line at ");
    }

    @Test
    void noOtherMainSourceOfTheRepositoryParsesTheOption() throws IOException {
        Path root = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();
        assertThat(root.resolve(OWNER)).as("the option's class in %s", root).isRegularFile();

        assertThat(optionParsers(root)).as("main sources that spell \"--line: parse it with LineOption (case LineOption.LINE)")
            .isEmpty();
    }

    @Test
    void theScanFindsAParserPlantedInAMainSourceOnly(@TempDir Path checkout) throws IOException {
        write(checkout.resolve(OWNER), "class LineOption { static final String LINE = \"--line\"; }\n");
        write(checkout.resolve("cli/src/test/java/io/hotpath/cli/ATest.java"), "run(\"--line\", \"4.9.0\");\n");
        write(checkout.resolve("e2e/target/generated-sources/src/main/java/G.java"), "case \"--line\" -> x;\n");
        write(checkout.resolve("cli/src/main/java/io/hotpath/cli/Usage.java"), "String usage = \"usage: x [--line R]\";\n");
        assertThat(optionParsers(checkout)).isEmpty();

        write(checkout.resolve("cli/src/main/java/io/hotpath/cli/Command.java"), "switch (option) {\n    case \"--line\" -> x;\n}\n");
        write(checkout.resolve("upstream/shaded/src/main/java/Other.java"), "options.get(\"--lines\");\n");
        assertThat(optionParsers(checkout)).containsExactly(
            "cli/src/main/java/io/hotpath/cli/Command.java:2: case \"--line\" -> x;",
            "upstream/shaded/src/main/java/Other.java:1: options.get(\"--lines\");");
    }

    /**
     * Every line of a main source ({@code src/main/java} of any module, build output and hidden folders left out) that
     * holds a string starting with {@code --line}, but the option's own class: {@code path:line: text}.
     */
    static List<String> optionParsers(Path root) throws IOException {
        List<String> found = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.equals(root) ? "" : dir.getFileName().toString();
                return name.equals("target") || name.startsWith(".") ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Path relative = root.relativize(file);
                String path = relative.toString().replace('\\', '/');
                if (path.endsWith(".java") && path.contains("src/main/java/") && !relative.equals(OWNER)) {
                    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                    for (int i = 0; i < lines.size(); i++) {
                        if (lines.get(i).contains("\"--line")) {
                            found.add(path + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
        found.sort(null);
        return found;
    }

    private void line(String release, String extra) throws IOException {
        write(patches.resolve(release).resolve(ReleaseLine.DESCRIPTOR), extra + "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\n"
            + "upstream.tests.modules=common\n");
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
