package io.hotpath.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollapsedStacksTest {

    @Test
    void readsFramesRootFirstAndTheCountAfterTheLastSpace() {
        CollapsedStacks stacks = CollapsedStacks.parse("[GC Thread#0 tid=17];GangWorker::loop 4\nmain_[j];a/B.c_[i] 3\n");

        assertThat(stacks.stacks()).containsExactly(
            new CollapsedStacks.Stack(List.of("[GC Thread#0 tid=17]", "GangWorker::loop"), 4),
            new CollapsedStacks.Stack(List.of("main_[j]", "a/B.c_[i]"), 3));
        assertThat(stacks.totalSamples()).isEqualTo(7);
    }

    @Test
    void addsUpRepeatedStacksAndSkipsBlankLines() {
        CollapsedStacks stacks = CollapsedStacks.parse("a;b 2\n\n   \na;b 5\n");

        assertThat(stacks.stacks()).containsExactly(new CollapsedStacks.Stack(List.of("a", "b"), 7));
    }

    @Test
    void rejectsALineWithoutACountNamingTheLine() {
        assertThatThrownBy(() -> CollapsedStacks.parse("a;b 1\na;b;c\n"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("input:2")
            .hasMessageContaining("a;b;c");
    }

    @Test
    void mergesTwoProfilesStackByStack() {
        CollapsedStacks merged = CollapsedStacks.parse("a;b 2\na;c 1\n").merge(CollapsedStacks.parse("a;c 4\nd 1\n"));

        assertThat(merged.stacks()).containsExactly(
            new CollapsedStacks.Stack(List.of("a", "b"), 2),
            new CollapsedStacks.Stack(List.of("a", "c"), 5),
            new CollapsedStacks.Stack(List.of("d"), 1));
    }

    @Test
    void normalizesToAGivenTotalSoThatDiffsCompareShares() {
        CollapsedStacks normalized = CollapsedStacks.parse("a 1\nb 3\n").normalizedTo(1000);

        assertThat(normalized.stacks()).containsExactly(
            new CollapsedStacks.Stack(List.of("a"), 250),
            new CollapsedStacks.Stack(List.of("b"), 750));
    }

    @Test
    void stripsJfrconvTypeSuffixesOnly() {
        assertThat(CollapsedStacks.frameName("java/util/HashMap.put_[i]")).isEqualTo("java/util/HashMap.put");
        assertThat(CollapsedStacks.frameName("tcp_sendmsg_[k]")).isEqualTo("tcp_sendmsg");
        assertThat(CollapsedStacks.frameName("byte[]_[i]")).isEqualTo("byte[]");
        assertThat(CollapsedStacks.frameName("byte[]")).isEqualTo("byte[]");
        assertThat(CollapsedStacks.frameName("GangWorker::loop")).isEqualTo("GangWorker::loop");
    }

    @Test
    void tellsJavaFramesFromNativeAndKernelFrames() {
        assertThat(CollapsedStacks.isJavaFrame("java/lang/Thread.run_[0]")).isTrue();
        assertThat(CollapsedStacks.isJavaFrame("io/netty/channel/nio/NioEventLoop.run_[j]")).isTrue();
        assertThat(CollapsedStacks.isJavaFrame("java/lang/Thread.run")).isTrue();
        assertThat(CollapsedStacks.isJavaFrame("tcp_sendmsg_[k]")).isFalse();
        assertThat(CollapsedStacks.isJavaFrame("G1EvacuateRegionsTask::work")).isFalse();
        assertThat(CollapsedStacks.isJavaFrame("/usr/lib/jvm/java-17-openjdk-amd64/bin/java")).isFalse();
        assertThat(CollapsedStacks.isJavaFrame("[GC Thread#0 tid=17]")).isFalse();
    }

    @Test
    void writesWhatItReads(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("x.collapsed");
        CollapsedStacks.parse("a;b 2\nc 1\n").write(file);

        assertThat(Files.readString(file)).isEqualTo("a;b 2\nc 1\n");
        assertThat(CollapsedStacks.read(file).totalSamples()).isEqualTo(3);
    }
}
