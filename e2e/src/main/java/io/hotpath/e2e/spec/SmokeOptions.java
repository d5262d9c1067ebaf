package io.hotpath.e2e.spec;

import io.hotpath.e2e.UsageException;
import io.hotpath.lines.LineOption;
import io.hotpath.lines.ReleaseLine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command line of {@code bin/hotpath smoke}. Every bad input becomes a {@link UsageException}
 * with one line saying what was wrong.
 */
public record SmokeOptions(List<String> distributions, int messages, int threads, int bodySize, int queuesPerMaster,
                           int basePort, boolean privateNetwork, boolean keepStore, boolean help,
                           int seconds, int rate, List<String> brokerJvmOptions, FaultScenario fault, NetMode net,
                           String line, Path runRecord, int warmupSeconds, boolean tuned) {

    /** The options of the smoke before the load-shape ones existed: count-bounded, unpaced, default broker JVM. */
    public SmokeOptions(List<String> distributions, int messages, int threads, int bodySize, int queuesPerMaster,
                        int basePort, boolean privateNetwork, boolean keepStore, boolean help) {
        this(distributions, messages, threads, bodySize, queuesPerMaster, basePort, privateNetwork, keepStore, help,
                0, 0, List.of(), FaultScenario.NONE, NetMode.LOOPBACK, null, null, 0, false);
    }

    /** True when {@code --seconds} bounds the load by time; {@link #messages()} is then only the ledger's capacity. */
    public boolean timed() {
        return seconds > 0;
    }

    /** The unmeasured load before the measured one (read back and judged apart): {@code --warmup} seconds at the smoke's rate and threads, or none. */
    public Warmup warmup() {
        return new Warmup(warmupSeconds, 0);
    }

    /** The round each distribution of this smoke runs. */
    public RoundSpec round() {
        return new RoundSpec(messages, threads, bodySize, queuesPerMaster, seconds, rate, brokerJvmOptions, fault, keepStore,
                runRecord, true);
    }

    public static final String USAGE = """
            usage: bin/hotpath smoke [--dist stock|patched|both|<dir>] [-n messages] [-w threads] [-s bodyBytes]
                                     [-t queues] [--seconds S] [--rate R] [--warmup S] [--broker-jvm-opts "..."]
                                     [--fault none|kill-slave|kill-master|restart-cluster]
                                     [--net loopback|realistic] [--line R] [--run-record FILE]
                                     [--tuned] [--base-port P] [--keep-store] [--no-netns]

            Starts a 2m-2s RocketMQ cluster of the --line's release (name server, broker-a and broker-b SYNC_MASTER, one SLAVE each,
            ASYNC_FLUSH) on 127.0.0.1, sends messages with a real rocketmq-client 4.9.0 producer (synchronous
            sends, like upstream's producer.sh), reads every queue back and checks that every acknowledged message
            is stored with its body and properties. After the measured load it also sends 40 messages with V1
            headers (SEND_MESSAGE, code 10) and one batch of 16 (code 320) to hotpath_smoke_compat, checks the
            codes on the wire and audits them the same way; then 4 delayed and 5 transactional messages (one
            committed only on the broker's check-back) to hotpath_smoke_relay, and from a rocketmq-client 4.9.8
            JVM 40 messages and a batch of 16 to hotpath_smoke_498, read back by 4.9.8 and by 4.9.0 (adds ~15 s);
            on a 5.x line the same from a rocketmq-client 5.3.3 JVM to hotpath_smoke_533. Beside them, 20 timer
            messages (TIMER_DELIVER_MS 1-4 s ahead; 5.x lines only), 4 of delay level 1 and 2 of level 2 and 12
            plain ones to hotpath_smoke_timed, read by a push consumer: each one's lateness (first seen minus the
            time asked) per kind; a lost, changed, duplicated or early one fails the run.
            On a build with patch 0003 it checks that no CommitLog record of the test topic stores WAIT (and
            reports WAIT per topic, incl. the schedule and transaction system topics), and with --dist both
            that each is shorter than stock by exactly the stock record's WAIT entry and trailing separator
            (11 bytes on 4.9.0 and on 5.3.3, which store WAIT on every path; 0 on 4.9.8, whose normal send
            already stores neither).
            Prints sent/acked/failed, TPS, RT, duplicates and lost, stops every process it started, and exits
            non-zero on any lost or corrupt message or error.

              --dist D        stock | patched (broker-dist/target/rocketmq-<line>-<D>) | both (stock, then
                              patched, side by side) | a distribution directory           [default: patched]
              --line R        release line: a folder patches/<R>/ with line.properties; a partial line
                              (complete=false) runs only when named here   [default: the newest complete]
              -n N            messages to send                                            [default: 20000]
              -w N            sender threads                                              [default: 16]
              -s N            body size in bytes                                          [default: 1024]
              -t N            queues of the test topic on each master                     [default: 8]
              --seconds S     send for S seconds instead of a count; -n then caps the messages (default
                              S x 30000, above what this machine can take)
              --rate R        paced sends: R msg/s in total on a fixed schedule; a late sender catches up
                              (never skips a slot), so the offered load stays R msg/s         [default: unpaced]
              --warmup S      before the measured load, S s of the same load (-w, --rate) to a topic of its
                              own, hotpath_warmup_load, so that the brokers' first seconds (class loading, JIT)
                              are not measured; read back after the measured load and judged apart: a lost
                              message or a send failed after the cluster's first SEND_OK fails the run [default: 0, none]
              --broker-jvm-opts "O"
                              extra JVM options for the four brokers (whitespace-separated, no spaces
                              inside one option), e.g. "-XX:+UseParallelGC -Xms2g -Xmx2g"
              --fault F       kill-slave: kill -9 broker-a's slave half-way (broker-a then answers
                              SLAVE_NOT_AVAILABLE on 4.9.x, FLUSH_SLAVE_TIMEOUT after 3 s on 5.x);
                              kill-slave-restart: the same, the slave started again 3 s later; kill-master:
                              kill -9 broker-a half-way and restart it 3 s later; restart-cluster: restart all
                              five JVMs between load and read-back. Half-way: of --seconds, or 5 s into a -n run.
                              Zero-loss check as always. A send that fails fails the run unless the fault
                              expects its answer (listed per run); flow control (SYSTEM_BUSY) only a kill on 5.x.
              --net N         loopback: every node on 127.0.0.1                           [default: loopback]
                              realistic: each of the five servers in a network namespace of its own
                              (10.213.0.10-14, inside the run's private namespace) on a veth to the
                              controller's bridge (10.213.0.1), links shaped to 1 Gbit/s (tbf) and 0.03 ms
                              each way (netem: ~0.06 ms round trip; on a kernel without netem the delay is
                              left out, with a warning). Checks the links (round trip, throughput) before the
                              brokers start. Needs ip and tc (iproute2), nsenter; not with --no-netns
              --run-record F  also keep the run record in file F (a tool that starts the smoke picks F, then
                              reads it rather than the console)
              --tuned         lay the line's patches/<R>/tuned.properties over every broker's settings, as a
                              campaign's "+tuned" arms do (never the role, flush or replication)
              --base-port P   name server port; brokers use P+10..P+43                    [default: 19876]
              --keep-store    keep the brokers' stores after a passing run (always kept on failure)
              --no-netns      run on the host network instead of a private network namespace: RocketMQ 4.9.x
                              binds its servers to 0.0.0.0, so the brokers are then reachable from outside

            Runs go to e2e/target/e2e/<timestamp>-<flavor>/ (configs, logs, store, smoke-result.json; the files load.started
            and load.finished appear when sending starts and ends), and run-record.json: state (BOOTED, LOAD_STARTED,
            LOAD_FINISHED, STOPPED), release line, node PIDs and PID files, rewritten atomically at each change, for
            tools that act on the brokers meanwhile (io.hotpath.e2e.run.RunRecord).""";

    public static final int DEFAULT_MESSAGES = 20_000;
    public static final int DEFAULT_THREADS = 16;
    public static final int DEFAULT_BODY_SIZE = 1024;
    public static final int DEFAULT_QUEUES = 8;
    /** The client's default maxMessageSize: larger bodies are rejected before they are sent. */
    public static final int MAX_BODY_SIZE = 4 * 1024 * 1024;

    public static SmokeOptions parse(String... args) {
        List<String> distributions = List.of("patched");
        int messages = DEFAULT_MESSAGES;
        int threads = DEFAULT_THREADS;
        int bodySize = DEFAULT_BODY_SIZE;
        int queues = DEFAULT_QUEUES;
        int basePort = ClusterLayout.DEFAULT_BASE_PORT;
        boolean privateNetwork = true;
        boolean keepStore = false;
        boolean help = false;
        boolean messagesGiven = false;
        int seconds = 0;
        int rate = 0;
        List<String> brokerJvmOptions = List.of();
        FaultScenario fault = FaultScenario.NONE;
        NetMode net = NetMode.LOOPBACK;
        String line = null;
        Path runRecord = null;
        int warmupSeconds = 0;
        boolean tuned = false;

        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            String option = arg;
            String inlineValue = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq);
                inlineValue = arg.substring(eq + 1);
            }
            switch (option) {
                case "-h", "--help" -> help = true;
                case "--no-netns" -> privateNetwork = false;
                case "--keep-store" -> keepStore = true;
                case "--tuned" -> tuned = true;
                case "--dist" -> distributions = distributions(value(option, inlineValue, rest));
                case "-n", "--messages" -> {
                    messages = number(option, value(option, inlineValue, rest), 1, 50_000_000);
                    messagesGiven = true;
                }
                case "--seconds" -> seconds = number(option, value(option, inlineValue, rest), 1, 24 * 3600);
                case "--fault" -> fault = FaultScenario.parse(value(option, inlineValue, rest));
                case "--net" -> net = NetMode.parse(value(option, inlineValue, rest));
                case LineOption.LINE -> line = ReleaseLines.release(value(option, inlineValue, rest));
                case "--run-record" -> runRecord = Path.of(value(option, inlineValue, rest)).toAbsolutePath().normalize();
                case "--warmup" -> warmupSeconds = number(option, value(option, inlineValue, rest), 0, 3600);
                case "--rate" -> rate = number(option, value(option, inlineValue, rest), 1, 1_000_000);
                case "--broker-jvm-opts" -> brokerJvmOptions = jvmOptions(rawValue(option, inlineValue, rest));
                case "-w", "--threads" -> threads = number(option, value(option, inlineValue, rest), 1, 1024);
                case "-s", "--body-size" -> bodySize = number(option, value(option, inlineValue, rest), 1, MAX_BODY_SIZE);
                case "-t", "--queues" -> queues = number(option, value(option, inlineValue, rest), 1, 256);
                case "--base-port" -> basePort = number(option, value(option, inlineValue, rest),
                        ClusterLayout.MIN_BASE_PORT, ClusterLayout.MAX_BASE_PORT);
                default -> throw new UsageException(arg.startsWith("-")
                        ? "unknown option '" + arg + "' for smoke (see bin/hotpath smoke --help)"
                        : "unexpected argument '" + arg + "' for smoke (see bin/hotpath smoke --help)");
            }
        }
        checkNet(net, privateNetwork);
        if (seconds > 0 && !messagesGiven) {
            messages = (int) Math.min(50_000_000L, (long) seconds * RoundSpec.TIMED_CAPACITY_PER_SECOND);
        }
        return new SmokeOptions(distributions, messages, threads, bodySize, queues, basePort, privateNetwork, keepStore, help,
                seconds, rate, brokerJvmOptions, fault, net, line, runRecord, warmupSeconds, tuned);
    }

    /**
     * The {@code --line} (only its shape is checked by {@link #parse}), or the newest complete line: a partial line runs
     * when it is named, so that the smoke of a line whose patches are under way shows how far they go.
     */
    public ReleaseLine releaseLine(Path projectRoot) {
        return ReleaseLines.resolveNamedPartial(line, projectRoot);
    }

    /** The realistic network is built inside the run's private namespace: on the host's it would rewire the host. */
    public static void checkNet(NetMode net, boolean privateNetwork) {
        if (net == NetMode.REALISTIC && !privateNetwork) {
            throw new UsageException("--net realistic builds its namespaces inside the run's private network namespace;"
                    + " it cannot be combined with --no-netns");
        }
    }

    /** bin/mqbroker splits JAVA_OPTS on whitespace, so an option can never contain a space; say so rather than split it. */
    private static List<String> jvmOptions(String value) {
        List<String> options = value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
        for (String option : options) {
            if (!option.startsWith("-")) {
                throw new UsageException("--broker-jvm-opts: '" + option + "' is not a JVM option (each must start with '-';"
                        + " options are separated by whitespace and cannot contain it)");
            }
        }
        return options;
    }

    private static List<String> distributions(String value) {
        if (value.isBlank()) {
            throw new UsageException("--dist needs stock, patched, both or a distribution directory");
        }
        return value.equals("both") ? List.of("stock", "patched") : List.of(value);
    }

    private static String value(String option, String inlineValue, List<String> rest) {
        if (inlineValue != null) {
            return inlineValue;
        }
        if (rest.isEmpty() || (rest.get(0).startsWith("-") && rest.get(0).length() > 1 && !isNumber(rest.get(0)))) {
            throw new UsageException("option " + option + " needs a value (see bin/hotpath smoke --help)");
        }
        return rest.remove(0);
    }

    /** A value that itself starts with '-' (JVM options): the next argument, whatever it looks like. */
    private static String rawValue(String option, String inlineValue, List<String> rest) {
        if (inlineValue != null) {
            return inlineValue;
        }
        if (rest.isEmpty()) {
            throw new UsageException("option " + option + " needs a value (see bin/hotpath smoke --help)");
        }
        return rest.remove(0);
    }

    public static int number(String option, String text, int min, int max) {
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be a whole number, got '" + text + "'");
        }
        if (value < min || value > max) {
            throw new UsageException(option + " must be between " + min + " and " + max + ", got " + text);
        }
        return (int) value;
    }

    private static boolean isNumber(String text) {
        return text.matches("-?\\d+");
    }
}
