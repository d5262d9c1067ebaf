package io.hotpath.e2e.load;

import io.hotpath.e2e.ClusterException;
import io.hotpath.e2e.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.hook.SendMessageContext;
import org.apache.rocketmq.client.hook.SendMessageHook;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;

/**
 * Load generator modelled on upstream's benchmark {@code Producer} ({@code producer.sh}): N sender
 * threads, each a loop of synchronous {@code send()} with a real rocketmq-client 4.9.0
 * {@link DefaultMQProducer} on default settings (3 s timeout, 2 retries), messages from
 * {@link SeededMessages}. Unlike upstream it sends a fixed number of messages or for a fixed time,
 * optionally on a fixed-rate schedule ({@link LoadSpec}), and keeps every
 * outcome in a {@link SendLedger}, and it counts the client's internal retries through a send
 * hook instead of hiding them.
 */
public final class LoadProducer {

    /**
     * What to send: at most {@code messages} messages of {@code messageSource} from {@code threads} threads;
     * with {@code seconds > 0} senders stop taking messages after that long; with {@code rate > 0} message
     * {@code seq} is due at {@code start + seq / rate} (a fixed schedule: a late sender sends at once to
     * catch up instead of skipping the slot, so the offered load stays {@code rate} and never turns into
     * bursts: a sender that skips missed slots sends in bursts, which changed CPU per message by ~20 % here).
     */
    public record LoadSpec(SeededMessages messageSource, int messages, int threads, int seconds, int rate) {

        public LoadSpec(SeededMessages messageSource, int messages, int threads) {
            this(messageSource, messages, threads, 0, 0);
        }
    }

    /** Told when the first sender starts and when the last one has finished, e.g. to sample CPU over exactly that window. */
    public interface LoadWindow {
        void started();

        void finished();
    }

    private static final LoadWindow NO_WINDOW = new LoadWindow() {
        @Override
        public void started() {
        }

        @Override
        public void finished() {
        }
    };

    private final String namesrvAddress;
    private final LoadSpec spec;
    private final LoadWindow window;
    private final LongAccumulator maxScheduleLagNanos = new LongAccumulator(Math::max, 0);
    private volatile boolean stopRequested;
    private long startNanos;
    private long deadlineNanos;

    public LoadProducer(String namesrvAddress, LoadSpec spec) {
        this(namesrvAddress, spec, NO_WINDOW);
    }

    public LoadProducer(String namesrvAddress, LoadSpec spec, LoadWindow window) {
        this.namesrvAddress = namesrvAddress;
        this.spec = spec;
        this.window = window;
    }

    /** Makes every sender finish its current send and take no new message (the rest stay NOT_SENT). */
    public void stop() {
        stopRequested = true;
    }

