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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TunedConfigTest {

    @TempDir
    Path dir;

    @Test
    void laysItsKnobsOverABaseWithoutChangingTheBase() throws IOException {
        TunedConfig tuned = TunedConfig.load(Files.writeString(dir.resolve("t.properties"),
            "# why: a measurement\nserverNettyWorkerGroupEnable = false\nsendMessageThreadPoolNums=2\n"));
        Properties base = new Properties();
        base.setProperty("sendMessageThreadPoolNums", "1");
        base.setProperty("deleteWhen", "04");

        Properties over = tuned.over(base);

        assertThat(over).containsEntry("sendMessageThreadPoolNums", "2").containsEntry("deleteWhen", "04")
            .containsEntry("serverNettyWorkerGroupEnable", "false");
        assertThat(base).containsEntry("sendMessageThreadPoolNums", "1").doesNotContainKey("serverNettyWorkerGroupEnable");
        assertThat(tuned.knobs()).containsExactly(Map.entry("sendMessageThreadPoolNums", "2"),
            Map.entry("serverNettyWorkerGroupEnable", "false"));
        assertThat(tuned.describe()).isEqualTo("sendMessageThreadPoolNums=2, serverNettyWorkerGroupEnable=false");
    }

    @Test
    void refusesEveryKeyThatDecidesWhatSendOkPromises() throws IOException {
        for (String key : TunedConfig.GUARANTEES) {
            Path file = Files.writeString(dir.resolve(key + ".properties"), "sendMessageThreadPoolNums=2\n" + key + "=x\n");
            assertThatThrownBy(() -> TunedConfig.load(file)).isInstanceOf(ReleaseLineException.class)
                .hasMessageContaining(" sets " + key + ", which decides what SEND_OK promises")
                .message().doesNotContain("\n");
        }
        assertThat(TunedConfig.GUARANTEES).contains("brokerRole", "flushDiskType", "inSyncReplicas", "totalReplicas");
    }

    @Test
    void refusesAnEmptyOrMissingFileAndALineWithoutOneInOneLine() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.properties"), "# nothing yet\n");
        assertThatThrownBy(() -> TunedConfig.load(empty)).hasMessageEndingWith("sets no knob: a tuned arm would equal its untuned one");
        assertThatThrownBy(() -> TunedConfig.load(dir.resolve("none.properties")))
            .hasMessage("no tuned configuration at " + dir.resolve("none.properties"));
        Path lineDir = Files.createDirectories(dir.resolve("4.9.0"));
        Files.writeString(lineDir.resolve(ReleaseLine.DESCRIPTOR), "release=4.9.0\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:4.9.0:zip:source-release\n"
            + "oracle=org.apache.rocketmq:4.9.0\nupstream.tests.modules=common\n");
        ReleaseLine line = ReleaseLine.load(lineDir);
        assertThat(TunedConfig.shipped(line)).isFalse();
        assertThatThrownBy(() -> TunedConfig.of(line)).isInstanceOf(ReleaseLineException.class)
            .hasMessageStartingWith("release line 4.9.0 has no tuned.properties");
        Files.writeString(lineDir.resolve(TunedConfig.FILE), "sendMessageThreadPoolNums=2\n");
        assertThat(TunedConfig.shipped(line)).isTrue();
        assertThat(TunedConfig.of(line).knobs()).containsOnlyKeys("sendMessageThreadPoolNums");
    }

    @Test
    void everyKnobAShippedLineTunesNamesTheMeasurementThatPutItThere() throws IOException {
        Path root = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();
        try (java.util.stream.Stream<Path> lines = Files.list(root.resolve("patches"))) {
            for (Path line : lines.filter(Files::isDirectory).sorted().toList()) {
                Path tuned = line.resolve(TunedConfig.FILE);
                if (Files.isRegularFile(tuned)) {
                    assertThat(TunedConfig.load(tuned).knobs()).as("%s", tuned).isNotEmpty();
                    assertThat(unmeasuredKnobs(tuned, root)).as("%s", tuned).isEmpty();
                }
            }
        }
        // a line may ship none; theMeasurementCheckRejectsAKnobWithoutOneOrWithAMissingFile is this check's control
    }

    @Test
    void theMeasurementCheckRejectsAKnobWithoutOneOrWithAMissingFile() throws IOException {
        Files.createDirectories(dir.resolve("docs/results"));
        Files.writeString(dir.resolve("docs/results/screen.md"), "a report\n");
        Path tuned = Files.writeString(dir.resolve("t.properties"), "# measured: docs/results/screen.md\na=1\n"
            + "# only a reason\nb=2\n\n# measured: docs/results/gone.md\nc=3\n");

        assertThat(unmeasuredKnobs(tuned, dir)).containsExactly("b", "c");
    }

    /**
     * The knobs of a tuned file whose comment block right above them names no existing result file in a line
     * "measured: docs/results/...".
     */
    private static java.util.List<String> unmeasuredKnobs(Path tuned, Path root) throws IOException {
        java.util.List<String> unmeasured = new java.util.ArrayList<>();
        String measured = null;
        for (String raw : Files.readAllLines(tuned)) {
            String line = raw.trim();
            if (line.isEmpty()) {
                measured = null;
            } else if (line.startsWith("#")) {
                int at = line.indexOf("measured: docs/results/");
                if (at >= 0) {
                    measured = line.substring(at + "measured: ".length()).trim();
                }
            } else {
                String key = line.split("[=:\\s]", 2)[0];
                if (measured == null || !Files.isRegularFile(root.resolve(measured))) {
                    unmeasured.add(key);
                }
                measured = null;
            }
        }
        return unmeasured;
    }
}
