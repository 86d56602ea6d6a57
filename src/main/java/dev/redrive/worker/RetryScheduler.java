package dev.redrive.worker;

import java.time.Clock;
import java.time.Duration;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.redis.StreamAccess;
import io.vertx.mutiny.core.Vertx;

/**
 * Moves failed jobs from "waiting for retry" back to running once their backoff has passed.
 * Waiting entries sit under {@link Consumers#RETRY}; their attempt count is their delivery count
 * and their wait started when they were handed over, so the due time needs no extra state.
 */
final class RetryScheduler {

    private static final Logger LOG = Logger.getLogger(RetryScheduler.class);

    private final QueueWorker worker;
    private final Clock clock;
    private final QueueSpec spec;
    private final Periodic periodic;
    private final PelSweep sweep;
    /** The last look found more due retries than free slots: fill slots as soon as they free up. */
    private volatile boolean dueWaiting;

    RetryScheduler(QueueWorker worker, StreamAccess redis, Vertx vertx, Clock clock) {
        this.worker = worker;
        this.clock = clock;
        this.spec = worker.spec();
        this.periodic = new Periodic(vertx);
        this.sweep = new PelSweep(redis, spec.stream(), spec.group(), Math.max(100, spec.concurrency() * 4),
                new OutageLog(LOG, "looking for due retries of " + spec.stream()));
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
        // Enough to fill the free slots when only some waiting entries are due, no more: a page
        // is read and decoded whole, and most of a large one would only be skipped.
        int ask = Math.min(sweep.pageSize(), Math.max(100, free * 4));
        PelSweep.Look due = new PelSweep.Look(Consumers.RETRY, spec.backoff().shortest(), ask, free, this::isDue);
        // A page full of due entries means more wait: look again as slots free up, not at the next
        // tick (the slots just filled are busy until their jobs settle).
        sweep.claimFor(worker, clock, due, Duration.ZERO,
                (claimed, missing) -> dueWaiting = !claimed.isEmpty() && claimed.size() >= free);
    }

    /** Due once idle for the backoff before its next attempt (jitter seeded by the id, so every tick agrees). */
    private boolean isDue(StreamAccess.Seen seen) {
        return seen.idle().compareTo(spec.backoff().delayBefore(seen.deliveryCount() + 1, seen.id().hashCode())) >= 0;
    }
}