    /**
     * Sends everything, printing progress every few seconds, and returns the ledger once all senders
     * finished. On SIGINT/SIGTERM the senders stop taking messages instead of hammering a cluster
     * that is being shut down.
     */
    public LoadResult run() throws InterruptedException {
        Thread stopOnShutdown = new Thread(this::stop, "hotpath-load-stop");
        Runtime.getRuntime().addShutdownHook(stopOnShutdown);
        try {
            return runProducer();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnShutdown);
            } catch (IllegalStateException e) {
                // shutting down already: the hook has run
            }
        }
    }

    private LoadResult runProducer() throws InterruptedException {
        SendLedger ledger = new SendLedger(spec.messages());
        DefaultMQProducer producer = new DefaultMQProducer("hotpath_load_producer");
        producer.setNamesrvAddr(namesrvAddress);
        producer.setInstanceName("hotpath-load-" + spec.messageSource().runId());
        // as upstream's benchmark Producer: measure the broker, not the client's zip
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.getDefaultMQProducerImpl().registerSendMessageHook(new AttemptCounter(ledger));
        try {
            producer.start();
        } catch (MQClientException e) {
            throw new ClusterException("cannot start the load producer: " + e.getMessage(), e);
        }
        try {
            return send(producer, ledger);
        } finally {
            producer.shutdown();
        }
    }

    private LoadResult send(DefaultMQProducer producer, SendLedger ledger) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < spec.threads(); i++) {
            senders.add(new Thread(() -> sendLoop(producer, ledger, next), "hotpath-sender-" + i));
        }
        ProgressWindow progress = new ProgressWindow(ledger);
        window.started();
        long start = System.nanoTime();
        startNanos = start;
        deadlineNanos = spec.seconds() > 0 ? start + spec.seconds() * 1_000_000_000L : Long.MAX_VALUE;
        long elapsed;
        try (Ticker ignored = Ticker.start(progress::line)) {
            senders.forEach(Thread::start);
            for (Thread sender : senders) {
                sender.join();
            }
        } finally {
            senders.forEach(Thread::interrupt);
            elapsed = System.nanoTime() - start;
            window.finished();
        }
        return new LoadResult(ledger, elapsed, spec.rate() > 0 ? maxScheduleLagNanos.get() : -1);
    }

    /** Waits until {@code seq}'s slot on the fixed schedule; returns false when the run's time is up instead. */
    private boolean awaitSlot(int seq) throws InterruptedException {
        if (spec.rate() == 0) {
            return System.nanoTime() < deadlineNanos;
        }
        long due = startNanos + seq * 1_000_000_000L / spec.rate();
        if (due >= deadlineNanos) {
            return false;
        }
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
            // sleep overshoots by tens of us: the lateness is recorded, and the next slot stays on the absolute schedule
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        maxScheduleLagNanos.accumulate(-wait);
        return true;
    }

    private void sendLoop(DefaultMQProducer producer, SendLedger ledger, AtomicInteger next) {
        int seq;
        while (!stopRequested && !Thread.currentThread().isInterrupted() && (seq = next.getAndIncrement()) < spec.messages()) {
            var message = spec.messageSource().build(seq);
            long begin = 0;
            boolean handedOver = false;
            try {
                if (!awaitSlot(seq)) {
                    return;
                }
                begin = System.nanoTime();
                handedOver = true;
                SendResult result = producer.send(message);
                ledger.recordResult(seq, result, System.nanoTime() - begin);
            } catch (InterruptedException e) {
                if (!handedOver) {
                    // interrupted while waiting for the slot: never sent, stays NOT_SENT
                    Thread.currentThread().interrupt();
                    return;
                }
                ledger.recordFailure(seq, e, System.nanoTime() - begin);
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // MQClientException (retries exhausted, no route), RemotingException, MQBrokerException (e.g. flow control)
                ledger.recordFailure(seq, e, System.nanoTime() - begin);
            }
        }
    }

    /** Counts attempts inside the client: it calls the hook before every try and after every failed one. */
    private record AttemptCounter(SendLedger ledger) implements SendMessageHook {

        @Override
        public String hookName() {
            return "hotpath-attempt-counter";
        }

        @Override
        public void sendMessageBefore(SendMessageContext context) {
            ledger.recordAttempt();
        }

        @Override
        public void sendMessageAfter(SendMessageContext context) {
            if (context.getException() != null) {
                ledger.recordAttemptFailure(context.getException());
            }
        }
    }

    /** "sent 12000/20000, last 5 s: 2400 msg/s, avg RT 6.1 ms, max RT 80 ms" from deltas of the ledger's counters. */
    private final class ProgressWindow {
        private final SendLedger ledger;
        private long lastNanos = System.nanoTime();
        private long lastAcked;
        private long lastRtTotal;

        ProgressWindow(SendLedger ledger) {
            this.ledger = ledger;
        }

        synchronized String line() {
            long now = System.nanoTime();
            long acked = ledger.acked();
            long rtTotal = ledger.ackedRtMicrosTotal();
            double seconds = (now - lastNanos) / 1e9;
            long deltaAcked = acked - lastAcked;
            String line = String.format(Locale.ROOT,
                    "sending: %d%s done, acked %d, not OK %d, failed %d, attempts %d | last %.0f s: %.0f acked/s, avg RT %.2f ms, max RT so far %.1f ms",
                    ledger.completed(), spec.seconds() > 0 ? " (of a " + spec.seconds() + " s run)" : "/" + spec.messages(), acked, ledger.notOk(), ledger.failed(), ledger.attempts(),
                    seconds, deltaAcked / seconds, deltaAcked == 0 ? 0.0 : (rtTotal - lastRtTotal) / 1000.0 / deltaAcked,
                    ledger.ackedRtMicrosMax() / 1000.0);
            lastNanos = now;
            lastAcked = acked;
            lastRtTotal = rtTotal;
            return line;
        }
    }
}
