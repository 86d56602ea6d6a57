package dev.redrive.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.job.EntryIds;
import dev.redrive.observe.QueueMetrics;
import dev.redrive.redis.StreamInfo;
import dev.redrive.time.Timers;
import io.smallrye.mutiny.Uni;

/**
 * Every {@code redrive.gauge-interval}, the figures of every queue in one round (one figures.lua
 * call per hash slot): the gauges, and each queue's pending summary for its retry scheduler and
 * stall reclaimer, which look at pages of the PEL only when the summary says there is something
 * for them. A thousand idle queues cost one call per interval, not thousands.
 *
 * <p>One round at a time, each given up after {@code redrive.redis-timeout}: rounds that overlapped
 * could end out of order (a round sent before Redis died answered after a later one had failed,
 * so the outage was logged as over and then as begun again), and a frozen Redis piled up one round
 * per interval on the pool's connections.
 */
final class FigureRound {

    private static final Logger LOG = Logger.getLogger(FigureRound.class);

    private final List<QueueSpec> specs;
    private final List<StreamInfo.QueueKeys> keys;
    private final StreamInfo streams;
    private final Map<String, QueueMetrics> metrics;
    private final Timers time;
    private final Map<String, Consumer<StreamInfo.Figures>> observers = new ConcurrentHashMap<>();
    private final OutageLog outage = new OutageLog(LOG, "refreshing the queues' gauges");
    private final Duration limit;
    private final AtomicBoolean running = new AtomicBoolean();

    FigureRound(List<QueueSpec> specs, StreamInfo streams, Map<String, QueueMetrics> metrics, Timers time, Duration limit) {
        this.specs = specs;
        this.keys = specs.stream().map(s -> new StreamInfo.QueueKeys(s.stream(), s.group(), s.deadLetters())).toList();
        this.streams = streams;
        this.metrics = metrics;
        this.time = time;
        this.limit = limit;
    }

    /** Hands each round's figures of {@code queue} to {@code observer} too. */
    void observe(String queue, Consumer<StreamInfo.Figures> observer) {
        observers.put(queue, observer);
    }

    /** Starts a round, unless the previous one still runs: whether it started one. */
    boolean refresh() {
        if (!running.compareAndSet(false, true)) {
            return false;
        }
        // Deferred: a failure to even build the call ends the round like any other, never leaves it running.
        Uni.createFrom().deferred(() -> streams.figures(keys)).ifNoItem().after(limit).fail().subscribe().with(all -> {
            try {
                outage.worked();
                for (int i = 0; i < all.size(); i++) {
                    apply(specs.get(i).name(), all.get(i));
                }
            } finally {
                running.set(false);
            }
        }, error -> {
            outage.failed(error);
            running.set(false);
        });
        return true;
    }

    private void apply(String queue, StreamInfo.Figures f) {
        QueueMetrics m = metrics.get(queue);
        m.depth(f.depth());
        m.pending(f.group().pending());
        m.lag(Math.max(0, f.group().lag()));
        m.consumers(f.group().consumers());
        m.oldestPendingAge(f.oldestPending() == null ? 0
                : time.millis() - EntryIds.timestamp(f.oldestPending()).toEpochMilli());
        Consumer<StreamInfo.Figures> observer = observers.get(queue);
        if (observer != null) {
            observer.accept(f);
        }
    }
}
