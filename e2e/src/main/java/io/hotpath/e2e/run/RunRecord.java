package io.hotpath.e2e.run;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;

/**
 * Where a smoke run is, for tools that act on it while it runs (the profiler attaches to the masters once the
 * load has started): {@code <run dir>/run-record.json}, and the file given by {@code --run-record}, rewritten
 * whole at each state change (a temp file moved over the old one, so a reader never sees half a record). The
 * smoke writes it, {@code io.hotpath.profiling.ClusterSession} reads it; both through this class. Console lines
 * are for people and may change; this is the contract.
 *
 * <p>{@code nodes[].pid} is the PID as the smoke's JVM sees it: under bin/hotpath smoke that is inside the run's
 * own PID namespace, not the host's. Times are epoch milliseconds; a field not known yet is absent.
 */
public record RunRecord(int schema, State state, String line, String flavor, String runDir, List<Node> nodes,
                        int messages, Long loadStartedMillis, Long loadFinishedMillis, Long sent, Long acked, Boolean passed) {

    public static final int SCHEMA = 1;
    public static final String FILE = "run-record.json";

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().create();

    /** In the order a run goes through them; a run that fails may jump to {@link #STOPPED} from any of them. */
    public enum State {
        BOOTED, LOAD_STARTED, LOAD_FINISHED, STOPPED
    }

    /** A server process of the cluster: its name (namesrv, broker-a, ...), PID file and PID. */
    public record Node(String name, String pidFile, long pid) {
    }

    public static RunRecord booted(String line, String flavor, Path runDir, List<Node> nodes, int messages) {
        return new RunRecord(SCHEMA, State.BOOTED, line, flavor, runDir.toString(), List.copyOf(nodes), messages, null, null, null,
                null, null);
    }

    public RunRecord loadStarted(long epochMillis) {
        return new RunRecord(schema, State.LOAD_STARTED, line, flavor, runDir, nodes, messages, epochMillis, null, null, null, null);
    }

    public RunRecord loadFinished(long epochMillis, long sent, long acked) {
        return new RunRecord(schema, State.LOAD_FINISHED, line, flavor, runDir, nodes, messages, loadStartedMillis, epochMillis,
                sent, acked, null);
    }

    /** {@code passed} null: the run ended on an error before its verdict. */
    public RunRecord stopped(Boolean passed) {
        return new RunRecord(schema, State.STOPPED, line, flavor, runDir, nodes, messages, loadStartedMillis, loadFinishedMillis,
                sent, acked, passed);
    }

    /** True once the run has reached {@code state} (or gone past it). */
    public boolean reached(State state) {
        return this.state.compareTo(state) >= 0;
    }

    public Optional<Node> node(String name) {
        return nodes.stream().filter(node -> node.name().equals(name)).findFirst();
    }

    public String toJson() {
        return GSON.toJson(this) + "\n";
    }

    public static RunRecord fromJson(String json) {
        RunRecord record = GSON.fromJson(json, RunRecord.class);
        if (record == null || record.schema() != SCHEMA || record.state() == null || record.nodes() == null) {
            throw new JsonParseException("not a run record of schema " + SCHEMA + ": " + json.strip().lines().findFirst().orElse(""));
        }
        return record;
    }

    /** Writes the record to {@code file} atomically: a temp file next to it, then moved over it. */
    public void write(Path file) {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(temp, toJson(), StandardCharsets.UTF_8);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run record " + file, e);
        }
    }

    /** The record in {@code file}, or empty while the run has not written one yet. */
    public static Optional<RunRecord> read(Path file) {
        try {
            return Optional.of(fromJson(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the run record " + file, e);
        }
    }
}
