package dev.redrive.worker;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.redis.StreamAccess;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Moves failed jobs from "waiting for retry" back to running once their backoff has passed.
 * Waiting entries sit under {@link Consumers#RETRY}; their attempt count is their delivery count
 * and their wait started when they were handed over, so the due time needs no extra state.
 */
final class RetryScheduler {

    private static final Logger LOG = Logger.getLogger(RetryScheduler.class);

    private final QueueWorker worker;
    private final StreamAccess redis;
    private final Clock clock;
    private final QueueSpec spec;
    private final Periodic periodic;
    private final PelPages pages;
    private final OutageLog outage;
    /** The last look found more due retries than free slots: fill slots as soon as they free up. */
    private volatile boolean dueWaiting;

    RetryScheduler(QueueWorker worker, StreamAccess redis, Vertx vertx, Clock clock) {
        this.worker = worker;
        this.redis = redis;
        this.clock = clock;
        this.spec = worker.spec();
        this.periodic = new Periodic(vertx);
        this.pages = new PelPages(Math.max(100, spec.concurrency() * 4));
        this.outage = new OutageLog(LOG, "looking for due retries of " + spec.stream());
    }

    void start() {
        periodic.every(spec.retryPoll(), this::poll);
        worker.onSlotsFreed(() -> {
            if (dueWaiting) {
                poll();
            }
        });
    }

    void stop() {
        periodic.cancel();
    }

    void poll() {
        int free = worker.freeSlots();
        if (free <= 0) {
            return;
        }
        String from = pages.begin();
        if (from == null) {
            return;
        }
        List<StreamAccess.Seen> missing = new ArrayList<>();
        long now = clock.millis();
        // Enough to fill the free slots when only some waiting entries are due, no more: a page
        // is read and decoded whole, and most of a large one would only be skipped.
        int ask = Math.min(pages.size(), Math.max(100, free * 4));
        redis.pending(spec.stream(), spec.group(), Consumers.RETRY, spec.backoff().shortest(), from, ask)
                .flatMap(page -> {
                    List<StreamAccess.Seen> due = pages.take(page, ask, free, this::isDue);
                    if (due.isEmpty()) {
                        return Uni.createFrom().item(List.<StreamAccess.Entry>of());
                    }
                    return redis.claim(spec.stream(), spec.group(), worker.consumer(), now, Duration.ZERO, due, missing);
                })
                .subscribe().with(claimed -> {
                    pages.end();
                    outage.worked();
                    missing.forEach(worker::parkMissing);
                    worker.offer(claimed);
                    // A page full of due entries means more wait: look again as slots free up, not at
                    // the next tick (the slots just filled are busy until their jobs settle).
                    dueWaiting = !claimed.isEmpty() && claimed.size() >= free;
                }, error -> {
                    pages.end();
                    outage.failed(error);
                });
    }

    /** Due once idle for the backoff before its next attempt (jitter seeded by the id, so every tick agrees). */
    private boolean isDue(StreamAccess.Seen seen) {
        return seen.idle().compareTo(spec.backoff().delayBefore(seen.deliveryCount() + 1, seen.id().hashCode())) >= 0;
    }
}
