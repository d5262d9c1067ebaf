package io.hotpath.e2e;

import java.util.ArrayList;
import java.util.List;

/**
 * Command line of {@code bin/hotpath smoke}. Every bad input becomes a {@link UsageException}
 * with one line saying what was wrong.
 */
public record SmokeOptions(List<String> distributions, int messages, int threads, int bodySize, int queuesPerMaster,
                           int basePort, boolean privateNetwork, boolean keepStore, boolean help) {

    public static final String USAGE = """
            usage: bin/hotpath smoke [--dist stock|patched|both|<dir>] [-n messages] [-w threads] [-s bodyBytes]
                                     [-t queues] [--base-port P] [--keep-store] [--no-netns]

            Starts a 2m-2s RocketMQ 4.9.0 cluster (name server, broker-a and broker-b SYNC_MASTER, one SLAVE each,
            ASYNC_FLUSH) on 127.0.0.1, sends messages with a real rocketmq-client 4.9.0 producer (synchronous
            sends, like upstream's producer.sh), reads every queue back and checks that every acknowledged message
            is stored with its body and properties. Prints sent/acked/failed, TPS, RT, duplicates and lost, stops
            every process it started, and exits non-zero on any lost or corrupt message or error.

              --dist D        stock | patched (broker-dist/target/rocketmq-4.9.0-<D>) | both (stock, then
                              patched, side by side) | a distribution directory           [default: patched]
              -n N            messages to send                                            [default: 20000]
              -w N            sender threads                                              [default: 16]
              -s N            body size in bytes                                          [default: 1024]
              -t N            queues of the test topic on each master                     [default: 8]
              --base-port P   name server port; brokers use P+10..P+43                    [default: 19876]
              --keep-store    keep the brokers' stores after a passing run (always kept on failure)
              --no-netns      run on the host network instead of a private network namespace: RocketMQ 4.9.0
                              binds its servers to 0.0.0.0, so the brokers are then reachable from outside

            Runs go to e2e/target/e2e/<timestamp>-<flavor>/ (configs, logs, store, smoke-result.json).""";

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
                case "--dist" -> distributions = distributions(value(option, inlineValue, rest));
                case "-n", "--messages" -> messages = number(option, value(option, inlineValue, rest), 1, 50_000_000);
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
        return new SmokeOptions(distributions, messages, threads, bodySize, queues, basePort, privateNetwork, keepStore, help);
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

    private static int number(String option, String text, int min, int max) {
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
