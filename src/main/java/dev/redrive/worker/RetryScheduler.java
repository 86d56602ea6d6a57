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
 * XPENDING walks them from a cursor in bounded pages, so a tick costs the same however long the
 * stream or the PEL is.
 */
final class RetryScheduler {

    private static final Logger LOG = Logger.getLogger(RetryScheduler.class);

    private final QueueWorker worker;
    private final StreamAccess redis;
    private final Vertx vertx;
    private final Clock clock;
    private final QueueSpec spec;
    private String cursor = "-";
    private boolean polling;
    private long timer = -1;

    RetryScheduler(QueueWorker worker, StreamAccess redis, Vertx vertx, Clock clock) {
        this.worker = worker;
        this.redis = redis;
        this.vertx = vertx;
        this.clock = clock;
        this.spec = worker.spec();
    }

    void start() {
        timer = vertx.setPeriodic(spec.retryPoll().toMillis(), t -> poll());
    }

    void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    synchronized boolean busy() {
        return polling;
    }

    void poll() {
        int free = worker.freeSlots();
        String from;
        synchronized (this) {
            if (polling || free <= 0) {
                return;
            }
            polling = true;
            from = cursor;
        }
        int page = Math.max(100, free * 4);
        List<StreamAccess.Seen> missing = new ArrayList<>();
        long now = clock.millis();
        redis.pendingOf(spec.stream(), spec.group(), Consumers.RETRY, spec.backoff().shortest(), from, page)
                .flatMap(pending -> {
                    synchronized (this) {
                        cursor = pending.size() < page ? "-" : "(" + pending.get(pending.size() - 1).getMessageId();
                    }
                    List<StreamAccess.Seen> due = new ArrayList<>();
                    for (var p : pending) {
                        if (due.size() < free && isDue(p.getMessageId(), p.getDeliveryCount(), p.getDurationSinceLastDelivery())) {
                            due.add(new StreamAccess.Seen(p.getMessageId(), Consumers.RETRY, p.getDeliveryCount()));
                        }
                    }
                    if (due.isEmpty()) {
                        return Uni.createFrom().item(List.<StreamAccess.Entry>of());
                    }
                    return redis.claim(spec.stream(), spec.group(), worker.consumer(), now, Duration.ZERO, due, missing);
                })
                .subscribe().with(claimed -> {
                    synchronized (this) {
                        polling = false;
                    }
                    missing.forEach(worker::parkMissing);
                    worker.offer(claimed);
                    if (!claimed.isEmpty() && claimed.size() >= free) {
                        poll(); // the page was full of due entries: there may be more
                    }
                }, error -> {
                    synchronized (this) {
                        polling = false;
                    }
                    LOG.warnf("looking for due retries of %s failed: %s", spec.stream(), error.getMessage());
                });
    }

    /** Due once idle for the backoff before its next attempt (jitter seeded by the id, so every tick agrees). */
    private boolean isDue(String id, int deliveries, Duration idle) {
        return idle.compareTo(spec.backoff().delayBefore(deliveries + 1, id.hashCode())) >= 0;
    }
}
