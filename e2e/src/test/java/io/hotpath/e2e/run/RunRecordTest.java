package io.hotpath.e2e.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonParseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRecordTest {

    @TempDir
    Path dir;

    private final RunRecord booted = RunRecord.booted("4.9.0", "patched", Path.of("/runs/20240101-120000-patched"),
            List.of(new RunRecord.Node("namesrv", "/runs/20240101-120000-patched/namesrv/pid", 7),
                    new RunRecord.Node("broker-a", "/runs/20240101-120000-patched/broker-a/pid", 9)), 20000);

    @Test
    void goesThroughItsStatesKeepingWhatWasKnownBefore() {
        RunRecord stopped = booted.loadStarted(1000).loadFinished(4000, 20000, 19990).stopped(true);

        assertThat(stopped.state()).isEqualTo(RunRecord.State.STOPPED);
        assertThat(stopped.loadStartedMillis()).isEqualTo(1000);
        assertThat(stopped.loadFinishedMillis()).isEqualTo(4000);
        assertThat(stopped.acked()).isEqualTo(19990);
        assertThat(stopped.passed()).isTrue();
        assertThat(stopped.node("broker-a")).map(RunRecord.Node::pid).contains(9L);
        assertThat(booted.reached(RunRecord.State.LOAD_STARTED)).isFalse();
        assertThat(booted.loadStarted(1).reached(RunRecord.State.LOAD_STARTED)).isTrue();
        assertThat(booted.stopped(null).reached(RunRecord.State.LOAD_STARTED)).isTrue();
    }

    @Test
    void readsBackWhatItWroteAndLeavesNoTempFile() {
        Path file = dir.resolve(RunRecord.FILE);
        RunRecord started = booted.loadStarted(1234);

        booted.write(file);
        started.write(file);

        assertThat(RunRecord.read(file)).contains(started);
        assertThat(dir.toFile().list()).containsExactly(RunRecord.FILE);
    }

    @Test
    void isPlainJsonWithTheStateByNameAndUnknownFieldsLeftOut() {
        String json = booted.toJson();

        assertThat(json).contains("\"schema\": 1", "\"state\": \"BOOTED\"", "\"line\": \"4.9.0\"", "\"pid\": 9",
                "\"pidFile\": \"/runs/20240101-120000-patched/broker-a/pid\"").doesNotContain("loadStartedMillis", "passed");
    }

    @Test
    void isEmptyBeforeTheRunWroteItAndRejectsAnotherSchema() throws IOException {
        assertThat(RunRecord.read(dir.resolve("missing.json"))).isEmpty();

        Path other = Files.writeString(dir.resolve("other.json"), "{\"schema\": 2, \"state\": \"BOOTED\", \"nodes\": []}");
        assertThatThrownBy(() -> RunRecord.read(other)).isInstanceOf(JsonParseException.class).hasMessageContaining("schema 1");
    }
}
