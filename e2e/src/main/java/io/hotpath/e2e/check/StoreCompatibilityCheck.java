package io.hotpath.e2e.check;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Console;
import io.hotpath.e2e.load.LoadProducer;
import io.hotpath.e2e.load.LoadResult;
import io.hotpath.e2e.load.SeededMessages;
import io.hotpath.e2e.load.SendLedger;
import io.hotpath.e2e.node.ClusterNetwork;
import io.hotpath.e2e.node.LocalCluster;
import io.hotpath.e2e.spec.Distribution;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Upgrade and rollback on one set of stores: stock 4.9.0 writes messages on {@link #UPGRADE_TOPIC};
 * the patched broker, started on the same stores, must serve them intact (upgrade) and writes messages
 * on {@link #ROLLBACK_TOPIC}; stock, started once more on those stores, must serve both topics intact
 * (rollback). Each phase is a full boot, so three boots in all.
 */
public final class StoreCompatibilityCheck {

    static final String UPGRADE_TOPIC = "hotpath_upgrade";
    static final String ROLLBACK_TOPIC = "hotpath_rollback";
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration VERIFY_TIMEOUT = Duration.ofMinutes(5);

    /** One verification in one phase. */
    public record Check(String phase, String topic, DeliveryAudit.DeliveryReport report) {
        public String line() {
            return String.format("%-9s %-17s acked %d, confirmed %d, lost %d, corrupt %d, misplaced %d -> %s", phase, topic,
                    report.acked(), report.confirmed(), report.lost(), report.corrupt(), report.misplaced(),
                    report.passed() ? "PASS" : "FAIL");
        }
    }

    private final Distribution stock;
    private final Distribution patched;
    private final ClusterNetwork network;
    private final Path runDir;
    private final int messages;

    public StoreCompatibilityCheck(Distribution stock, Distribution patched, ClusterNetwork network, Path runDir, int messages) {
        this.stock = stock;
        this.patched = patched;
        this.network = network;
        this.runDir = runDir;
        this.messages = messages;
    }

    public List<Check> run() throws InterruptedException {
        List<Check> checks = new ArrayList<>();
        String runId = runDir.getFileName().toString();
        SeededMessages upgrade = new SeededMessages(UPGRADE_TOPIC, runId + "-upgrade", 1024);
        SeededMessages rollback = new SeededMessages(ROLLBACK_TOPIC, runId + "-rollback", 1024);
        SendLedger upgradeLedger;
        SendLedger rollbackLedger;

        Console.progress("compatibility 1/3: stock writes %d messages on %s", messages, UPGRADE_TOPIC);
        try (LocalCluster cluster = new LocalCluster(stock, network, runDir, List.of())) {
            cluster.start(BOOT_TIMEOUT);
            upgradeLedger = send(cluster, upgrade);
            checks.add(new Check("stock", UPGRADE_TOPIC, verify(cluster, upgrade, upgradeLedger)));
        }
        Console.progress("compatibility 2/3: patched serves stock's store (upgrade) and writes %d messages on %s", messages, ROLLBACK_TOPIC);
        try (LocalCluster cluster = new LocalCluster(patched, network, runDir, List.of())) {
            cluster.start(BOOT_TIMEOUT);
            checks.add(new Check("upgrade", UPGRADE_TOPIC, verify(cluster, upgrade, upgradeLedger)));
            rollbackLedger = send(cluster, rollback);
            checks.add(new Check("patched", ROLLBACK_TOPIC, verify(cluster, rollback, rollbackLedger)));
        }
        Console.progress("compatibility 3/3: stock serves the patched broker's store (rollback)");
        LocalCluster last = new LocalCluster(stock, network, runDir, List.of());
        try (last) {
            last.start(BOOT_TIMEOUT);
            checks.add(new Check("rollback", UPGRADE_TOPIC, verify(last, upgrade, upgradeLedger)));
            checks.add(new Check("rollback", ROLLBACK_TOPIC, verify(last, rollback, rollbackLedger)));
        }
        checks.forEach(check -> Console.progress("%s", check.line()));
        // like a passing smoke: the stores are the bulk of the run directory; a failure keeps them for inspection
        if (checks.stream().allMatch(check -> check.report().passed())) {
            last.deleteStores();
        }
        return checks;
    }

    private SendLedger send(LocalCluster cluster, SeededMessages source) throws InterruptedException {
        cluster.createTopic(source.topic(), 4, Duration.ofMinutes(1));
        LoadResult load = new LoadProducer(cluster.namesrvAddress(), new LoadProducer.LoadSpec(source, messages, 8)).run();
        Console.progress("sent %d on %s: acked %d, failed %d", load.sent(), source.topic(), load.acked(), load.failed());
        if (load.acked() == 0) {
            throw new ClusterException("compatibility check: nothing acknowledged on " + source.topic() + "; it would prove nothing");
        }
        return load.ledger();
    }

    private static DeliveryAudit.DeliveryReport verify(LocalCluster cluster, SeededMessages source, SendLedger ledger) {
        return new Verifier(cluster.namesrvAddress(), VERIFY_TIMEOUT).verify(source, ledger);
    }
}
